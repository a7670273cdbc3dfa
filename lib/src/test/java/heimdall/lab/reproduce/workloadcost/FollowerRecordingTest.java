package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.follower.Divergence;
import heimdall.lab.graph.record.GraphRecordCommand;
import heimdall.lab.graph.record.GraphRecorder;
import heimdall.lab.graph.record.Symbols;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.probe.Tracer;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The follower's graph is recorded as its measured runs run the program ({@code heimdall-workload}: stdin
 * {@code /dev/null}, stdout and stderr pipes, the workload's folder, the runs' {@code TMPDIR}) and a site's
 * repetitions are {@code next} self-edges, so a deterministic program is followed to its end in every run with its
 * output unchanged; and a path the recording lacks still kills it. Before: {@code cat}, recorded into a file
 * ({@code copy_file_range}), was killed at the {@code mmap} of its buffer for the measured run's pipe; {@code find}
 * over the suite's tree was killed at an {@code fcntl} its own recorded run made (the cursor lost the site that
 * stats each file, {@link Enforcers#selfSuccessionsAsNext}).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FollowerRecordingTest {
    /** Measured runs under one recording: each must be followed to its end. */
    private static final int RUNS = 3;

    @TempDir
    Path tmp;

    private Path runTmp;
    private Enforcers enforcers;

    @BeforeEach
    void setUp() throws Exception {
        runTmp = Files.createDirectory(tmp.resolve("tmp"));
        enforcers = new Enforcers(Files.createDirectory(tmp.resolve("rulesets")), runTmp);
    }

    /** The default suite's {@code find-tree}, as {@code --quick} writes it: followed whole in each run. */
    @Test
    void findOverTheSuitesTreeIsFollowedToItsEndInEveryRun() throws Exception {
        Requires.ptrace();
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Workload find = Suite.write(Files.createDirectory(tmp.resolve("suite")), Suite.Size.QUICK)
                .get(0);
        assertEquals("find-tree", find.name());
        followedToItsEnd(find);
    }

    /** {@code cat} of a file: into a pipe it maps a buffer, reads and writes (into a file it copy_file_ranges). */
    @Test
    void aCatOfAFileIsFollowedToItsEndInEveryRun() throws Exception {
        Requires.ptrace();
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Path work = Files.createDirectory(tmp.resolve("work"));
        Files.write(work.resolve("input.txt"), Suite.text(200_000));
        followedToItsEnd(new Workload("cat", "a copy", List.of("cat", "input.txt"), work));
    }

    /**
     * The attack: the graph of {@code abcdf}'s run, then a run taking a path that run never took ({@code getpgrp}
     * after F). The follower still kills it at that call, before it ends, in the state where the graph allows only
     * what the recorded run did there (exit_group, or F repeated); the recorded command itself is followed to its end. The recording is the program's alone: the same sites and calls as {@code graph record}'s run of
     * it without the launcher (abcdf's calls do not depend on its descriptors), none of the launcher's.
     */
    @Test
    void aPathTheRecordingLacksIsStillKilledAndTheRecordingIsTheProgramsAlone() throws Exception {
        Requires.ptrace();
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Path work = Files.createDirectory(tmp.resolve("work"));
        String abcdf = NativeExecutables.abcdf().toString();
        Workload recorded = new Workload("abcdf", "markers", List.of(abcdf), work);
        Enforcers.FollowSetup f = enforcers.follower(recorded);

        GraphRecorder.Recording direct = GraphRecorder.record(
                Tracer.withCallSites(GraphRecordCommand.DEFAULT_STACK_WORDS)
                        .run(List.of(abcdf), work)
                        .events(),
                Symbols.none());
        assertEquals(direct.sites().size(), f.sites(), "the program's sites, none of the launcher's");
        assertEquals(direct.calls(), f.recordedCalls(), "the program's calls from its exec, none of the launcher's");

        OneRun.Extra follow = new OneRun.Extra(runTmp, null, f.tables());
        OneRun.Result same = OneRun.run(recorded, Mechanism.FOLLOWER, null, follow);
        assertNull(same.divergence(), "the recorded command is followed to its end: " + same.divergence());
        assertEquals(0, same.exit(), same.stderr());

        Workload other = new Workload("abcdf", "markers", List.of(abcdf, "--unobserved"), work);
        OneRun.Result killed = OneRun.run(other, Mechanism.FOLLOWER, null, follow);
        Divergence d = killed.divergence();
        assertNotNull(d, "a call the graph lacks kills the program: " + killed.said());
        assertEquals(Divergence.Kind.CALL, d.kind());
        assertEquals(111, d.what(), "killed at getpgrp: " + d);
        assertNull(killed.exit(), "it did not end by itself: " + killed.said());
        assertEquals(
                List.of(108, 231),
                Enforcers.allowedIn(f.tables(), d.state()),
                "what the graph allows there (the refusal names it): the recorded run's exit_group after F, or F "
                        + "again (a repeated call keeps its position, DESIGN.md \"Prepared graphs\")");
    }

    /**
     * {@code w} recorded for the follower once, then run {@link #RUNS} times under it: never killed, each run's
     * exit status and stdout (length and hash) those of its run with no mechanism, and each run followed call by
     * call (the follower stepped calls, as many as the recorded run made give or take a few).
     */
    private void followedToItsEnd(Workload w) throws Exception {
        OneRun.Extra base = new OneRun.Extra(runTmp, null, null);
        OneRun.Result none = OneRun.run(w, Mechanism.NONE, null, base);
        assertEquals(0, none.exit(), none.stderr());
        assertTrue(none.outBytes() > 0, "it writes its output");
        Enforcers.FollowSetup f = enforcers.follower(w);
        for (int i = 1; i <= RUNS; i++) {
            OneRun.Result r = OneRun.run(w, Mechanism.FOLLOWER, null, base.with(null, f.tables()));
            assertNull(r.divergence(), "run " + i + " of " + RUNS + " killed by the follower at " + r.divergence());
            assertEquals(none.outcome(), r.outcome(), "run " + i + ": exit status and output unchanged");
            assertNotNull(r.followed());
            assertTrue(
                    Math.abs(r.followed() - f.recordedCalls()) <= Math.max(5, f.recordedCalls() / 100),
                    "run " + i + ": followed " + r.followed() + " calls, the recording made " + f.recordedCalls());
        }
    }
}
