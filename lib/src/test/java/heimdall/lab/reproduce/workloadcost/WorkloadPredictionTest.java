package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.explore.Lab;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.testing.Fact;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prediction against the measurement on a program whose calls are known (issue 31): {@code fixtures/calls}
 * makes {@value #GETPPIDS} getppid then {@value #OPENS} openat + close, run whole by {@code Lab.workload} under a
 * floor where getppid walks a long rule path ({@value #RULES} argument rules, none matching) and under the broker
 * floor (native supervisor, CONTINUE). The predicted added time (the recorded mix times the per-call figures
 * measured in the same rounds) must lie within 10% of the measured one: of the CPU time the floor added (the
 * per-call figures are means of calls on their CPU, a preemption's span left out: CPU time is what they predict),
 * and of the added wall time of the broker's (its added time is waiting for answers). Only on a host that gave the runs a CPU of their own (a host fact: on a
 * loaded one a run waits for a CPU, and the wall residual is that wait, which the row's cause names with its share).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
// Not in the suite (lib/pom.xml leaves the tag out): it judges measured times against each other, and the suite
// runs beside other jobs (./lab test's container steps), where the same 150,000 calls' CPU moved 87 to 174 ms
// from run to run. Run it alone on a quiet host:
//   mvn -B -pl lib test -Dtest=WorkloadPredictionTest -Dlab.test.excludedGroups=none
@Tag("quiet-host")
class WorkloadPredictionTest {
    static final long GETPPIDS = 150_000;
    static final long OPENS = 6_000;

    /** getppid's rules: each a test of args[0] that never holds (masked by 0, compared with k), 3 insns. */
    static final int RULES = 900;

    /** The unfiltered runs' CPU over wall from which a host counts as giving them a CPU of their own. */
    static final double QUIET_SHARE = 0.9;

    @TempDir
    Path tmp;

    @Test
    void aSyntheticWorkloadIsPredictedWithinTenPercentUnderAFloorAndUnderTheBroker() throws Exception {
        Requires.seccomp("errno", "user_notif");
        Requires.ptrace();
        Path target = tmp.resolve("target");
        Files.writeString(target, "opened, never read\n");
        Path profile = tmp.resolve("long-getppid.json");
        Files.writeString(profile, longGetppid());
        List<String> said = new ArrayList<>();
        Path folder = Lab.workload(
                        NativeExecutables.find("fixtures/calls").toString(),
                        String.valueOf(GETPPIDS),
                        String.valueOf(OPENS),
                        target.toString())
                .runs(7)
                .probeRuns(1)
                .profile(profile)
                .only("profile", "broker-continue native")
                .out(tmp.resolve("folder"))
                .progress(said::add)
                .run();
        assertNotNull(folder, String.join("\n", said));
        List<WorkloadCostRow> rows = WorkloadRequest.rows(folder);
        assertEquals(
                List.of("none", "profile", "broker-continue"),
                rows.stream().map(r -> r.subject().mechanism()).toList());
        WorkloadCostRow none = rows.get(0);
        List<String> figures = new ArrayList<>();
        for (WorkloadCostRow r : rows.subList(1, rows.size())) {
            assertEquals(RowStatus.OK, r.outcome(), r.reason());
            assertFalse(r.check().flagged(), "the calls' result changed: " + r.check());
            assertTrue(
                    r.cost().callsMade() >= GETPPIDS + 2 * OPENS,
                    "calls made: " + r.cost().callsMade());
            assertNotNull(r.predicted().addedNs(), r.toString());
            figures.add(figures(r));
        }
        String all = String.join("\n", figures);
        System.err.println("WorkloadPredictionTest:\n" + all);
        // A run's time is its CPU time only when it had a CPU of its own. On a loaded host it waits for one (the
        // longer run the longer), and even its CPU time moves: every switch leaves the filter's code and data cold
        // (on this 2-CPU machine under the other jobs, the floor's added CPU of the same 150,000 calls came out
        // 87 to 174 ms from run to run, its prediction 2% over to 25% under). A host fact, said with the figures.
        double share = Predictor.cpuShare(none.cost());
        Requires.that(
                share >= QUIET_SHARE
                        ? Fact.present("a CPU of its own", "")
                        : Fact.absent(
                                "a CPU of its own",
                                String.format(
                                        Locale.ROOT,
                                        "the unfiltered runs had %.0f%% of a CPU (user + system over wall), a loaded"
                                                + " host: its wall and CPU times are not the calls' cost; figures:%n%s",
                                        100 * share,
                                        all)));
        // The floor: the per-call figures (means of calls on their CPU) predict the CPU time it adds.
        WorkloadCostRow floor = rows.get(1);
        long cpu = floor.predicted().measuredCpuNs();
        assertTrue(cpu > 20_000_000L, "the floor added too little CPU to judge: " + all);
        assertWithinTenPercent(floor.predicted().addedNs(), cpu, "the floor's added CPU", all);
        // The broker: its added time is waiting for the supervisor's answers, not CPU of the program's, so the
        // round trips predict the wall time it adds. (The floor's added wall is its added CPU on a host that gave
        // the runs a CPU of their own, with the wall's own noise on top: its CPU is the figure the calls predict.)
        for (WorkloadCostRow r : rows.subList(1, rows.size())) {
            // the added time stands out of the runs' noise: B/A's interval excludes 1, beyond the threshold
            assertEquals("slower", r.overhead().verdict(), "the added time is lost in the noise: " + all);
        }
        WorkloadCostRow broker = rows.get(2);
        assertWithinTenPercent(
                broker.predicted().addedNs(), broker.cost().wallAddedNs(), "the broker's added wall", all);
    }

    private static void assertWithinTenPercent(long predicted, long measured, String what, String figures) {
        assertTrue(
                Math.abs(predicted - measured) <= 0.10 * Math.abs(measured),
                String.format(
                        Locale.ROOT,
                        "%s: predicted %+.1f ms, measured %+.1f ms, beyond 10%%:%n%s",
                        what,
                        predicted / 1e6,
                        measured / 1e6,
                        figures));
    }

    private static String figures(WorkloadCostRow r) {
        WorkloadCostRow.Predicted p = r.predicted();
        return String.format(
                Locale.ROOT,
                "%s: wall %+.1f ms (B/A %.3f [%.3f, %.3f]), CPU %+.1f ms, predicted %+.1f ms; per call: cached %s ns,"
                        + " program %s ns (%s insns), round trip %s ns",
                r.subject().mechanism(),
                r.cost().wallAddedNs() / 1e6,
                r.overhead().ratio(),
                r.overhead().ratioLow(),
                r.overhead().ratioHigh(),
                p.measuredCpuNs() / 1e6,
                p.addedNs() / 1e6,
                p.cachedNs(),
                p.programNs(),
                p.programInsns(),
                p.roundTripNs());
    }

    /** Everything allowed; getppid runs {@value #RULES} rules of which none matches before the default. */
    static String longGetppid() {
        StringBuilder s = new StringBuilder(
                "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":[\"SCMP_ARCH_X86_64\"],\"syscalls\":[");
        for (int k = 1; k <= RULES; k++) {
            s.append(k == 1 ? "" : ",")
                    .append("{\"names\":[\"getppid\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":0,")
                    .append("\"value\":0,\"valueTwo\":")
                    .append(k)
                    .append(",\"op\":\"SCMP_CMP_MASKED_EQ\"}]}");
        }
        return s.append("]}").toString();
    }
}
