package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MitigationsTest {
    @Test
    void mitigationsOffAndPtiOn() {
        Mitigations m =
                Mitigations.fromCmdline("BOOT_IMAGE=/vmlinuz-6.1.0 root=UUID=0a1b ro quiet mitigations=off pti=on\n");
        assertEquals("off", m.cmdlineMitigations());
        assertEquals("on", m.cmdlinePti());
        assertEquals(List.of("mitigations=off", "pti=on"), m.cmdlineParams());
    }

    @Test
    void withoutMitigationParametersEverythingIsNull() {
        Mitigations m = Mitigations.fromCmdline("BOOT_IMAGE=/vmlinuz root=/dev/vda1 ro console=ttyS0");
        assertNull(m.cmdlineMitigations(), "not given: the kernel's default, which we do not guess");
        assertNull(m.cmdlinePti());
        assertEquals(List.of(), m.cmdlineParams());
        Map<String, Object> json = m.toMap();
        assertTrue(json.containsKey("cmdline_mitigations"));
        assertNull(json.get("cmdline_mitigations"));
    }

    @Test
    void bareFlagsLastValueWinsAndDashesAreUnderscores() {
        Mitigations m =
                Mitigations.fromCmdline("nopti mitigations=auto spectre-v2=retpoline mitigations=auto,nosmt nosmt");
        assertEquals("auto,nosmt", m.cmdlineMitigations());
        assertNull(m.cmdlinePti(), "nopti is a flag, kept in the parameters as written");
        assertEquals(
                List.of("nopti", "mitigations=auto", "spectre-v2=retpoline", "mitigations=auto,nosmt", "nosmt"),
                m.cmdlineParams());
    }

    /** Firecracker's command line: init's arguments after "--" are not the kernel's. */
    @Test
    void stopsAtTheInitSeparatorAndHonoursQuotes() {
        String fc = "mitigations=auto,no_guest_host console=ttyS0 rdinit=/init -- --pti=off mitigations=off";
        Mitigations m = Mitigations.fromCmdline(fc);
        assertEquals("auto,no_guest_host", m.cmdlineMitigations());
        assertEquals(List.of("mitigations=auto,no_guest_host"), m.cmdlineParams());

        assertEquals(
                List.of("a", "dyndbg=file x.c +p", "pti=off"),
                Mitigations.kernelParams(" a  dyndbg=\"file x.c +p\"\tpti=\"off\""));
        assertEquals("off", Mitigations.fromCmdline("x \"pti=off\"").cmdlinePti());
        assertEquals(List.of(), Mitigations.kernelParams("-- mitigations=off"));
    }

    @Test
    void capturesThisKernel() throws Exception {
        Mitigations m = Mitigations.capture();
        String cmdline = Files.readString(Mitigations.CMDLINE);
        assertEquals(Mitigations.fromCmdline(cmdline).cmdlineParams(), m.cmdlineParams());
        if (Files.isDirectory(Mitigations.VULNERABILITIES)) {
            try (var files = Files.list(Mitigations.VULNERABILITIES)) {
                assertEquals(files.count(), m.vulnerabilities().size());
            }
            m.vulnerabilities().values().forEach(v -> assertFalse(v.isEmpty()));
        } else {
            assertNull(m.vulnerabilities());
            assertTrue(
                    m.unread().get("vulnerabilities").contains("does not exist"),
                    m.unread().toString());
        }
        assertFalse(m.toMap().toString().contains("root="), "only the mitigation parameters are kept");
    }
}
