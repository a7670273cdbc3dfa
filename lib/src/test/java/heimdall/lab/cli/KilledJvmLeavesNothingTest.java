package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import heimdall.lab.analysis.Results;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.testing.Fact;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./lab}'s real main in its own JVM, SIGKILLed at 20 seeded random moments spread over
 * floor-cost, lanes, follower-cost and graph record: afterwards no process the JVM started is alive
 * (runners, the tracer, the traced command and its children), no {@code --out} is part-written (absent,
 * empty, or loadable), and once the next run has started no scratch folder, hidden results temporary
 * or output temporary of the killed runs is left.
 *
 * <p>Every process is followed through a cgroup of its own: the JVM is started by a shell that first
 * moves itself into it, so every descendant is born inside (none of ours moves itself out), whatever its
 * environment, process group or parent after reparenting. The cgroup is a kernel fact: without a
 * writable cgroup hierarchy the test skips loudly (and fails under LAB_REQUIRE_KERNEL=1).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KilledJvmLeavesNothingTest {
    /** A new seed each run (so each CI run kills at other moments), printed with every failure to replay it. */
    static final long SEED = Long.getLong("heimdall.test.seed", System.nanoTime());
    /** Three moments per command: CI's time is shared with every other suite (the seed varies them). */
    static final int MOMENTS = 12;

    @TempDir
    Path tmp;

    Path cgroup;
    Path scratch;
    Path outs;
    Path graphs;

    @BeforeEach
    void setUp() throws Exception {
        Path root = cgroupRoot();
        Requires.that(
                root != null
                        ? Fact.present("a writable cgroup hierarchy", root.toString())
                        : Fact.absent(
                                "a writable cgroup hierarchy",
                                "no cgroup2 or v1 pids mount in /proc/mounts that we can write"));
        cgroup = root.resolve("heimdall-killtest-" + ProcessHandle.current().pid());
        try {
            Files.createDirectory(cgroup);
        } catch (IOException e) {
            Requires.that(Fact.absent("a writable cgroup hierarchy", "mkdir " + cgroup + ": " + e));
        }
        scratch = Files.createDirectory(
                tmp.resolve("tmpdir"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        outs = Files.createDirectory(tmp.resolve("outs"));
        graphs = Files.createDirectory(tmp.resolve("graphs"));
    }

    @AfterEach
    void tearDown() throws Exception {
        if (cgroup != null && Files.isDirectory(cgroup)) {
            for (long pid : members()) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly); // only what a failed check left
            }
            for (int i = 0; i < 100 && !members().isEmpty(); i++) {
                Thread.sleep(50);
            }
            Files.delete(cgroup);
        }
    }

    /** A cgroup2 mount, else the v1 pids hierarchy: somewhere a child cgroup can be made. */
    static Path cgroupRoot() throws IOException {
        Path v1 = null;
        for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
            String[] f = line.split(" ");
            if (f.length < 4 || f[3].startsWith("ro")) {
                continue;
            }
            if (f[2].equals("cgroup2")) {
                return Path.of(f[1]);
            }
            if (f[2].equals("cgroup") && List.of(f[3].split(",")).contains("pids")) {
                v1 = Path.of(f[1]);
            }
        }
        return v1;
    }

    /** Every process in the test's cgroup now. */
    List<Long> members() throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String l : Files.readAllLines(cgroup.resolve("cgroup.procs"))) {
            if (!l.isBlank()) {
                pids.add(Long.parseLong(l.strip()));
            }
        }
        return pids;
    }

    /** One of the four commands, with its own --out; graph record writes every time into the same folder. */
    record Command(String name, List<String> argv, Path out, double maxSeconds) {}

    Command command(int kind, int moment) {
        Path out = outs.resolve("m" + moment);
        return switch (kind) {
            case 0 ->
                new Command(
                        "floor-cost", List.of("reproduce", "floor-cost", "--quick", "--out", out.toString()), out, 12);
            case 1 -> new Command("lanes", List.of("reproduce", "lanes", "--quick", "--out", out.toString()), out, 12);
            case 2 ->
                new Command(
                        "follower-cost",
                        List.of("reproduce", "follower-cost", "--quick", "--out", out.toString()),
                        out,
                        12);
            default ->
                new Command(
                        "graph record",
                        List.of(
                                "graph",
                                "record",
                                "--out",
                                graphs.toString(),
                                "--program",
                                "p",
                                "--",
                                "sh",
                                "-c",
                                "ls / >/dev/null; sleep 3; ls /usr >/dev/null"),
                        graphs,
                        6);
        };
    }

    Process start(List<String> argv) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                "sh",
                "-c",
                "echo $$ > \"$0\" && exec \"$@\"",
                cgroup.resolve("cgroup.procs").toString()));
        cmd.addAll(LabJvm.lab().tmpdir(scratch).command(argv));
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("last.log").toFile())
                .start();
    }

    @Test
    void sigkillAtRandomMomentsLeavesNoProcessNoPartWrittenOutAndNoScratch() throws Exception {
        System.err.println(
                "KilledJvmLeavesNothingTest: seed " + SEED + " (-Dheimdall.test.seed=" + SEED + " replays it)");
        Random random = new Random(SEED);
        List<String> report = new ArrayList<>();
        int leftoversSeen = 0;
        for (int m = 0; m < MOMENTS; m++) {
            Command c = command(m % 4, m);
            double at = 0.3 + random.nextDouble() * c.maxSeconds(); // JVM start-up included
            Process jvm = start(c.argv());
            boolean ended = jvm.waitFor((long) (at * 1000), TimeUnit.MILLISECONDS);
            int descendants = (int) (members().size() - (ended ? 0 : 1));
            if (!ended) {
                jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no finally
                assertTrue(jvm.waitFor(30, TimeUnit.SECONDS), "the JVM died");
            }
            List<Long> alive = awaitEmpty();
            if (!alive.isEmpty()) {
                fail(c.name() + " killed at " + String.format("%.2f s", at) + " (seed " + SEED
                        + ", -Dheimdall.test.seed replays it): processes left alive: " + describe(alive));
            }
            assertNotPartWritten(c);
            int left = leftovers().size();
            leftoversSeen += left;
            report.add(String.format(
                    "%s killed at %.2f s%s: %d descendants then, %d leftovers",
                    c.name(), at, ended ? " (had ended)" : "", descendants, left));
        }
        // The next run: graph record makes a scratch folder (the sweep) and rewrites the same names in
        // graphs/ (their temporaries swept), bpf stats writes a results folder into outs/ (its sweep).
        Path profile = Files.writeString(
                tmp.resolve("p.json"),
                "{\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\", \"syscalls\": [{\"names\": [\"getppid\"], "
                        + "\"action\": \"SCMP_ACT_ALLOW\"}]}");
        for (List<String> next : List.of(
                command(3, 99).argv(),
                List.of(
                        "bpf",
                        "stats",
                        profile.toString(),
                        "--out",
                        outs.resolve("next").toString()))) {
            Process p = start(next);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the next run ends");
            assertEquals(0, p.exitValue(), next + ": " + Files.readString(tmp.resolve("last.log")));
        }
        assertEquals(List.of(), awaitEmpty(), "the next runs left no process");
        assertEquals(
                List.of(),
                leftovers(),
                "after the next run (" + leftoversSeen + " leftovers seen after the kills, seed " + SEED + "):\n"
                        + String.join("\n", report));
        System.err.println("KilledJvmLeavesNothingTest:\n  " + String.join("\n  ", report));
    }

    /** Waits (bounded) for the cgroup to empty: the kernel delivers the death signals at once. */
    List<Long> awaitEmpty() throws Exception {
        for (int i = 0; i < 200; i++) {
            List<Long> left = members();
            if (left.isEmpty()) {
                return left;
            }
            Thread.sleep(25);
        }
        return members();
    }

    static String describe(List<Long> pids) {
        StringBuilder b = new StringBuilder();
        for (long pid : pids) {
            String cmdline;
            try {
                cmdline = new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
                        .replace('\0', ' ');
            } catch (IOException gone) {
                cmdline = "(gone)";
            }
            b.append("\n  ").append(pid).append(": ").append(cmdline);
        }
        return b.toString();
    }

    /** --out absent, empty, or a folder Results.load reads; graph record's pairs each import with their pins. */
    void assertNotPartWritten(Command c) throws IOException {
        if (c.out().equals(graphs)) {
            Path nodes = graphs.resolve("p" + GraphFiles.NODES_SUFFIX);
            Path edges = graphs.resolve("p" + GraphFiles.EDGES_SUFFIX);
            if (Files.exists(nodes) || Files.exists(edges)) {
                // a kill between the files' renames leaves old pins for a new file: refused, never half-read
                try {
                    GraphFiles.readPinned(nodes, edges);
                } catch (heimdall.lab.Refusal | heimdall.lab.BadInput mismatched) {
                    assertTrue(mismatched.getMessage() != null, "a mismatch is refused with a message");
                }
            }
            return;
        }
        if (!Files.exists(c.out())) {
            return;
        }
        try (Stream<Path> s = Files.list(c.out())) {
            if (s.findAny().isEmpty()) {
                return;
            }
        }
        Results.load(c.out()); // throws when part-written
    }

    /** Scratch folders in the private tmpdir, hidden results temporaries in outs/, output temporaries in graphs/. */
    List<String> leftovers() throws IOException {
        List<String> left = new ArrayList<>();
        for (Path dir : List.of(scratch, outs, graphs)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.map(p -> dir.relativize(p).toString())
                        .filter(n -> dir == scratch ? n.startsWith("heimdall-") : n.startsWith("."))
                        .forEach(n -> left.add(dir.getFileName() + "/" + n));
            }
        }
        return left;
    }
}
