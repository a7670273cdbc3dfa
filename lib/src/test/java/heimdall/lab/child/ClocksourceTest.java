package heimdall.lab.child;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The rule that no measured child times with a clock that makes a system call. */
@Timeout(30)
class ClocksourceTest {
    @Test
    void clocksourcesWithoutAVdsoPathAreRefusedNamingThem() {
        for (String name : List.of("hpet", "acpi_pm", "jiffies", "refined-jiffies", "pit", "TSC", "tsc ", "")) {
            Clocksource c = new Clocksource(name);
            assertFalse(c.vdso(), name);
            Refusal r = assertThrows(Refusal.class, c::requireVdso, name);
            assertTrue(r.getMessage().startsWith("the kernel's clocksource is " + name + " ("), r.getMessage());
            assertTrue(r.getMessage().contains("clocksource=tsc"), "says what to do: " + r.getMessage());
        }
        for (String name :
                List.of("tsc", "tsc-early", "kvm-clock", "hyperv_clocksource_tsc_page", "xen", "arch_sys_counter")) {
            Clocksource c = new Clocksource(name);
            assertTrue(c.vdso(), name);
            assertDoesNotThrow(c::requireVdso, name);
        }
    }

    @Test
    void theFileIsReadAsTheKernelWritesItAndAnythingElseRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("current_clocksource");
        Files.writeString(f, "hpet\n");
        assertEquals(new Clocksource("hpet"), Clocksource.read(f));
        Files.writeString(f, "\n");
        assertThrows(Refusal.class, () -> Clocksource.read(f), "empty");
        Files.writeString(f, "tsc\u0000evil\n");
        assertThrows(Refusal.class, () -> Clocksource.read(f), "a control character");
        Refusal gone = assertThrows(Refusal.class, () -> Clocksource.read(tmp.resolve("absent")));
        assertTrue(gone.getMessage().startsWith("cannot tell the kernel's clocksource ("), gone.getMessage());
    }

    /** This host's own clocksource, and a measured child started on it: runs on a vDSO clock, else refused. */
    @Test
    void theRealClocksourceDecidesWhetherAChildStarts() throws Exception {
        Clocksource now = Clocksource.current();
        String available = Files.readString(Clocksource.CURRENT.resolveSibling("available_clocksource"));
        assertTrue(List.of(available.strip().split("\\s+")).contains(now.name()), now + " among " + available);
        System.err.println("clocksource: " + now.name() + (now.vdso() ? " (vDSO)" : " (no vDSO path)"));
        ChildSpec spec = ChildSpec.of(Call.GETPPID, 100, 1000);
        if (now.vdso()) {
            assertEquals(1000, MeasuredChild.run(spec).requireCompleted().samples().length);
        } else {
            Refusal r = assertThrows(Refusal.class, () -> MeasuredChild.start(spec));
            assertTrue(r.getMessage().contains(now.name()), r.getMessage());
        }
    }
}
