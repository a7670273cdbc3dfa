package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.testing.LabRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command-line mutants of issue 20's fuzzing, replayed in this JVM: each ends with exit 2 and one
 * message naming the option or word, in our words, before anything is measured or written; values a
 * user typed are printed escaped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CliBadInputTest {
    static final String PROFILE =
            Fixtures.home().resolve("fixtures/profiles/abcdf/x86_64-glibc.json").toString();
    static final String ESC = "\u001b[2J";

    @TempDir
    Path dir;

    /** (command line, what stderr must name). */
    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(List.of("bpf", "compile", PROFILE, "-o", ""), List.of("option --out: the value is empty")),
                Arguments.of(List.of("bpf", "stats", PROFILE, "-o", ""), List.of("option --out: the value is empty")),
                Arguments.of(List.of("bpf", "stats", PROFILE, "--out=", "--json"), List.of("the value is empty")),
                Arguments.of(List.of("reproduce", "floor-cost", "--quick", "--out", ""), List.of("the value is empty")),
                Arguments.of(
                        List.of("bpf", "stats", PROFILE, "-o", "--json"),
                        List.of(
                                "option --out needs a value, and '--json' is an option of ./lab bpf stats",
                                "--out=--json")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--out", "--quick"),
                        List.of("'--quick' is an option of ./lab reproduce floor-cost")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--out", "--runs=3"), List.of("'--runs=3' is an option")),
                Arguments.of(List.of("bpf", "stats", PROFILE, "-o", "--"), List.of("option --out needs a value")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--quick", "--runs", "1,2"),
                        List.of("option --runs: '1,2' is not a whole number (digits only")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--quick", "--cpu", "0,1"),
                        List.of("option --cpu: '0,1' is not a whole number")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--quick", "--runs", " 3"),
                        List.of("option --runs: ' 3' is not a whole number")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--quick", "--runs", "9223372036854775808"),
                        List.of("option --runs: 9223372036854775808 is out of range")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--quick", "--cpu", "-1"),
                        List.of("option --cpu: CPU -1 is not one this process may use")),
                Arguments.of(List.of("reproduce", "--bogus"), List.of("unknown option --bogus")),
                Arguments.of(
                        List.of("reproduce", "--quick", "--bogus=1", "floor-cost"),
                        List.of("unknown option --bogus=1")),
                Arguments.of(List.of("reproduce", "floor-cost", "--bogus"), List.of("unknown option --bogus")),
                Arguments.of(List.of("help", "--bogus"), List.of("unknown option '--bogus'")),
                Arguments.of(List.of("help", "bpf", "--bogus"), List.of("unknown option '--bogus'")),
                Arguments.of(List.of("help", "nosuch"), List.of("unknown command 'nosuch'")),
                Arguments.of(List.of("bpf", "stats", "/tmp/" + ESC + "x.json"), List.of("/tmp/\\e[2Jx.json")),
                Arguments.of(List.of("bpf", "stats", "/tmp/a\nb\rc"), List.of("/tmp/a\\nb\\rc")),
                Arguments.of(List.of("reproduce", ESC + "floor"), List.of("unknown NAME '\\e[2Jfloor'")),
                Arguments.of(
                        List.of("reproduce", "floor-cost", "--runs", ESC), List.of("'\\e[2J' is not a whole number")),
                Arguments.of(List.of("reproduce", "floor-cost", "--" + ESC), List.of("unknown option --\\e[2J")),
                Arguments.of(List.of(ESC + "bpf"), List.of("unknown command '\\e[2Jbpf'")),
                Arguments.of(
                        List.of("bpf", "stats", PROFILE, "\u202eevil"), List.of("unexpected argument '\\u202eevil'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void refusedWithStatus2NamingTheOption(List<String> argv, List<String> names) {
        LabRun.of(argv.toArray(String[]::new)).assertRefused(2, names.toArray(String[]::new));
    }

    @Test
    void anEmptyOrOptionLikeOutputNameWritesNothingInTheCurrentFolder() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> before;
        try (Stream<Path> s = Files.list(cwd)) {
            before = s.sorted().toList();
        }
        LabRun.of("bpf", "stats", PROFILE, "-o", "").assertRefused(2, "empty");
        LabRun.of("bpf", "stats", PROFILE, "-o", "--json").assertRefused(2, "--json");
        LabRun.of("bpf", "compile", PROFILE, "-o", "").assertRefused(2, "empty");
        try (Stream<Path> s = Files.list(cwd)) {
            assertEquals(before, s.sorted().toList(), "nothing new in " + cwd);
        }
        // said on purpose, a file of that name is fine
        Path named = dir.resolve("--json");
        assertEquals(0, LabRun.of("bpf", "compile", PROFILE, "--out=" + named).status());
        assertTrue(Files.size(named) > 0);
    }

    @Test
    void helpWithoutBogusWordsStillSucceeds() {
        assertEquals(0, LabRun.of("help").status());
        assertEquals(0, LabRun.of("help", "bpf").status());
        LabRun stats = LabRun.of("help", "bpf", "stats");
        assertEquals(0, stats.status());
        assertTrue(stats.out().contains("stats"), stats.out());
        assertEquals(0, LabRun.of("help", "--help").status());
    }

    @Test
    void graphBenchVariablesAreDigitsOnlyAndOutOfRangeIsSaidSo() {
        BadInput big = assertThrows(
                BadInput.class, () -> GraphBenchSettings.of(Map.of("GRAPH_BENCH_CALLS", "9223372036854775808"), true));
        assertTrue(
                big.getMessage().contains("GRAPH_BENCH_CALLS=9223372036854775808: out of range (1..200,000,000)"),
                big.getMessage());
        BadInput comma =
                assertThrows(BadInput.class, () -> GraphBenchSettings.of(Map.of("GRAPH_BENCH_SAMPLES", "1,2"), true));
        assertTrue(comma.getMessage().contains("GRAPH_BENCH_SAMPLES='1,2': not a whole number"), comma.getMessage());
        BadInput esc =
                assertThrows(BadInput.class, () -> GraphBenchSettings.of(Map.of("GRAPH_BENCH_BYTES", ESC), true));
        assertTrue(esc.getMessage().contains("'\\e[2J'"), esc.getMessage());
        LabRun.assertClean(big.getMessage() + comma.getMessage() + esc.getMessage());
        assertEquals(
                12,
                GraphBenchSettings.of(Map.of("GRAPH_BENCH_SAMPLES", "12"), true).samples());
    }
}
