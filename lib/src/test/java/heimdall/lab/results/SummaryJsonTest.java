package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad summary.json files are refused naming the file and the field; good ones load typed. */
class SummaryJsonTest {
    @TempDir
    Path dir;

    private static final String ROW =
            "{\"workers\": 2, \"collectors\": 1, \"variant\": \"unchecked\", \"wall_ms_median\": 1.5, \"status\": "
                    + "\"measured\"}";

    private void summary(String json) throws IOException {
        Files.writeString(dir.resolve("summary.json"), json);
    }

    private String refused() {
        BadInput e = assertThrows(BadInput.class, () -> SummaryJson.read(dir));
        assertTrue(e.getMessage().startsWith(dir.resolve("summary.json").toString()), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aSchema2SummaryLoadsTyped() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": true, \"interruption\": "
                + "\"terminated (SIGTERM)\","
                + " \"signal\": \"SIGTERM\", \"rows\": [" + ROW + "]}");
        Summary s = SummaryJson.read(dir);
        assertEquals(ReproductionKind.of(LanesRow.class), s.kind());
        assertTrue(s.interrupted());
        assertEquals("SIGTERM", s.signal());
        LanesRow r = s.rows(LanesRow.class).get(0);
        assertEquals(2, r.workers());
        assertEquals(1.5, r.wallMsMedian());
        assertEquals(null, r.wall().minMs());
        assertThrows(IllegalArgumentException.class, () -> s.rows(FloorCostRow.class));
    }

    @Test
    void aGraphRowOfLayoutsThatDisagreedLoads() throws IOException {
        summary("{\"reproduction\": \"graph-lookup\", \"schema_version\": 2, \"interrupted\": false, \"rows\": "
                + "[{\"graph\": \"g\","
                + " \"trace\": \"t\", \"layout\": \"hash\", \"status\": \"measured\", "
                + "\"ns_per_event_median\": 2.5,"
                + " \"rejections\": 3, \"rejections_agree\": false}]}");
        GraphLookupRow r = SummaryJson.read(dir).rows(GraphLookupRow.class).get(0);
        assertEquals(Boolean.FALSE, r.rejectionsAgree());
        assertEquals(2.5, r.figures().median());
    }

    @Test
    void anUnknownLanesVariantIsNamedWithTheKnownOnes() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": [" + ROW + ", "
                + ROW.replace("\"unchecked\"", "\"dfa-fastest\"") + "]}");
        String m = refused();
        assertTrue(m.contains("rows[1].variant: unknown variant \"dfa-fastest\""), m);
        assertTrue(m.contains("dfa-min-narrow"), m);
    }

    @Test
    void aLanesIntervalUpsideDownIsRefusedNamingTheRow() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": [" + ROW + ", "
                + ROW.replace("}", ", \"wall_ms_ci_low\": 2.5, \"wall_ms_ci_high\": 1.0}") + "]}");
        String m = refused();
        assertTrue(m.contains("rows[1]") && m.contains("interval low 2.5 above high 1.0"), m);
    }

    @Test
    void aLanesCoverageAboveOneIsRefused() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": ["
                + ROW.replace("}", ", \"vs_unchecked_ci_coverage\": 1.5}") + "]}");
        String m = refused();
        assertTrue(m.contains("rows[0]") && m.contains("a level is a fraction in [0, 1], not 1.5"), m);
    }

    @Test
    void aMissingIdentifyingFieldIsNamed() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": [" + ROW + ", "
                + ROW.replace("\"variant\": \"unchecked\", ", "") + "]}");
        String m = refused();
        assertTrue(m.contains("rows[1].variant: missing"), m);
    }

    @Test
    void anUnknownFieldIsNamed() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": ["
                + ROW.replace("}", ", \"wall_ms_medain\": 3}") + "]}");
        String m = refused();
        assertTrue(m.contains("rows[0].wall_ms_medain: unknown field"), m);
    }

    @Test
    void aWrongTypeIsNamedAndAFloatIsNotTruncated() throws IOException {
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": ["
                + ROW.replace("\"workers\": 2", "\"workers\": 2.5") + "]}");
        assertTrue(refused().contains("rows[0].workers"));
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 2, \"interrupted\": false, \"rows\": ["
                + ROW.replace("\"variant\": \"unchecked\"", "\"variant\": [1]") + "]}");
        assertTrue(refused().contains("rows[0].variant"));
    }

    @Test
    void theReproductionMustBeKnownAndNamed() throws IOException {
        summary("{\"reproduction\": \"lanez\", \"schema_version\": 2, \"interrupted\": false, \"rows\": []}");
        assertTrue(refused().contains("reproduction: unknown reproduction \"lanez\""));
        summary("{\"schema_version\": 2, \"interrupted\": false, \"rows\": []}");
        assertTrue(refused().contains("reproduction: missing"));
        summary("{\"reproduction\": \"lanes\", \"schema_version\": 7, \"interrupted\": false, \"rows\": []}");
        assertTrue(refused().contains("schema_version"));
    }

    @Test
    void aSchema1SummaryTakesTheReproductionItsEnvironmentRecorded() throws IOException {
        summary("[" + ROW + "]");
        assertTrue(refused().contains("names no reproduction"), "never guessed from the rows' fields");
        Files.writeString(
                dir.resolve("environment.json"),
                "{\"reproduction\": \"lanes\", \"hostname\": \"h\", \"kernel_release\": \"6.18\"}");
        Summary s = SummaryJson.read(dir);
        assertEquals(ReproductionKind.of(LanesRow.class), s.kind());
        assertEquals(1, s.schemaVersion());
        assertEquals("6.18", SummaryJson.environment(dir).kernelRelease());
    }

    @Test
    void anEnvironmentWithoutItsHostIsRefused() throws IOException {
        Files.writeString(dir.resolve("environment.json"), "{\"reproduction\": \"lanes\", \"hostname\": \"h\"}");
        BadInput e = assertThrows(BadInput.class, () -> SummaryJson.environment(dir));
        assertTrue(e.getMessage().contains("environment.json: kernel_release: missing"), e.getMessage());
    }
}
