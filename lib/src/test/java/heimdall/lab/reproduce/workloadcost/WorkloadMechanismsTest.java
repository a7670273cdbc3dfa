package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
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
 * The mechanisms beyond a filter, each on a real program in the real kernel: the broker answer from both
 * supervisors (the native one running the same policy in C), the kernel follower on the program's recorded
 * graph, Landlock enforced by the child on itself; and what each refuses.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WorkloadMechanismsTest {
    @TempDir
    Path tmp;

    /**
     * {@code md5sum input.txt} under none, both broker-broker rows, the follower and Landlock, two rounds: every
     * row completes with the unfiltered result; both supervisors broker the one relative read (the input) and
     * continue everything else alike; the follower stepped the program's calls and predicted from a t_follow
     * measured in the run; the Landlock row names the kernel's ABI. The folder reads back.
     */
    @Test
    void eachNewMechanismRunsAProgramWholeAndSaysWhatItDid() throws Exception {
        Requires.seccomp("user_notif");
        Requires.ptrace();
        Requires.that(KernelFacts.root(), KernelFacts.btf(), KernelFacts.landlock());
        Path work = Files.createDirectory(tmp.resolve("work"));
        Files.write(work.resolve("input.txt"), Suite.text(50_000));
        List<Mechanism> ms = List.of(
                Mechanism.NONE,
                Mechanism.BROKER_BROKER_JAVA,
                Mechanism.BROKER_BROKER_NATIVE,
                Mechanism.FOLLOWER,
                Mechanism.LANDLOCK);
        List<WorkloadCostRow> rows = run(List.of("md5sum", "input.txt"), work, ms, tmp.resolve("out"));
        assertEquals(ms.size(), rows.size(), rows.toString());
        for (WorkloadCostRow r : rows) {
            assertEquals(RowStatus.OK, r.outcome(), r.subject().mechanism() + ": " + r.reason());
            assertEquals(2L, r.runs().runsCompleted(), r.subject().mechanism());
            assertFalse(r.check().flagged(), r.subject().mechanism() + " changed the result: " + r.check());
        }
        WorkloadCostRow java = rows.get(1);
        WorkloadCostRow nat = rows.get(2);
        assertEquals("java", java.subject().supervisor());
        assertEquals("native", nat.subject().supervisor());
        for (WorkloadCostRow b : List.of(java, nat)) {
            assertEquals("BROKER", b.subject().answer());
            assertEquals(1L, b.enforced().brokered(), "the input, opened by the supervisor: " + b.enforced());
            assertTrue(b.cost().notified() > b.enforced().brokered(), "the libraries' opens continued: " + b.cost());
        }
        assertEquals(java.cost().notified(), nat.cost().notified(), "both supervisors see the same opens");

        WorkloadCostRow follower = rows.get(3);
        assertEquals("follower", follower.subject().mechanism());
        assertEquals(Enforcers.HOOK.wire(), follower.enforced().followHook());
        assertTrue(follower.enforced().followedCalls() > 20, "calls followed: " + follower.enforced());
        assertNotNull(follower.enforced().perCallFollowNs(), "t_follow measured in the run");
        assertEquals(
                Math.round(follower.enforced().followedCalls()
                        * follower.enforced().perCallFollowNs()),
                follower.predicted().addedNs(),
                "predicted: calls followed times t_follow");

        WorkloadCostRow landlock = rows.get(4);
        assertEquals(Landlock.kernelAbi(), landlock.enforced().landlockAbi().intValue());
        assertTrue(
                landlock.enforced().landlockRuleset().contains("beneath " + work),
                landlock.enforced().toString());
        assertNull(landlock.predicted().addedNs(), "no per-call Landlock figure: no prediction");
    }

    /**
     * The attack: a program writes inside its own folder, then outside it. Without a mechanism both writes land;
     * under Landlock the first still does and the second is refused (the shell's redirection fails, exit 4), and
     * no file appears outside. Reads beneath {@code /} stay allowed (the program and its libraries run).
     */
    @Test
    void landlockLetsTheProgramWriteItsOwnFolderAndRefusesAWriteOutsideIt() throws Exception {
        Requires.landlock();
        Path work = Files.createDirectory(tmp.resolve("work"));
        Path outside = Files.createDirectory(tmp.resolve("outside")).resolve("leak");
        Path runTmp = Files.createDirectory(tmp.resolve("tmp"));
        Path rulesets = Files.createDirectory(tmp.resolve("rulesets"));
        String script = "echo ok > inside || exit 3; cat inside; rm inside; echo leak > '" + outside
                + "' || exit 4; rm '" + outside + "'";
        Workload w = new Workload("attack", "a write outside its folder", List.of("sh", "-c", script), work);
        OneRun.Extra base = new OneRun.Extra(runTmp, null, null);

        OneRun.Result none = OneRun.run(w, Mechanism.NONE, null, base);
        assertEquals(0, none.exit(), none.stderr());
        assertEquals(3L, none.outBytes(), "the inside file was written and read back");

        Enforcers.LandlockSetup ll = new Enforcers(rulesets, runTmp).landlock(w);
        OneRun.Result confined = OneRun.run(w, Mechanism.LANDLOCK, null, base.with(ll.file(), null));
        assertEquals(4, confined.exit(), "the write outside is refused: " + confined.stderr());
        assertEquals(3L, confined.outBytes(), "the write inside its folder is not: " + confined.stderr());
        assertTrue(confined.stderr().contains("Permission denied"), confined.stderr());
        assertFalse(Files.exists(outside), "nothing written outside the folder");
    }

    /**
     * The attack on the broker-broker policy: a relative name that leaves the working folder ({@code ../secret})
     * is brokered like an input, and the broker refuses it (EACCES), with either supervisor; the input beside it
     * is opened by the supervisor and read whole. Without a mechanism both are read.
     */
    @Test
    void bothSupervisorsBrokerTheInputAndRefuseARelativeNameLeavingTheFolder() throws Exception {
        Requires.seccomp("user_notif");
        Path work = Files.createDirectory(tmp.resolve("work"));
        Files.writeString(work.resolve("input.txt"), "input\n");
        Files.writeString(tmp.resolve("secret"), "secret\n");
        Workload w = new Workload(
                "escape", "a name leaving in/", List.of("sh", "-c", "cat input.txt && cat ../secret"), work);
        OneRun.Extra base = new OneRun.Extra(Files.createDirectory(tmp.resolve("tmp")), null, null);
        OneRun.Result none = OneRun.run(w, Mechanism.NONE, null, base);
        assertEquals(0, none.exit(), none.stderr());
        assertEquals(13L, none.outBytes());
        Filters filters = new Filters(Files.createDirectory(tmp.resolve("bpf")), null, null);
        for (Mechanism m : List.of(Mechanism.BROKER_BROKER_NATIVE, Mechanism.BROKER_BROKER_JAVA)) {
            OneRun.Result r = OneRun.run(w, m, filters.program(m, w, null).file(), base);
            assertEquals(1, r.exit(), m + ": " + r.stderr());
            assertEquals(6L, r.outBytes(), m + ": the input was read, the secret not");
            assertEquals(1L, r.brokered(), m + ": the input opened by the supervisor");
            assertTrue(r.stderr().contains("Permission denied"), m + ": " + r.stderr());
        }
    }

    /** A program that starts processes is not followed in part: the follower row is refused, naming why. */
    @Test
    void theFollowerRefusesAProgramThatStartsProcesses() throws Exception {
        Requires.ptrace();
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Path work = Files.createDirectory(tmp.resolve("work"));
        Workload w = new Workload("sh", "processes", List.of("sh", "-c", "ls >/dev/null; true"), work);
        Refusal r = assertThrows(
                Refusal.class, () -> new Enforcers(Files.createDirectory(tmp.resolve("r")), tmp).follower(w));
        assertTrue(
                r.getMessage().contains("started 1 process") && r.getMessage().contains("running ls"), r.getMessage());
    }

    private static List<WorkloadCostRow> run(List<String> command, Path dir, List<Mechanism> ms, Path out)
            throws Exception {
        WorkloadCost.Options o =
                new WorkloadCost.Options(2, 1, Suite.Size.QUICK, command, dir, ms, null, null, 3, 5_000);
        List<String> progress = new ArrayList<>();
        ResultsFolder folder = ResultsFolder.chosen(out);
        ReproductionResult r;
        try (Session session = Session.open(folder, progress::add)) {
            r = WorkloadCost.run(o, session);
        }
        assertTrue(r.written(), String.join("\n", progress));
        Kept.keep(folder, r, progress::add);
        assertTrue(
                Files.readString(out.resolve("table.md"), StandardCharsets.UTF_8)
                        .contains("| user | follower |"),
                "the table shows the follower row");
        return WorkloadRequest.rows(out);
    }
}
