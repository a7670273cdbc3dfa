package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.WorkloadCostRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The metadata-heavy workload under the floors (issue 31): on the committed run of a loaded host, the one row
 * whose prediction lies outside the measured interval (find-tree under Docker's profile) gets a cause that names
 * the wait for a CPU with its figures: the runs' share of a CPU, and the added CPU against the predicted.
 */
class ResidualCauseTest {
    private static final List<WorkloadCostRow> ROWS =
            WorkloadRequest.rows(Fixtures.resultsRoot().resolve("2026-12-05-vm-workload-cost"));

    private static WorkloadCostRow row(String workload, String mechanism) {
        return ROWS.stream()
                .filter(r -> r.subject().workload().equals(workload)
                        && r.subject().mechanism().equals(mechanism))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aLoadedHostIsNamedWithItsShareOfACpuAndTheAddedCpu() {
        WorkloadCostRow none = row("find-tree", "none");
        WorkloadCostRow docker = row("find-tree", "docker");
        WorkloadCostRow.Predicted p = docker.predicted();
        assertEquals(Boolean.FALSE, p.within(), "the committed row lies outside its interval");
        // user + system over wall of the unfiltered runs: (3,926 + 20,247) µs of 106.1 ms
        assertEquals(0.2278, Predictor.cpuShare(none.cost()), 1e-4);
        Long cpu = Predictor.addedCpuNs(Mechanism.DOCKER, docker.cost(), none.cost());
        assertEquals((6760 + 15714 - 3926 - 20247) * 1000L, cpu);
        String cause = Predictor.cause(
                p.residualNs(), p.measuredLowNs(), p.measuredHighNs(), p.addedNs(), cpu, docker.cost(), none.cost());
        assertTrue(cause.startsWith("residual +69.81 ms beyond the measured added [8.99, 103.12] ms"), cause);
        assertTrue(cause.contains("added CPU -1.70 ms against +0.08 ms predicted"), cause);
        assertTrue(cause.contains("the unfiltered runs had 23% of a CPU"), cause);
        assertTrue(cause.contains("a loaded host, the wall times stretched by waits for a CPU"), cause);
    }

    @Test
    void aHostThatGaveTheRunsTheirCpuIsNotCalledLoaded() {
        WorkloadCostRow none = row("find-tree", "none");
        WorkloadCostRow.Cost c = none.cost();
        // the same runs, had their wall time been their CPU time
        WorkloadCostRow.Cost quiet = new WorkloadCostRow.Cost(
                (c.userUs() + c.systemUs()) * 1000,
                0L,
                List.of(),
                c.userUs(),
                c.systemUs(),
                c.supervisorUs(),
                c.voluntarySwitches(),
                c.involuntarySwitches(),
                c.minorFaults(),
                c.majorFaults(),
                c.callsMade(),
                null,
                c.ssb(),
                false);
        assertEquals(1.0, Predictor.cpuShare(quiet), 1e-9);
        String cause = Predictor.cause(5_000_000, 0L, 1_000_000L, 100_000, 4_900_000L, quiet, quiet);
        assertTrue(cause.contains("had 100% of a CPU"), cause);
        assertFalse(cause.contains("loaded host"), cause);
    }
}
