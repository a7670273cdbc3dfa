package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.cli.Main;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab graph follow}: exit 0 for a clean run, 1 for a kill or refusal, 2 for bad input naming the field. */
class FollowCommandTest {
    record Ran(int status, String out, String err) {}

    static Ran lab(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream saved = System.out;
        System.setOut(o); // the command prints on System.out
        try {
            int s = Main.run(List.of(argv), o, new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Ran(s, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(saved);
        }
    }

    static List<String> follow(String... tail) {
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        List<String> argv = new ArrayList<>(List.of(
                "graph",
                "follow",
                dir.resolve("abcdf-recorded.exec.nodes.arrow").toString(),
                dir.resolve("abcdf-recorded.exec.edges.arrow").toString()));
        argv.addAll(List.of(tail));
        return argv;
    }

    @Test
    void aCleanRunExits0AndADeviationExits1NamingCallAndState() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        String abcdf = NativeExecutables.abcdf().toString();
        Ran ok = lab(follow("--", abcdf, "3").toArray(String[]::new));
        assertEquals(0, ok.status(), ok.out() + ok.err());
        assertTrue(ok.out().contains("the command exited 0"), ok.out());
        Ran bad = lab(follow("--", abcdf, "3", "--unobserved").toArray(String[]::new));
        assertEquals(1, bad.status(), bad.out() + bad.err());
        assertTrue(bad.out().matches("(?s).*killed: thread \\d+ of \\d+: call 111 in state \\d+ .*"), bad.out());
    }

    @Test
    void badInputExits2NamingTheField(@TempDir Path tmp) throws Exception {
        String abcdf = NativeExecutables.abcdf().toString();
        Ran hook = lab(follow("--hook", "bogus", "--", abcdf).toArray(String[]::new));
        assertEquals(2, hook.status());
        assertTrue(hook.err().contains("option --hook"), hook.err());
        Ran noCommand = lab(follow().toArray(String[]::new));
        assertEquals(2, noCommand.status());
        // An unpinned copy of the pair: the pin check refuses it as bad input naming the sha256 field.
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        Path n = Files.copy(dir.resolve("abcdf.exec.nodes.arrow"), tmp.resolve("abcdf.exec.nodes.arrow"));
        Path e = Files.copy(dir.resolve("abcdf.exec.edges.arrow"), tmp.resolve("abcdf.exec.edges.arrow"));
        Ran unpinned = lab("graph", "follow", n.toString(), e.toString(), "--", abcdf);
        assertEquals(2, unpinned.status());
        assertTrue(unpinned.err().contains("sha256"), unpinned.err());
    }

    @Test
    void aGraphWithoutAMainRoleIsBadInputNamingFirstOf() {
        Graph g = Graph.builder()
                .site(1, 110, "getppid", "f", true, "thread:worker")
                .build();
        BadInput e = assertThrows(BadInput.class, () -> KernelTables.of(g));
        assertTrue(e.getMessage().contains("first_of") && e.getMessage().contains("'main'"), e.getMessage());
    }
}
