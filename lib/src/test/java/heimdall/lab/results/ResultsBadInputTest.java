package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.analysis.Results;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.LabRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The results-folder mutants of issue 20's fuzzing (summary.json and environment.json), replayed on
 * copies of committed folders: each is refused by {@link Results#load} and by {@code ./lab compare}
 * with exit 2 and one message naming the file, the row and the field in our words.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResultsBadInputTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path FLOOR = Fixtures.resultsRoot().resolve("2026-11-30-vm-13");
    static final Path BITMAP = Fixtures.resultsRoot().resolve("2026-11-30-vm-12");
    static final Path FOLLOWER = Fixtures.resultsRoot().resolve("2026-12-01-vm-follower-cost");
    static final Path MATRIX = Fixtures.resultsRoot().resolve("2026-12-01-vm-kernel-matrix");

    @TempDir
    Path dir;

    /** A change to one row of the tree (the first row unless {@code row} says). */
    static UnaryOperator<String> row(int row, String field, Object value) {
        return text -> {
            try {
                ObjectNode top = (ObjectNode) JSON.readTree(text);
                ((ObjectNode) top.get("rows").get(row)).set(field, JSON.valueToTree(value));
                return JSON.writeValueAsString(top);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static UnaryOperator<String> top(String field, JsonNode value) {
        return text -> {
            try {
                ObjectNode top = (ObjectNode) JSON.readTree(text);
                top.set(field, value);
                return JSON.writeValueAsString(top);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static UnaryOperator<String> removed(int row, String field) {
        return text -> {
            try {
                ObjectNode top = (ObjectNode) JSON.readTree(text);
                ((ObjectNode) top.get("rows").get(row)).remove(field);
                return JSON.writeValueAsString(top);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** (what, folder, file changed, change, field named, reason's words). */
    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(
                        "schema_version past an int",
                        FLOOR,
                        "summary.json",
                        top("schema_version", JSON.getNodeFactory().numberNode(4294967298L)),
                        "schema_version",
                        "expected a whole number 2..2, found 4294967298"),
                Arguments.of(
                        "schema_version 2.0",
                        FLOOR,
                        "summary.json",
                        top("schema_version", JSON.getNodeFactory().numberNode(2.0)),
                        "schema_version",
                        "found 2.0"),
                Arguments.of(
                        "schema_version a string",
                        FLOOR,
                        "summary.json",
                        top("schema_version", JSON.getNodeFactory().textNode("2")),
                        "schema_version",
                        "found \"2\""),
                Arguments.of(
                        "a negative median",
                        FLOOR,
                        "summary.json",
                        row(0, "median_ns", -5),
                        "rows[0].median_ns",
                        "a measured time is 0 or more, found -5"),
                Arguments.of(
                        "a negative run median",
                        FLOOR,
                        "summary.json",
                        row(3, "run_medians_ns", new long[] {1, -2}),
                        "rows[3].run_medians_ns[1]",
                        "0 or more, found -2"),
                Arguments.of(
                        "99 runs completed of 7",
                        FLOOR,
                        "summary.json",
                        row(0, "runs_completed", 99),
                        "rows[0].runs_completed",
                        "99 completed of 7 asked"),
                Arguments.of(
                        "baseline runs over those asked",
                        FLOOR,
                        "summary.json",
                        row(1, "runs_none_completed", 8),
                        "rows[1].runs_none_completed",
                        "8 completed of 7 asked"),
                Arguments.of(
                        "negative samples",
                        FLOOR,
                        "summary.json",
                        row(0, "samples", -1),
                        "rows[0].samples",
                        "a count is 0 or more"),
                Arguments.of(
                        "status exploded",
                        FLOOR,
                        "summary.json",
                        row(2, "status", "exploded"),
                        "rows[2].status",
                        "unknown status \"exploded\""),
                Arguments.of(
                        "spread the string NaN",
                        FLOOR,
                        "summary.json",
                        row(0, "spread", "NaN"),
                        "rows[0].spread",
                        "expected a finite number, found NaN"),
                Arguments.of(
                        "spread Infinity",
                        FLOOR,
                        "summary.json",
                        row(0, "spread", "Infinity"),
                        "rows[0].spread",
                        "finite"),
                Arguments.of(
                        "a negative spread",
                        FLOOR,
                        "summary.json",
                        row(0, "spread", -0.5),
                        "rows[0].spread",
                        "a spread is 0 or more"),
                Arguments.of(
                        "NaN written bare",
                        FLOOR,
                        "summary.json",
                        (UnaryOperator<String>) t -> t.replaceFirst("\"spread\" ?: ?0\\.0", "\"spread\": NaN"),
                        "summary.json: line",
                        "NaN is not a JSON number"),
                Arguments.of(
                        "rows twice",
                        FLOOR,
                        "summary.json",
                        (UnaryOperator<String>) t -> t.replaceFirst("\\{", "{\"rows\": [], "),
                        "summary.json: line",
                        "key \"rows\" appears twice"),
                Arguments.of(
                        "a row's key twice",
                        FLOOR,
                        "summary.json",
                        (UnaryOperator<String>) t -> t.replaceFirst("\"median_ns\"", "\"median_ns\": 1, \"median_ns\""),
                        "summary.json: line",
                        "key \"median_ns\" appears twice"),
                Arguments.of(
                        "a second summary after the first",
                        FLOOR,
                        "summary.json",
                        (UnaryOperator<String>) t -> t + "\n{}",
                        "summary.json: line",
                        "more content after the end"),
                Arguments.of(
                        "a median as a string",
                        FLOOR,
                        "summary.json",
                        row(0, "median_ns", "5"),
                        "rows[0].median_ns",
                        "expected a whole number, found \"5\""),
                Arguments.of(
                        "a median with a fraction",
                        FLOOR,
                        "summary.json",
                        row(0, "median_ns", 1.5),
                        "rows[0].median_ns",
                        "expected a whole number, found 1.5"),
                Arguments.of(
                        "a median past 64 bits",
                        FLOOR,
                        "summary.json",
                        (UnaryOperator<String>)
                                t -> t.replaceFirst("\"median_ns\" ?: ?[0-9]+", "\"median_ns\": 99999999999999999999"),
                        "rows[0]",
                        "out of range (a 64-bit whole number)"),
                Arguments.of(
                        "noisy a string",
                        FLOOR,
                        "summary.json",
                        row(0, "noisy", "false"),
                        "rows[0].noisy",
                        "expected true or false, found \"false\""),
                Arguments.of(
                        "a list where a number goes",
                        FLOOR,
                        "summary.json",
                        row(0, "insns", new int[] {1}),
                        "rows[0].insns",
                        "expected a whole number, found an array"),
                Arguments.of(
                        "an unknown field",
                        FLOOR,
                        "summary.json",
                        row(0, "median_nss", 5),
                        "rows[0].median_nss",
                        "unknown field for a FloorCostRow"),
                Arguments.of(
                        "a missing identifying field",
                        FLOOR,
                        "summary.json",
                        removed(0, "call"),
                        "rows[0].call",
                        "missing"),
                Arguments.of(
                        "an unknown kernel-bitmap section",
                        BITMAP,
                        "summary.json",
                        row(0, "section", "bogus"),
                        "rows[0].section",
                        "unknown kind \"bogus\" (known: [configuration, estimate, expectation, agreement])"),
                Arguments.of(
                        "a kernel-bitmap row without its section",
                        BITMAP,
                        "summary.json",
                        removed(0, "section"),
                        "rows[0].section",
                        "missing"),
                Arguments.of(
                        "a follower-cost status in capitals",
                        FOLLOWER,
                        "summary.json",
                        row(0, "status", "OK"),
                        "rows[0].status",
                        "unknown status \"OK\" (known: [ok, "),
                Arguments.of(
                        "an unknown follower-cost measure",
                        FOLLOWER,
                        "summary.json",
                        row(1, "measure", "t_fast"),
                        "rows[1].measure",
                        "unknown measure \"t_fast\" (known: [t_follow, t_idle, divergence])"),
                Arguments.of(
                        "a kernel-matrix status a number",
                        MATRIX,
                        "summary.json",
                        row(0, "status", 1),
                        "rows[0].status",
                        "expected a string, found 1"),
                Arguments.of(
                        "an unknown kernel-matrix status",
                        MATRIX,
                        "summary.json",
                        row(0, "status", "not  observable"),
                        "rows[0].status",
                        "unknown status \"not  observable\""),
                Arguments.of(
                        "an unknown kernel-matrix section",
                        MATRIX,
                        "summary.json",
                        row(2, "section", "bogus"),
                        "rows[2].section",
                        "unknown section \"bogus\" (known: [feature, landlock, floor-cost, kernel-bitmap, follower-cost, "
                                + "kernel])"),
                Arguments.of(
                        "a kernel-matrix row without its kernel",
                        MATRIX,
                        "summary.json",
                        removed(0, "kernel"),
                        "rows[0].kernel",
                        "missing"),
                Arguments.of(
                        "an escape sequence in the reproduction",
                        FLOOR,
                        "summary.json",
                        top("reproduction", JSON.getNodeFactory().textNode("\u001b[2Jfloor")),
                        "reproduction",
                        "unknown reproduction \"\\e[2Jfloor\""),
                Arguments.of(
                        "environment: a load average of NaN",
                        FLOOR,
                        "environment.json",
                        (UnaryOperator<String>) t -> t.replaceFirst("\"one\" ?: ?[0-9.]+", "\"one\": \"NaN\""),
                        "load_average.one",
                        "expected a finite number, found NaN"),
                Arguments.of(
                        "environment: hostname twice",
                        FLOOR,
                        "environment.json",
                        (UnaryOperator<String>) t -> t.replaceFirst("\\{", "{\"hostname\": \"x\", "),
                        "environment.json: line",
                        "key \"hostname\" appears twice"),
                Arguments.of(
                        "environment: online_cpus a string",
                        FLOOR,
                        "environment.json",
                        (UnaryOperator<String>)
                                t -> t.replaceFirst("\"online_cpus\" ?: ?[0-9]+", "\"online_cpus\": \"2\""),
                        "online_cpus",
                        "expected a whole number, found \"2\""),
                Arguments.of(
                        "environment: empty",
                        FLOOR,
                        "environment.json",
                        (UnaryOperator<String>) t -> "",
                        "environment.json: empty",
                        "no JSON value"));
    }

    Path mutant(Path folder, String file, UnaryOperator<String> change) throws Exception {
        Path copy = Files.createDirectory(dir.resolve("mutant"));
        for (String f : new String[] {"summary.json", "environment.json"}) {
            String text = Files.readString(folder.resolve(f));
            Files.writeString(copy.resolve(f), f.equals(file) ? change.apply(text) : text);
        }
        return copy;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void refusedByLoadNamingTheFileRowAndField(
            String what, Path folder, String file, UnaryOperator<String> change, String field, String reason)
            throws Exception {
        Path copy = mutant(folder, file, change);
        BadInput e = assertThrows(BadInput.class, () -> Results.load(copy), what + " must be refused");
        assertTrue(e.getMessage().startsWith(copy.resolve(file) + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(field), "names " + field + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(reason), "says " + reason + ": " + e.getMessage());
        LabRun.assertClean(e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void refusedByCompareWithStatus2(
            String what, Path folder, String file, UnaryOperator<String> change, String field, String reason)
            throws Exception {
        Path copy = mutant(folder, file, change);
        LabRun.of("compare", folder.toString(), copy.toString())
                .assertRefused(2, copy.resolve(file).toString(), field, reason);
    }

    @Test
    void theUnchangedCopiesLoad() throws Exception {
        for (Path folder : new Path[] {FLOOR, BITMAP, FOLLOWER, MATRIX}) {
            Path copy = mutant(folder, "none", t -> t);
            assertEquals(
                    Results.load(folder).summary().rowCount(),
                    Results.load(copy).summary().rowCount());
            if (folder == FLOOR) { // compare lines up floor-cost rows; kernel-bitmap folders it refuses by kind
                LabRun run = LabRun.of("compare", folder.toString(), copy.toString());
                assertEquals(0, run.status(), run.err());
            }
            Files.walk(copy)
                    .sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }
}
