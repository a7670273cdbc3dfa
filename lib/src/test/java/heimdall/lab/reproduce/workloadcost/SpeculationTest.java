package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict on forced SSB/STIBP from the states a filtered and an unfiltered run ended in, and the default
 * suite's missing programs as refusals naming their Debian package.
 */
class SpeculationTest {
    @TempDir
    Path tmp;

    private static Speculation.Seen seen(String ssbNone, String ibNone, String ssbFiltered, String ibFiltered) {
        Speculation.Seen s = new Speculation.Seen();
        s.unfilteredSsb = ssbNone;
        s.unfilteredIb = ibNone;
        s.filteredBy = "xz-compress under podman";
        s.filteredSsb = ssbFiltered;
        s.filteredIb = ibFiltered;
        return s;
    }

    @Test
    void aKernelThatForcesTheMitigationOnFilteredTasksIsSaidForcedWithBothStates() {
        Speculation v = Speculation.judge(
                seen(
                        "thread vulnerable",
                        "conditional enabled",
                        "thread force mitigated",
                        "conditional force disabled"),
                "forced",
                "spectre_v1 spectre_v2 spec_store_bypass",
                List.of("ssbd", "stibp"),
                "Mitigation: Speculative Store Bypass disabled via prctl and seccomp",
                "Mitigation: Retpolines, STIBP: conditional");
        assertEquals(Boolean.TRUE, v.forced());
        assertTrue(v.verdict().startsWith("forced: "), v.verdict());
        assertTrue(
                v.verdict().contains("'thread force mitigated'") && v.verdict().contains("'thread vulnerable'"));
    }

    @Test
    void anUnaffectedCpuCannotShowItAndTheVerdictQuotesCpuinfoAndTheKernelsFiles() {
        Speculation v = Speculation.judge(
                seen("not vulnerable", "not affected", "not vulnerable", "not affected"),
                "forced",
                "fxsave_leak sysret_ss_attrs",
                List.of(),
                "Not affected",
                "Not affected");
        assertNull(v.forced());
        assertTrue(v.verdict().startsWith("cannot be seen here: the kernel finds this CPU not affected"), v.verdict());
        assertTrue(v.verdict().contains("bugs: fxsave_leak sysret_ss_attrs"), v.verdict());
        assertTrue(v.verdict().contains("spec_store_bypass: 'Not affected'"), v.verdict());
        assertTrue(v.verdict().contains("which predicts: forced"), v.verdict());
    }

    @Test
    void anAffectedCpuWithoutControlsCannotShowItEitherButEqualControlledStatesAreNotForced() {
        Speculation none = Speculation.judge(
                seen("vulnerable", "always enabled", "vulnerable", "always enabled"),
                "not forced",
                "spectre_v1 spectre_v2 spec_store_bypass",
                List.of(),
                "Vulnerable",
                "Mitigation: Retpolines");
        assertNull(none.forced());
        assertTrue(none.verdict().contains("no per-task control"), none.verdict());
        Speculation kept = Speculation.judge(
                seen("thread vulnerable", "conditional enabled", "thread vulnerable", "conditional enabled"),
                "not forced",
                "spec_store_bypass",
                List.of("ssbd"),
                "Mitigation: Speculative Store Bypass disabled via prctl",
                "Mitigation: Enhanced IBRS");
        assertEquals(Boolean.FALSE, kept.forced());
        assertTrue(kept.verdict().startsWith("not forced: "), kept.verdict());
        Speculation unseen = Speculation.judge(
                seen("vulnerable", "always enabled", null, null), "forced", "", List.of(), null, null);
        assertNull(unseen.forced());
        assertTrue(unseen.verdict().contains("no run under a filter"), unseen.verdict());
    }

    @Test
    void thisMachinesCpuinfoIsRead() {
        String[] cpu = Speculation.cpuinfo();
        assertNotNull(cpu[0], "/proc/cpuinfo has a bugs line (or flags with none)");
        assertNotNull(cpu[1], "/proc/cpuinfo has flags");
    }

    @Test
    void aMissingProgramOfTheSuiteIsRefusedNamingItsDebianPackageAndAPresentOneIsNot() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        String why = Suite.missing("gcc", empty.toString());
        assertTrue(why.startsWith("not run: the default suite needs gcc (Debian package gcc)"), why);
        assertTrue(why.contains("not found on PATH (" + empty + ")"), why);
        assertTrue(Suite.missing("xz", empty.toString()).contains("(Debian package xz-utils)"));
        Path bin = Files.createDirectory(tmp.resolve("bin"));
        Path xz = Files.writeString(bin.resolve("xz"), "#!/bin/sh\n");
        xz.toFile().setExecutable(true);
        assertNull(Suite.missing("xz", empty + ":" + bin));
        // a file that is there but not executable is missing too
        Files.writeString(bin.resolve("make"), "#!/bin/sh\n");
        assertNotNull(Suite.missing("make", bin.toString()));
    }
}
