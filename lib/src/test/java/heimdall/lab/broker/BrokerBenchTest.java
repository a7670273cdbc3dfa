package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's bookkeeping (not its figures: no timed assertions). */
class BrokerBenchTest {
    @TempDir
    Path tmp;

    /** The bench's medians and p99s are bench.Stats' nearest-rank ones. */
    @Test
    void quantilesAreNearestRank() {
        long[] s = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, heimdall.lab.bench.Stats.of(s).median());
        assertEquals(10, heimdall.lab.bench.Stats.of(s).p99());
        assertEquals(1, heimdall.lab.bench.Stats.of(new long[] {1}).p99());
    }

    @Test
    void bothSupervisorsAreMeasuredSideBySide() throws Exception {
        BrokerFixtures.assumeSupported();
        BrokerBench.Config d = BrokerBench.Config.defaults();
        BrokerBench.Config c = new BrokerBench.Config(
                200,
                10,
                2,
                Answer.BROKER,
                List.of(Supervisor.Kind.NATIVE, Supervisor.Kind.JAVA),
                false,
                d.childCpu(),
                d.supCpu(),
                null);
        BrokerBench.Report r = BrokerBench.run(c, tmp, line -> {});
        assertEquals(400, r.baseline().samples());
        assertEquals(
                List.of("native", "java"),
                r.rows().stream().map(BrokerBench.Row::what).toList());
        for (BrokerBench.Row row : r.rows()) {
            assertEquals(400, row.samples());
            assertEquals(2, row.runMediansNs().length);
            assertEquals(0, row.errors());
            assertEquals(210, row.stats().brokered(), "the last run's supervisor answered every call");
            assertEquals(d.supCpu(), row.stats().cpu());
            assertTrue(row.p99Ns() >= row.medianNs());
        }
        assertNotNull(r.javaNativeRatio());
        assertTrue(BrokerBench.format(r).contains("java/native median ratio (broker)"));
        // the host's floor in the same placement, each run a fresh ping-pong child
        assertEquals(400, r.floor().samples());
        assertEquals(2, r.floor().runMediansNs().length);
        assertTrue(r.floor().medianNs() > 0);
        String text = BrokerBench.format(r);
        assertTrue(text.contains("native round trip (added) / floor: "), text);
        assertTrue(text.contains("java round trip (added) / floor: "), text);
    }

    @Test
    void oneSupervisorHasNoRatio() throws Exception {
        BrokerFixtures.assumeSupported();
        BrokerBench.Config d = BrokerBench.Config.defaults();
        BrokerBench.Config c = new BrokerBench.Config(
                20, 0, 1, Answer.CONTINUE, List.of(Supervisor.Kind.JAVA), false, d.childCpu(), -1, "after");
        BrokerBench.Report r = BrokerBench.run(c, tmp, line -> {});
        assertEquals(null, r.javaNativeRatio());
        assertEquals(20, r.row("java").stats().continued());
        assertEquals(20, r.floor().samples(), "the floor with its partner unpinned, as the supervisor");
        assertArrayEquals(new long[] {r.row("java").medianNs()}, r.row("java").runMediansNs());
    }

    /** --poll-wait-too: the native supervisor's two waits, each answering every call of its runs. */
    @Test
    void theNativeSupervisorsTwoWaitsAreMeasuredSideBySide() throws Exception {
        BrokerFixtures.assumeSupported();
        BrokerBench.Config d = BrokerBench.Config.defaults();
        BrokerBench.Config c = new BrokerBench.Config(
                100,
                10,
                2,
                Answer.CONTINUE,
                List.of(Supervisor.Kind.NATIVE),
                false,
                d.childCpu(),
                d.childCpu(),
                null,
                true);
        BrokerBench.Report r = BrokerBench.run(c, tmp, line -> {});
        assertEquals(
                List.of("native", "native-poll"),
                r.rows().stream().map(BrokerBench.Row::what).toList());
        for (BrokerBench.Row row : r.rows()) {
            assertEquals(200, row.samples());
            assertEquals(0, row.errors());
            assertEquals(110, row.stats().continued(), row.what() + ": the last run's supervisor answered every call");
            assertEquals(0, row.stats().failures());
        }
        assertTrue(BrokerBench.format(r).contains("native-poll round trip (added) / floor: "));
    }

    /**
     * --as-supervisor-too: each supervisor's broker measured opening as the caller and as itself, interleaved,
     * both answering every call with a brokered descriptor; without the broker answer the flag is refused.
     */
    @Test
    void theCostOfOpeningAsTheCallerIsMeasuredInOneRun() throws Exception {
        BrokerFixtures.assumeSupported();
        BrokerBench.Config d = BrokerBench.Config.defaults();
        BrokerBench.Config c = new BrokerBench.Config(
                100,
                10,
                2,
                Answer.BROKER,
                List.of(Supervisor.Kind.NATIVE, Supervisor.Kind.JAVA),
                false,
                d.childCpu(),
                d.supCpu(),
                null,
                false,
                true);
        BrokerBench.Report r = BrokerBench.run(c, tmp, line -> {});
        assertEquals(
                List.of("native", "native-as-supervisor", "java", "java-as-supervisor"),
                r.rows().stream().map(BrokerBench.Row::what).toList());
        for (BrokerBench.Row row : r.rows()) {
            assertEquals(200, row.samples());
            assertEquals(0, row.errors());
            assertEquals(110, row.stats().brokered(), row.what() + ": the last run's supervisor brokered every call");
        }
        BadInput refused = assertThrows(
                BadInput.class,
                () -> new BrokerBench.Config(
                        10, 0, 1, Answer.CONTINUE, List.of(Supervisor.Kind.NATIVE), false, 0, 0, null, false, true));
        assertTrue(refused.getMessage().contains("--as-supervisor-too needs --answer broker"), refused.getMessage());
    }
}
