package heimdall.lab.graph.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Edge;
import heimdall.lab.graph.EdgeKind;
import heimdall.lab.graph.FixtureGraphs;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Pins;
import heimdall.lab.graph.Site;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.probe.NeedsPtrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recording real programs under ptrace, and the checked-in recordings. */
class RecordRealRunsTest {
    @TempDir
    Path tmp;

    /** The marker site of syscall {@code nr} in the program's own code (main of abcdf). */
    private static Site marker(Graph g, int nr) {
        List<Site> s = g.sites().stream()
                .filter(x -> x.syscall() == nr && x.function().contains("abcdf+"))
                .toList();
        assertEquals(1, s.size(), "one site for marker " + nr + ": " + s);
        return s.get(0);
    }

    private static boolean next(Graph g, Site a, Site b) {
        return g.edges().contains(new Edge(a.id(), b.id(), EdgeKind.NEXT));
    }

    @Test
    void recordingAbcdfGivesTheFiveMarkersAndTheirSuccessions() throws Exception {
        NeedsPtrace.assume();
        Path abcdf = NativeExecutables.abcdf();
        GraphRecordCommand.Result r =
                GraphRecordCommand.record(List.of(abcdf.toString(), "3"), tmp, "abcdf-run", 64, true);
        Graph g = GraphFiles.readPinned(r.nodes(), r.edges()).graph();
        Site a = marker(g, FixtureGraphs.A_GETPPID),
                b = marker(g, FixtureGraphs.B_GETUID),
                c = marker(g, FixtureGraphs.C_GETGID),
                d = marker(g, FixtureGraphs.D_GETEUID),
                f = marker(g, FixtureGraphs.F_GETEGID);
        assertTrue(
                next(g, a, b) && next(g, b, c) && next(g, c, d) && next(g, d, b) && next(g, d, f),
                "A {B C D}* F: " + g.edges());
        assertFalse(next(g, a, f), "with three loops A is never followed by F directly");
        for (Site m : List.of(a, b, c, d)) {
            assertFalse(m.terminal(), m.toString());
        }
        assertEquals(List.of("main"), g.threadEntries());
        assertTrue(g.sites().stream().anyMatch(s -> s.terminal() && s.syscall() == 231), "exit_group ends the thread");
        if (Files.isExecutable(Path.of("/usr/bin/addr2line"))) {
            assertTrue(a.function().startsWith("main ("), "addr2line names the caller: " + a.function());
        }
        assertTrue(Pins.load(tmp.resolve(Pins.FILE_NAME)).pinFor(r.nodes()).isPresent());

        // With no loop, A goes straight to F.
        GraphRecordCommand.Result zero =
                GraphRecordCommand.record(List.of(abcdf.toString(), "0"), tmp.resolve("zero"), "abcdf-0", 64, false);
        Graph g0 = GraphFiles.readPinned(zero.nodes(), zero.edges()).graph();
        assertTrue(next(g0, marker(g0, FixtureGraphs.A_GETPPID), marker(g0, FixtureGraphs.F_GETEGID)));
    }

    @Test
    void theCommandWritesPinsAndReportsTheImport() throws Exception {
        NeedsPtrace.assume();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
        int status = new GraphRecordCommand(ps)
                .run(List.of(
                        "--out",
                        tmp.toString(),
                        "--program",
                        "cli",
                        "--no-symbols",
                        "--",
                        NativeExecutables.abcdf().toString(),
                        "1"));
        String text = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertTrue(text.contains("import: ok") && text.contains("entries [main]"), text);
        assertTrue(
                Files.exists(tmp.resolve("cli.exec.nodes.arrow")) && Files.exists(tmp.resolve("cli.exec.edges.arrow")));
        assertEquals(2, Files.readAllLines(tmp.resolve(Pins.FILE_NAME)).size());
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        assertEquals(
                2,
                heimdall.lab.cli.Main.run(
                        List.of("graph", "record", "--out", tmp.toString()),
                        ps,
                        new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8)),
                "no command is bad input");
    }

    @Test
    void aFailedRunIsRefusedNotRecorded() {
        NeedsPtrace.assume();
        assertThrows(() -> GraphRecordCommand.record(List.of("/bin/false"), tmp, "false", 8, false));
        assertFalse(Files.exists(tmp.resolve("false.exec.nodes.arrow")));
    }

    private static void assertThrows(org.junit.jupiter.api.function.Executable e) {
        org.junit.jupiter.api.Assertions.assertThrows(Refusal.class, e);
    }

    /** The checked-in broker recording imports with its pins and has the broker's roles. */
    @Test
    void theCheckedInBrokerGraphImports() {
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        Graph g = GraphFiles.readPinned(dir.resolve("broker.exec.nodes.arrow"), dir.resolve("broker.exec.edges.arrow"))
                .graph();
        assertEquals(Set.of("main", "thread:loop", "signal:SIGCHLD"), Set.copyOf(g.entries()));
        Map<String, Long> calls = g.sites().stream().collect(Collectors.groupingBy(Site::name, Collectors.counting()));
        for (String c : List.of("openat2", "ioctl", "process_vm_readv", "pidfd_getfd", "poll", "rt_sigreturn")) {
            assertTrue(calls.containsKey(c), c + " in " + calls.keySet());
        }
        Graph rec = GraphFiles.readPinned(
                        dir.resolve("abcdf-recorded.exec.nodes.arrow"), dir.resolve("abcdf-recorded.exec.edges.arrow"))
                .graph();
        assertEquals(List.of("main"), rec.threadEntries());
    }
}
