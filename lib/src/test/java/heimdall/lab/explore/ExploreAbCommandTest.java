package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.LabRun;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab explore ab}: bad input named by its option, and a real A/B of a profile against itself. */
class ExploreAbCommandTest {
    @Test
    void anUnknownProfileFileNamesTheOption(@TempDir Path dir) {
        String missing = dir.resolve("no-such.json").toString();
        LabRun.of("explore", "ab", "--a", missing, "--b", "fixture:abcdf", "--calls", "getppid")
                .assertRefused(2, "--a", "no-such.json", "no such file");
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:nope", "--calls", "getppid")
                .assertRefused(2, "--b", "nope");
    }

    @Test
    void anUnknownCallNamesTheOption() {
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:abcdf", "--calls", "getppid,getfoo")
                .assertRefused(2, "--calls", "getfoo", "not an x86_64 system call");
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:abcdf", "--calls", "getppid,")
                .assertRefused(2, "--calls", "empty");
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:abcdf")
                .assertRefused(2, "--calls");
    }

    @Test
    void runsAndThresholdOutOfRangeNameTheOption() {
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:abcdf", "--calls", "getppid", "--runs", "0")
                .assertRefused(2, "--runs", "out of range");
        LabRun.of(
                        "explore",
                        "ab",
                        "--a",
                        "fixture:abcdf",
                        "--b",
                        "fixture:abcdf",
                        "--calls",
                        "getppid",
                        "--threshold",
                        "abc")
                .assertRefused(2, "--threshold", "not a percentage");
        LabRun.of("explore", "ab", "--a", "fixture:abcdf", "--b", "fixture:abcdf", "--calls", "getppid", "--count", "x")
                .assertRefused(2, "--count");
    }

    @Test
    void helpListsTheOptions() {
        LabRun r = LabRun.of("explore", "ab", "--help");
        assertEquals(0, r.status(), r.err());
        for (String o : new String[] {"--a", "--b", "--calls", "--runs", "--threshold", "Mann-Whitney"}) {
            assertTrue(r.out().contains(o), o);
        }
    }

    /** A fixture profile against itself, quick counts, enough runs for the test: no difference for each call. */
    @Test
    @Timeout(600)
    void aProfileAgainstItselfIsNoDifference() {
        Requires.seccomp("kill_process", "allow");
        LabRun r = LabRun.of(
                "explore",
                "ab",
                "--a",
                "fixture:abcdf",
                "--b",
                "fixture:abcdf",
                "--calls",
                "getppid,getuid",
                "--runs",
                "6",
                "--count",
                "3000");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains("0 slower, 0 faster, 2 no difference beyond noise"), r.out());
        assertTrue(r.out().contains("Mann-Whitney U"), r.out());
        assertTrue(!r.out().contains("too few runs"), r.out());
    }
}
