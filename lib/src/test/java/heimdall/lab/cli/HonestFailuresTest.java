package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import heimdall.lab.cli.BpfCommandsTest.Outcome;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.testing.LabJvm;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a command line can fail on the user's side ends with status 2 and one message naming the
 * file or option and the reason, never status 3 (a bug) and never a stack trace: missing inputs,
 * directories given as files, outputs into missing directories or onto a full device ({@code
 * /dev/full}: a real ENOSPC), numbers that would overflow an {@code int}, a profile too big for the heap.
 */
class HonestFailuresTest {
    static final Path FULL = Path.of("/dev/full");

    @TempDir
    Path dir;

    Path profile() throws Exception {
        Path p = dir.resolve("p.json");
        Files.writeString(p, """
                {"defaultAction": "SCMP_ACT_KILL_PROCESS", "syscalls": [
                  {"names": ["getppid", "exit_group"], "action": "SCMP_ACT_ALLOW"}]}""");
        return p;
    }

    /** Status 2, the stderr message holds every one of {@code names}, and nothing looks like a stack trace. */
    static void assertBadInput(Outcome o, String... names) {
        assertEquals(2, o.status(), "status; stderr:\n" + o.err());
        for (String n : names) {
            assertTrue(o.err().contains(n), "stderr names '" + n + "':\n" + o.err());
        }
        assertFalse(
                o.err().contains("\tat ")
                        || o.err().contains("Exception")
                        || o.err().contains("internal error"),
                "no stack trace or exception class on stderr:\n" + o.err());
    }

    @Test
    void compileIntoAMissingDirectoryNamesTheFile() throws Exception {
        String out = dir.resolve("no-such-dir").resolve("p.bpf").toString();
        assertBadInput(
                BpfCommandsTest.run("bpf", "compile", profile().toString(), "-o", out),
                out,
                "no such file or directory");
    }

    @Test
    void compileOntoAFullDeviceIsEnospcNotABug() throws Exception {
        assumeTrue(Files.exists(FULL), "no /dev/full on this system");
        assertBadInput(
                BpfCommandsTest.run("bpf", "compile", profile().toString(), "-o", FULL.toString()),
                "/dev/full",
                "no space left on device");
    }

    @Test
    void aProfileThatIsNotUtf8IsRefusedNotReplaced() throws Exception {
        Path p = dir.resolve("latin1.json");
        Files.write(
                p,
                "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"comment\": \"caf\u00e9\"}"
                        .getBytes(StandardCharsets.ISO_8859_1));
        assertBadInput(BpfCommandsTest.run("bpf", "stats", p.toString()), p.toString(), "not UTF-8");
    }

    @Test
    void compileOntoADirectoryNamesIt() throws Exception {
        assertBadInput(
                BpfCommandsTest.run("bpf", "compile", profile().toString(), "-o", dir.toString()),
                dir.toString(),
                "is a directory");
    }

    @Test
    void disasmOfAMissingFileOrADirectoryNamesIt() {
        for (String name : List.of("gone.bpf", "gone.json")) {
            String f = dir.resolve(name).toString();
            assertBadInput(BpfCommandsTest.run("bpf", "disasm", f), f, "no such file or directory");
        }
        assertBadInput(BpfCommandsTest.run("bpf", "stats", dir.toString()), dir.toString(), "is a directory");
        // Unreadable even for root: reading from address 0 of a process's memory is EIO.
        Path mem = Path.of("/proc/self/mem");
        if (Files.exists(mem)) {
            assertBadInput(
                    BpfCommandsTest.run("bpf", "stats", mem.toString()), mem + ": cannot read: input/output error");
        }
    }

    @Test
    void syscallTableAndProfileGenOutputsOntoAFullDevice() throws Exception {
        assumeTrue(Files.exists(FULL), "no /dev/full on this system");
        Path header = dir.resolve("unistd_64.h");
        Files.writeString(header, "#define __NR_read 0\n#define __NR_write 1\n");
        assertBadInput(
                BpfCommandsTest.run("profile", "syscall-table", "--from", header.toString(), "-o", FULL.toString()),
                "/dev/full",
                "no space left on device");
        String missing = dir.resolve("none.h").toString();
        assertBadInput(BpfCommandsTest.run("profile", "syscall-table", "--from", missing), missing, "no such file");

        Path observations = Fixtures.home().resolve("fixtures/profiles/abcdf/observations.json");
        assertBadInput(
                BpfCommandsTest.run("profile", "gen", observations.toString(), "-o", FULL.toString()),
                "/dev/full",
                "no space left on device");
        assertBadInput(BpfCommandsTest.run("profile", "gen", dir.toString()), dir.toString(), "is a directory");
        String gone = dir.resolve("gone.json").toString();
        assertBadInput(BpfCommandsTest.run("profile", "gen", gone), gone, "no such file or directory");
        if (Files.exists(Path.of("/dev/zero"))) {
            // A device is refused by its type before a byte is read (regular files only).
            assertBadInput(
                    BpfCommandsTest.run("profile", "gen", "/dev/zero"),
                    "/dev/zero",
                    "not a regular file",
                    "character device");
        }
    }

    @Test
    void aResultsFolderThatCannotBeCreatedIsBadInputBeforeAnyMeasuring() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        String under = file.resolve("results").toString();
        assertBadInput(
                BpfCommandsTest.run("reproduce", "floor-cost", "--quick", "--out", under), under, "not a directory");
        String podman = dir.resolve("no-such-profile.json").toString();
        assertBadInput(
                BpfCommandsTest.run(
                        "reproduce",
                        "attach-cost",
                        "--quick",
                        "--podman",
                        podman,
                        "--out",
                        dir.resolve("r").toString()),
                podman,
                "no such file or directory");
        assertFalse(Files.exists(dir.resolve("r")), "a refused command line created its results folder");
    }

    /** Command lines whose number does not fit (or is out of range), with the option they must name. */
    static List<List<String>> outOfRange() {
        String huge = "99999999999999999999999999";
        List<List<String>> c = new ArrayList<>();
        c.add(List.of("--runs", "4294967296", "reproduce", "floor-cost", "--runs", "4294967296"));
        c.add(List.of("--cpu", "4294967297", "reproduce", "floor-cost", "--cpu", "4294967297"));
        c.add(List.of("--calls", huge, "reproduce", "floor-cost", "--calls", huge));
        c.add(List.of("--broker-calls", "-5", "reproduce", "floor-cost", "--broker-calls", "-5"));
        c.add(List.of("--supervisor-cpu", "-1", "reproduce", "floor-cost", "--supervisor-cpu", "-1"));
        c.add(List.of("--batch-runs", "4294967296", "reproduce", "kernel-bitmap", "--batch-runs", "4294967296"));
        c.add(List.of("--batch-calls", "4294967296", "reproduce", "kernel-bitmap", "--batch-calls", "4294967296"));
        c.add(List.of("--attaches", "4294967297", "reproduce", "attach-cost", "--attaches", "4294967297"));
        c.add(List.of("--forks", "0", "reproduce", "attach-cost", "--forks", "0"));
        c.add(List.of("--settle", "4294967296000", "reproduce", "host-load", "--settle", "4294967296000"));
        c.add(List.of("--count", "4294967296", "child", "run", "--call", "getppid", "--count", "4294967296"));
        c.add(List.of("--count", "-1", "child", "run", "--call", "getppid", "--count", "-1"));
        c.add(List.of("--warmup", huge, "child", "run", "--call", "getppid", "--warmup", huge));
        c.add(List.of("--cpu", "4294967297", "child", "run", "--call", "getppid", "--cpu", "4294967297"));
        c.add(List.of("--calls", "4294967296", "broker", "bench", "--calls", "4294967296"));
        c.add(List.of("--warmup", "-1", "broker", "bench", "--warmup", "-1"));
        c.add(List.of("--runs", "4294967297", "broker", "bench", "--runs", "4294967297"));
        c.add(List.of("--child-cpu", "4294967297", "broker", "bench", "--child-cpu", "4294967297"));
        c.add(List.of("--sup-cpu", "4294967297", "broker", "bench", "--sup-cpu", "4294967297"));
        c.add(List.of("--stack", "4294967297", "graph", "record", "--stack", "4294967297", "--", "true"));
        c.add(List.of("--max-frames", "0", "graph", "info", "--max-frames", "0", "n.arrow", "e.arrow"));
        c.add(List.of("--bytes", huge, "graph", "info", "--bytes", huge, "n.arrow", "e.arrow"));
        c.add(List.of("--runs", "4294967297", "profile", "probe", "--runs", "4294967297", "--", "true"));
        c.add(List.of("--runs", "4294967297", "profile", "regen-fixtures", "--runs", "4294967297"));
        return c;
    }

    @ParameterizedTest
    @MethodSource("outOfRange")
    void numbersThatDoNotFitAreRefusedNamingTheOptionAndValue(List<String> c) {
        Outcome o = BpfCommandsTest.run(c.subList(2, c.size()).toArray(new String[0]));
        assertBadInput(o, "option " + c.get(0), c.get(1));
    }

    @Test
    void aNumberWithGroupingIsRefusedNeverRead() {
        // a comma is a list separator elsewhere (--cpu 0,1): 1,000 and 1_0 are not read as 1000 and 10
        assertBadInput(
                BpfCommandsTest.run("child", "run", "--call", "getppid", "--count", "1,000"),
                "option --count",
                "'1,000' is not a whole number");
        assertBadInput(
                BpfCommandsTest.run("child", "run", "--call", "getppid", "--warmup", "1_0"),
                "option --warmup",
                "'1_0' is not a whole number");
        Outcome o = BpfCommandsTest.run("child", "run", "--call", "getppid", "--count", "1000", "--warmup", "10");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("10 warm-up, 1,000 measured"), o.out());
    }

    /** A report printed on standard output redirected to a full disk is incomplete: status 2, not 0. */
    @Test
    void standardOutputOntoAFullDeviceIsNotSuccess() throws Exception {
        assumeTrue(Files.exists(FULL), "no /dev/full on this system");
        List<String> cmd = LabJvm.lab().command("bpf", "disasm", profile().toString());
        Process jvm = new ProcessBuilder(cmd).redirectOutput(FULL.toFile()).start();
        String err = new String(jvm.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jvm.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        assertBadInput(new Outcome(jvm.exitValue(), "", err), "cannot write standard output");
    }

    /** A 200 MB profile (real bytes on disk) is refused by name, size and limit, without being read into the heap. */
    @Test
    void aHugeProfileIsRefusedNamingTheFileAndTheLimit() throws Exception {
        Path big = dir.resolve("big.json");
        long rules = 0;
        try (BufferedWriter w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
            w.write("{\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\", \"syscalls\": [\n");
            String rule = "{\"names\": [\"getppid\", \"gettid\", \"getpid\"], \"action\": \"SCMP_ACT_ALLOW\"},\n";
            for (long written = 0; written < 200_000_000L; written += rule.length()) {
                w.write(rule);
                rules++;
            }
            w.write("{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"}]}\n");
        }
        assertTrue(Files.size(big) > 200_000_000L && rules > 1_000_000);
        Outcome o = BpfCommandsTest.run("bpf", "stats", big.toString());
        assertBadInput(o, big.toString(), "over the limit", "4 MiB");
        Files.delete(big);
        // An endless file (size 0 on stat) is refused by its type before a byte is read.
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            assertBadInput(BpfCommandsTest.run("bpf", "stats", zero.toString()), "/dev/zero", "not a regular file");
        }
    }

    /**
     * The most wasteful profile under the limit (4 MiB of nested empty arrays: the JSON tree is many times
     * the file) parses in a JVM with a 512 MiB heap: the limit is small enough for the heap, not only a number.
     */
    @Test
    void theLargestAcceptedProfileParsesInA512MiBHeapAndAStarvedHeapIsStatus2() throws Exception {
        Path p = dir.resolve("wasteful.json");
        StringBuilder s = new StringBuilder("{\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\", \"comment\": [");
        String tail = "[]], \"syscalls\": [{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_ALLOW\"}]}";
        while (s.length() + 3 + tail.length() < ProfileJson.MAX_BYTES) {
            s.append("[],");
        }
        s.append(tail);
        Files.writeString(p, s);
        assertTrue(Files.size(p) <= ProfileJson.MAX_BYTES && Files.size(p) > ProfileJson.MAX_BYTES - 16);

        List<String> cmd = LabJvm.lab().option("-Xmx512m").command("bpf", "stats", p.toString());
        Process jvm = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(jvm.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, jvm.exitValue(), output);
        assertTrue(output.contains("heimdall"), output);

        // The same file in a heap too small for its tree: a resource problem, status 2 naming the heap.
        List<String> small = LabJvm.lab().option("-Xmx40m").command("bpf", "stats", p.toString());
        Process starved = new ProcessBuilder(small).redirectErrorStream(true).start();
        String said = new String(starved.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(starved.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        assertBadInput(new Outcome(starved.exitValue(), "", said), "out of memory", "MiB", "-Xmx");
    }
}
