package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SelfSeccompTest {
    /** The value after "Name:" in /proc/self/status, read here without the parser. */
    private static int statusValue(String name) throws Exception {
        for (String line : Files.readAllLines(SelfSeccomp.STATUS)) {
            if (line.startsWith(name + ":\t")) {
                return Integer.parseInt(line.substring(name.length() + 2).trim());
            }
        }
        throw new AssertionError("no " + name + " line in " + SelfSeccomp.STATUS);
    }

    @Test
    void readsThisProcessesOwnStatus() throws Exception {
        SelfSeccomp s = SelfSeccomp.capture();
        assertEquals(Map.of(), s.unread());
        assertEquals(statusValue("Seccomp"), s.seccomp());
        assertEquals(statusValue("Seccomp_filters"), s.seccompFilters());
        assertEquals(statusValue("NoNewPrivs"), s.noNewPrivs());
        assertEquals(s.seccomp() == 2, s.seccompFilters() > 0, "filter mode exactly when filters are attached");
        assertEquals(s.seccomp() == 0 ? "disabled" : s.seccomp() == 2 ? "filter" : "strict", s.mode());
    }

    @Test
    void parsesAContainersStatus() {
        String docker = "Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nNoNewPrivs:\t1\nSeccomp:\t2\n"
                + "Seccomp_filters:\t1\nSpeculation_Store_Bypass:\tthread force mitigated\n";
        SelfSeccomp s = SelfSeccomp.parse(docker, "sample");
        assertEquals(2, s.seccomp());
        assertEquals("filter", s.mode());
        assertEquals(1, s.seccompFilters());
        assertEquals(1, s.noNewPrivs());
        assertTrue(s.unread().isEmpty());
        assertEquals(2, s.toMap().get("seccomp"));
        assertEquals("filter", s.toMap().get("seccomp_mode"));
    }

    /** Before Linux 5.9 there is no Seccomp_filters line: the count is null with the reason, not 0. */
    @Test
    void aMissingOrBrokenLineIsNullWithItsReason() {
        SelfSeccomp old = SelfSeccomp.parse("Name:\tjava\nNoNewPrivs:\t0\nSeccomp:\t0\n", "old-status");
        assertEquals(0, old.seccomp());
        assertNull(old.seccompFilters());
        assertEquals("old-status has no Seccomp_filters: line", old.unread().get("seccomp_filters"));
        assertTrue(old.toMap().containsKey("seccomp_filters"), "the key stays, with a null value");
        assertNull(old.toMap().get("seccomp_filters"));

        SelfSeccomp bad = SelfSeccomp.parse("Seccomp:\tx\n", "odd");
        assertNull(bad.seccomp());
        assertNull(bad.mode());
        assertEquals("odd: Seccomp: 'x' is not a number", bad.unread().get("seccomp"));
        assertEquals(3, bad.unread().size());
    }
}
