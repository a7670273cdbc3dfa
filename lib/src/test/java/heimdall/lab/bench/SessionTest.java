package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session owns its run's stop: the registry's way in (a notebook interrupt) reaches the open session
 * and every view of it, a failure becomes its stop only when it is a measurement's, and nothing of it
 * outlives {@link Session#close()}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SessionTest {
    @TempDir
    Path tmp;

    @Test
    void aNotebookInterruptReachesTheOpenSessionAndItsViewsAndEndsWithIt() {
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("out"));
        List<String> lines = new ArrayList<>();
        Session part;
        Session joined;
        try (Session s = Session.open(folder, lines::add)) {
            part = s.in(ResultsFolder.chosen(tmp.resolve("part"))).reporting(l -> lines.add("part " + l));
            joined = Session.join(folder, l -> {});
            assertFalse(s.stopRequested());
            s.checkpoint(); // nothing asked: no throw
            assertTrue(Interruption.requestStop(Interruption.Cause.NOTEBOOK), "the registry holds the open session");
            for (Session x : List.of(s, part, joined)) {
                assertTrue(x.stopRequested());
                assertEquals(Interruption.Cause.NOTEBOOK, x.stopCause().orElseThrow());
                Interruption.Stopped e = assertThrows(Interruption.Stopped.class, x::checkpoint);
                assertSame(Interruption.Cause.NOTEBOOK, e.stopCause());
            }
            // a later failure does not replace the stop that came first
            assertTrue(s.stopOn(new IllegalStateException("after the stop")));
            assertSame(Interruption.Cause.NOTEBOOK, s.stopCause().orElseThrow());
            part.progress().accept("x");
        }
        assertEquals(List.of("part x"), lines);
        assertFalse(Interruption.stopRequested(), "the registry lets go of the session when it closes");
        assertFalse(Interruption.requestStop(Interruption.Cause.NOTEBOOK), "no session is open");
        assertFalse(part.stopOn(new IllegalStateException("after close")), "a closed session takes no failure");
        assertFalse(joined.stopOn(new IllegalStateException("after close")), "nor one that joined it");
    }

    @Test
    void aRunsFailureIsTheStopOfAMeasurementsSessionOnly() {
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("out"));
        IllegalStateException boom = new IllegalStateException("boom");
        try (Session s = Session.open(folder, l -> {})) {
            assertTrue(s.stopOn(boom), "a measurement's session takes the failure as its stop");
            Interruption.Cause c = s.stopCause().orElseThrow();
            assertSame(boom, c.failure().orElseThrow());
            assertEquals(3, c.exitStatus(), "a bug's status, as the command line gives it");
        }
        // outside any measurement: nothing stops it, and the failure goes on as an exception
        Session alone = Session.join(folder, l -> {});
        assertFalse(alone.stopOn(boom));
        assertFalse(alone.stopRequested());
        assertFalse(
                Interruption.requestStop(Interruption.Cause.NOTEBOOK), "a joined session is no measurement of its own");
        alone.close();
        assertThrows(
                IllegalStateException.class,
                () -> Session.join(l -> {}).folder(),
                "a session without a folder says so");
    }

    @Test
    void aStopAskedOfTheSessionIsItsOwn() {
        try (Session s = Session.open(ResultsFolder.chosen(tmp.resolve("out")), l -> {})) {
            s.requestStop(Interruption.Cause.SIGTERM);
            s.requestStop(Interruption.Cause.SIGINT); // the first stop stands
            assertSame(Interruption.Cause.SIGTERM, s.stopCause().orElseThrow());
            assertEquals(143, s.stopCause().orElseThrow().exitStatus());
        }
    }
}
