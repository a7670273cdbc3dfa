package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.cli.Main;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.Summary;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * workload-cost through the real CLI: bad input (exit 2), a program that fails with no filter (exit 1), and a
 * real run of a real program ({@code uname}) whose folder reads back as written, with a profile that kills it
 * (a refused row naming the call), one that changes its result (flagged), and its own generated profile,
 * which must run it to completion; the broker-broker rows of both supervisors, Landlock's and the follower's
 * beside them (or refused, with the host's reason).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WorkloadCostTest {
    @TempDir
    Path tmp;

    private record Ran(int status, String out, String err) {}

    private static Ran lab(List<String> argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                new ArrayList<>(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aCommandThatDoesNotExistExits2NamingItAndLeavesNoFolder() {
        Path out = tmp.resolve("never");
        Ran r = lab(List.of(
                "reproduce",
                "workload-cost",
                "--quick",
                "--out",
                out.toString(),
                "--workload",
                "--",
                "no-such-program-heimdall"));
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("no-such-program-heimdall"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out));
        Ran bare = lab(List.of("reproduce", "workload-cost", "--quick", "--out", out.toString(), "--workload"));
        assertEquals(2, bare.status(), bare.err());
        assertTrue(bare.err().contains("no command after --"), bare.err());
    }

    @Test
    void aProgramThatFailsWithNoFilterIsRefusedBeforeMeasuring() {
        Path out = tmp.resolve("failing");
        Ran r = lab(List.of(
                "reproduce",
                "workload-cost",
                "--quick",
                "--out",
                out.toString(),
                "--workload",
                "--",
                "sh",
                "-c",
                "echo broken >&2; exit 3"));
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("exit 3") && r.err().contains("broken"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    /**
     * One real run of {@code uname} under every mechanism plus two profiles of ours: one kills uname(2), one
     * answers it EPERM. The folder reads back strictly and writes back as it was.
     */
    @Test
    void killsAreRefusedRowsNamingTheCallChangesAreFlaggedAndTheOwnProfileRunsItWhole() throws Exception {
        Requires.seccomp("kill_process", "errno", "user_notif");
        Requires.ptrace();
        Path kill = tmp.resolve("kill-uname.json");
        Files.writeString(kill, profile("SCMP_ACT_KILL_PROCESS"));
        Path out = tmp.resolve("killed");
        Ran r = lab(List.of(
                "reproduce",
                "workload-cost",
                "--quick",
                "--runs",
                "2",
                "--out",
                out.toString(),
                "--profile",
                kill.toString(),
                "--workload",
                "--",
                "uname",
                "-a"));
        assertEquals(0, r.status(), r.err());
        Summary s = SummaryJson.read(out);
        List<WorkloadCostRow> rows =
                s.rows().stream().map(WorkloadCostRow.class::cast).toList();
        WorkloadCostRow mine = row(rows, "profile");
        assertEquals(RowStatus.REFUSED, mine.outcome());
        assertTrue(mine.reason().contains("SIGSYS") && mine.reason().contains("uname"), mine.reason());
        WorkloadCostRow own = row(rows, "own-profile");
        assertEquals(RowStatus.OK, own.outcome(), own.reason());
        assertEquals(2L, own.runs().runsCompleted());
        assertFalse(own.check().flagged(), own.check().toString());
        assertNotNull(own.overhead().ratio());
        assertTrue(own.cost().callsMade() > 10, "calls made: " + own.cost().callsMade());
        WorkloadCostRow broker = row(rows, "broker-continue");
        assertTrue(broker.cost().notified() > 0, "uname -a opens files by name: " + broker.cost());
        // the mechanisms added after the first folders: each a row of its own, in the same rounds
        for (String sup : List.of("java", "native")) {
            WorkloadCostRow b = row(rows, "broker-broker", sup);
            assertEquals(RowStatus.OK, b.outcome(), b.reason());
            assertEquals(0L, b.enforced().brokered(), "uname opens only absolute names: all continued");
            assertEquals(broker.cost().notified(), b.cost().notified(), sup);
        }
        WorkloadCostRow landlock = row(rows, "landlock");
        if (KernelFacts.landlock().present()) {
            assertEquals(RowStatus.OK, landlock.outcome(), landlock.reason());
            assertFalse(landlock.check().flagged(), "read and execute beneath /: uname runs whole");
            assertTrue(
                    landlock.enforced().landlockAbi() >= 1, landlock.enforced().toString());
        } else {
            assertEquals(RowStatus.REFUSED, landlock.outcome());
            assertTrue(landlock.reason().contains("no Landlock"), landlock.reason());
        }
        WorkloadCostRow follower = row(rows, "follower");
        if (KernelFacts.root().present() && KernelFacts.btf().present()) {
            assertEquals(RowStatus.OK, follower.outcome(), follower.reason());
            assertTrue(
                    follower.enforced().followedCalls() > 10,
                    follower.enforced().toString());
            assertFalse(follower.check().flagged(), follower.check().toString());
        } else {
            assertEquals(RowStatus.REFUSED, follower.outcome());
            assertTrue(follower.reason().contains("root") || follower.reason().contains("BTF"), follower.reason());
        }
        // the folder written reads back strictly and is written back as it was
        JsonNode written =
                new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(
                written.toString(),
                SummaryJson.summary(s.kind().name(), s.interruption(), s.signal(), s.rows())
                        .toString());
        assertTrue(Files.readString(out.resolve("table.md")).contains("refused: killed by SIGSYS at uname"));

        Path errno = tmp.resolve("errno-uname.json");
        Files.writeString(errno, profile("SCMP_ACT_ERRNO"));
        Path out2 = tmp.resolve("changed");
        Ran r2 = lab(List.of(
                "reproduce",
                "workload-cost",
                "--quick",
                "--runs",
                "1",
                "--out",
                out2.toString(),
                "--profile",
                errno.toString(),
                "--workload",
                "--",
                "uname",
                "-a"));
        assertEquals(0, r2.status(), r2.err());
        WorkloadCostRow changed = row(
                SummaryJson.read(out2).rows().stream()
                        .map(WorkloadCostRow.class::cast)
                        .toList(),
                "profile");
        assertTrue(changed.check().flagged(), changed.check().toString());
        assertEquals(1L, changed.check().exitChangedRuns());
    }

    private static String profile(String action) {
        return "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":[\"SCMP_ARCH_X86_64\"],"
                + "\"syscalls\":[{\"names\":[\"uname\"],\"action\":\"" + action + "\"}]}";
    }

    private static WorkloadCostRow row(List<WorkloadCostRow> rows, String mechanism, String supervisor) {
        return rows.stream()
                .filter(r -> r.subject().mechanism().equals(mechanism)
                        && supervisor.equals(r.subject().supervisor()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + mechanism + " " + supervisor + " row in " + rows));
    }

    private static WorkloadCostRow row(List<WorkloadCostRow> rows, String mechanism) {
        return rows.stream()
                .filter(r -> r.subject().mechanism().equals(mechanism))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + mechanism + " row in " + rows));
    }
}
