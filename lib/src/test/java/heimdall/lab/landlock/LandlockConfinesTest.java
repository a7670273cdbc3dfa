package heimdall.lab.landlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.Fate;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floors;
import heimdall.lab.sys.Scratch;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A measured child under {@code readBeneath(in/)} really is confined by the kernel, and only as described. */
class LandlockConfinesTest {
    private static Scratch job;
    private static Path in;
    private static Path out;

    @BeforeAll
    static void files() throws IOException {
        job = Scratch.create("heimdall-landlock-test-");
        in = job.newDirectory("in");
        out = job.newDirectory("out");
        Files.writeString(in.resolve("data.txt"), "in\n");
        Files.writeString(out.resolve("secret.txt"), "out\n");
    }

    @AfterAll
    static void clean() {
        job.close();
    }

    private static ChildResult open(Call call, Landlock landlock) {
        return MeasuredChild.run(ChildSpec.of(call, 0, 3).withLandlock(landlock));
    }

    @Test
    void aChildUnderReadBeneathInOpensInsideAndGetsEaccesOutside() {
        Requires.landlock();
        Landlock ll = Landlock.create().readBeneath(in);
        ChildResult inside = open(Call.openatFrom(in, "data.txt"), ll).requireCompleted();
        assertEquals(0, inside.lastErrno(), inside.lastOutcome());
        assertEquals(Landlock.kernelAbi(), inside.landlockAbi());
        assertEquals(7, inside.landlockStep()); // enforced
        ChildResult outside = open(Call.openatFrom(in, "../out/secret.txt"), ll).requireCompleted();
        assertEquals(13, outside.lastErrno(), outside.lastOutcome()); // EACCES
        // the same name with no ruleset opens: the refusal is Landlock's
        ChildResult bare = open(Call.openatFrom(in, "../out/secret.txt"), null).requireCompleted();
        assertEquals(0, bare.lastErrno(), bare.lastOutcome());
        assertEquals(0, bare.landlockStep());
    }

    @Test
    void underAStaticFloorTooTheRulesetConfinesAndTheFloorNeedNotAllowLandlocksCalls() {
        Requires.landlock();
        Requires.seccomp("kill_process", "allow");
        var floor = Floors.staticFloor("static floor, abcdf", Fixtures.profile("abcdf"));
        ChildSpec spec = ChildSpec.of(Call.openatFrom(in, "../out/secret.txt"), 0, 3)
                .withPrograms(floor.bytes())
                .withLandlock(Landlock.create().readBeneath(in));
        ChildResult r = MeasuredChild.run(spec).requireCompleted();
        assertEquals(13, r.lastErrno(), r.lastOutcome());
    }

    @Test
    void statIsNotConfinedOutsideButAnOpenIs() {
        Requires.landlock();
        Landlock ll = Landlock.create().readBeneath(in);
        ChildResult stat = open(Call.statFrom(in, "../out/secret.txt"), ll).requireCompleted();
        assertEquals(0, stat.lastErrno(), "Landlock has no right for reading attributes: " + stat.lastOutcome());
    }

    @Test
    void aRuleNamingAPathThatDoesNotExistStopsTheChildBeforeItMeasuresAnything() {
        Requires.landlock();
        Landlock ll = Landlock.create().readBeneath(job.path().resolve("no-such-dir"));
        ChildResult r = open(Call.openatFrom(in, "data.txt"), ll);
        assertFalse(r.completed());
        assertTrue(r.fate() instanceof Fate.Exited e && e.code() == 73 && e.phase() == Phase.LANDLOCK, r.outcome());
        assertEquals(4, r.landlockStep(), r.outcome()); // opening a rule's path
        assertTrue(r.outcome().contains("opening a rule's path"), r.outcome());
    }

    @Test
    void aFileRuleKeepsOnlyTheFileRightsAndConfinesToThatFile() {
        Requires.landlock();
        Landlock ll = Landlock.create().readBeneath(in.resolve("data.txt"));
        assertEquals(
                0, open(Call.openatFrom(in, "data.txt"), ll).requireCompleted().lastErrno());
        assertEquals(
                13,
                open(Call.openatFrom(in, "../out/secret.txt"), ll)
                        .requireCompleted()
                        .lastErrno());
    }
}
