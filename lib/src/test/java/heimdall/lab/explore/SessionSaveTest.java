package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Stats;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.testing.LabRun;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A notebook's measurements saved as an ordinary results folder, read back by Results.load and ./lab compare. */
@Timeout(300)
class SessionSaveTest {
    @Test
    void aMeasurementSavedIsAFloorCostFolderThatCompareReads(@TempDir Path tmp) {
        Requires.seccomp("kill_process", "allow");
        FloorView abcdf = Lab.fixtureFloor("abcdf");
        Measurement none =
                Lab.measure("getppid").runs(2).warmup(100).calls(2_000).run();
        Measurement under = Lab.measure("getppid")
                .under(abcdf)
                .runs(2)
                .warmup(100)
                .calls(2_000)
                .run();

        Path one = under.save(tmp.resolve("one"));
        Results r = Results.load(one);
        assertEquals(ReproductionKind.of(FloorCostRow.class), r.kind());
        List<FloorCostRow> rows = r.floorCost();
        assertEquals(1, rows.size());
        FloorCostRow row = rows.get(0);
        assertEquals(under.median(), row.medianNs());
        assertEquals(none.median(), row.medianNoneNs(), "the session's bare getppid is the baseline");
        assertEquals(under.median() - none.median(), row.addedNs());
        assertEquals(abcdf.insnsPerCall(heimdall.lab.child.Call.GETPPID), row.insns());
        assertEquals(2L, row.runsCompleted());
        // the samples went with it, as floor-cost writes them
        assertEquals(under.count(), Stats.concat(r.samplesOf(0, "filtered")).length);
        assertEquals(none.count(), Stats.concat(r.samplesOf(0, "none")).length);

        // the whole session, and ./lab compare over the two folders
        Path all = Lab.session().save(tmp.resolve("all"));
        assertTrue(Results.load(all).floorCost().size() >= 1);
        LabRun cmp = LabRun.of("compare", one.toString(), all.toString());
        assertEquals(0, cmp.status(), cmp.err());
        assertTrue(cmp.out().contains("getppid"), cmp.out());

        // never over an existing folder's files, never through a link
        BadInput taken = assertThrows(BadInput.class, () -> under.save(one));
        assertFalse(taken.getMessage().isBlank());
        Path link = tmp.resolve("link");
        assertTrue(link.toFile().getParentFile().exists());
        try {
            Files.createSymbolicLink(link, tmp.resolve("elsewhere"));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThrows(BadInput.class, () -> under.save(link));
        assertFalse(Files.exists(tmp.resolve("elsewhere")));
    }

    @Test
    void aMeasurementMadeByHandIsRefusedByName(@TempDir Path tmp) {
        long[] a = {1, 2, 3};
        Measurement byHand = new Measurement(
                "mine",
                List.of("x"),
                0,
                List.of(0),
                List.of(a),
                1,
                false,
                Stats.ofAll(new long[][] {a}),
                Stats.runMedians(new long[][] {a}));
        BadInput e = assertThrows(BadInput.class, () -> byHand.save(tmp.resolve("x")));
        assertTrue(e.getMessage().contains("'mine' was not measured in this session"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("x")));
    }
}
