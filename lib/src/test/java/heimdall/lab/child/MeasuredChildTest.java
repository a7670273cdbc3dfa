package heimdall.lab.child;

import static heimdall.lab.child.Programs.NR_GETPPID;
import static heimdall.lab.child.Programs.RET_ERRNO;
import static heimdall.lab.child.Programs.RET_KILL_PROCESS;
import static heimdall.lab.child.Programs.RET_USER_NOTIF;
import static heimdall.lab.child.Programs.allowAll;
import static heimdall.lab.child.Programs.insn;
import static heimdall.lab.child.Programs.onSyscall;
import static heimdall.lab.child.Programs.program;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.NativeLib;
import heimdall.lab.sys.Signals;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class MeasuredChildTest {
    static final long N = 2_000;
    static final long W = 200;

    @TempDir
    static Path dir;

    static Path file;

    @BeforeAll
    static void setUp() throws IOException {
        file = Files.writeString(dir.resolve("in.txt"), "hello\n");
    }

    static Stream<Call> calls() {
        return Stream.of(
                Call.GETPPID,
                Call.GETTID,
                Call.GETPID,
                Call.SCHED_YIELD,
                Call.PRCTL_SET_NAME,
                Call.MPROTECT,
                Call.openat(file),
                Call.syscall(NR_GETPPID),
                Call.GETPID_SELFTEST);
    }

    @ParameterizedTest
    @MethodSource("calls")
    void eachCallWithoutFilterGivesExactlyNPositiveSamples(Call call) {
        ChildResult r = MeasuredChild.run(ChildSpec.of(call, W, N));
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(N, r.samples().length);
        assertTrue(Arrays.stream(r.samples()).allMatch(s -> s > 0), "a sample was not positive");
        assertEquals(0, r.lastErrno(), "the call failed: " + r.lastOutcome());
        assertEquals(0, r.batchTotalNs());
    }

    /**
     * After installing, the child makes no system call but the measured one (with close after openat)
     * and exit_group: a floor allowing exactly those lets it finish. Any other call, the clock falling
     * back from the vDSO included, would kill it with SIGSYS.
     */
    @ParameterizedTest
    @MethodSource("calls")
    void afterInstallingTheChildMakesOnlyTheMeasuredCall(Call call) {
        requireSeccomp("kill_process");
        byte[] floor = call.kind() == Call.Kind.OPENAT
                ? Programs.allowOnly(call.nr(), Programs.NR_CLOSE, Programs.NR_EXIT_GROUP)
                : Programs.allowOnly(call.nr(), Programs.NR_EXIT_GROUP);
        for (ChildSpec.Mode mode : List.of(ChildSpec.Mode.PER_CALL, ChildSpec.Mode.BATCH)) {
            for (int placement = 0; placement < ChildSpec.PLACEMENTS; placement++) {
                ChildResult r = MeasuredChild.run(ChildSpec.of(call, W, N)
                        .withPrograms(floor)
                        .withMode(mode)
                        .withPlacement(placement));
                assertTrue(
                        r.completed(),
                        mode + " at placement " + placement + ": " + r.fate().describe());
                assertEquals(0, r.lastErrno(), r.lastOutcome());
            }
        }
        ChildResult timer = MeasuredChild.run(
                ChildSpec.timer(Cpus.measuring(), 0, N).withPrograms(Programs.allowOnly(Programs.NR_EXIT_GROUP)));
        assertTrue(timer.completed(), "timer: " + timer.fate().describe());
    }

    @Test
    void theStrictFloorKillsAnyOtherCall() {
        requireSeccomp("kill_process");
        ChildResult r = MeasuredChild.run(
                ChildSpec.of(Call.GETTID, 0, 10).withPrograms(Programs.allowOnly(NR_GETPPID, Programs.NR_EXIT_GROUP)));
        assertEquals(
                Signals.SIGSYS, assertInstanceOf(Fate.Killed.class, r.fate()).signal());
    }

    /** The listener handover needs sendmsg and close (SCM_RIGHTS) or only close (pidfd_getfd). */
    @ParameterizedTest
    @EnumSource(ChildSpec.ListenerTransfer.class)
    void listenerHandoverUnderAStrictFloor(ChildSpec.ListenerTransfer how) throws Exception {
        requireSeccomp("user_notif");
        // seccomp itself too: the listener program is installed under the floor.
        byte[] floor = Programs.allowOnly(NR_GETPPID, Programs.NR_CLOSE, Programs.NR_EXIT_GROUP, Programs.NR_SECCOMP);
        ChildSpec spec = ChildSpec.of(Call.syscall(NR_GETPPID), 0, 5)
                .withPrograms(floor, onSyscall(NR_GETPPID, RET_USER_NOTIF))
                .withNewListener(how);
        try (RunningChild child = MeasuredChild.start(spec)) {
            if (how == ChildSpec.ListenerTransfer.SCM_RIGHTS) {
                // sendmsg is not allowed: the floor kills the child during the handover.
                ChildResult r = child.await();
                Fate.Killed k = assertInstanceOf(Fate.Killed.class, r.fate());
                assertEquals(Signals.SIGSYS, k.signal());
                assertEquals(Phase.LISTENER, k.phase());
                assertEquals(
                        "killed by SIGSYS (31) during listener handover",
                        r.fate().describe());
            } else {
                child.listenerFd();
                child.closeListener();
                ChildResult r = child.await();
                assertTrue(r.completed(), r.fate().describe());
                assertEquals(Errno.ENOSYS, r.lastErrno());
            }
        }
    }

    /**
     * A broker filter installed first, under a strict floor that does not allow seccomp(2): the
     * listener comes from program 0 and the floor on top only has to allow the handover's close.
     */
    @Test
    void listenerFromTheFirstOfTwoPrograms() throws Exception {
        requireSeccomp("user_notif");
        byte[] floor = Programs.allowOnly(NR_GETPPID, Programs.NR_CLOSE, Programs.NR_EXIT_GROUP);
        ChildSpec spec = ChildSpec.of(Call.syscall(NR_GETPPID), 0, 5)
                .withPrograms(onSyscall(NR_GETPPID, RET_USER_NOTIF), floor)
                .withNewListener(ChildSpec.ListenerTransfer.PIDFD_GETFD, 0);
        try (RunningChild child = MeasuredChild.start(spec)) {
            assertTrue(child.listenerFd() >= 0);
            child.closeListener();
            ChildResult r = child.await();
            assertTrue(r.completed(), r.fate().describe());
            assertEquals(Errno.ENOSYS, r.lastErrno(), "the notifying program is the first one");
        }
        assertThrows(
                heimdall.lab.BadInput.class,
                () -> ChildSpec.of(Call.GETPPID, 0, 1)
                        .withPrograms(floor)
                        .withNewListener(ChildSpec.ListenerTransfer.PIDFD_GETFD, 1));
    }

    @Test
    void spawnFailuresAreRefusalsAndBadSpecsEinval() {
        byte[] spec = ChildSpec.of(Call.GETPPID, 0, 10).encode();
        assertEquals(-Errno.ENOENT, NativeLib.hl_run_spawn("/nonexistent/heimdall-runner", spec, spec.length));
        byte[] bad = spec.clone();
        bad[0] ^= 1; // magic
        assertEquals(-Errno.EINVAL, NativeLib.hl_run_spawn(NativeLib.runner().toString(), bad, bad.length));
        assertEquals(-Errno.EINVAL, NativeLib.hl_run_spawn(NativeLib.runner().toString(), spec, spec.length - 1));
    }

    @Test
    void openatReturnsADescriptorAndClosesIt() {
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.openat(file), W, N));
        // Closed after each call, so every openat gets the same lowest free number: never a pile-up.
        assertTrue(r.lastReturn() >= 0 && r.lastReturn() < 10, "fd " + r.lastReturn());
        ChildResult missing = MeasuredChild.run(ChildSpec.of(Call.openat(dir.resolve("absent")), 0, 10));
        assertEquals(-1, missing.lastReturn());
        assertEquals(Errno.ENOENT, missing.lastErrno());
    }

    /** openat runs in the file's directory and names it by its last component (what a broker sees). */
    @Test
    void openatWorksFromTheFilesDirectory() {
        Fate.Exited noDir = assertInstanceOf(
                Fate.Exited.class,
                MeasuredChild.run(ChildSpec.of(Call.openat(dir.resolve("absent-dir/x")), 0, 1))
                        .fate());
        assertEquals(Phase.PREPARE, noDir.phase());
        assertEquals(Errno.ENOENT, noDir.setupErrno());
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.openat(file), 0, 3));
        assertTrue(r.completed(), r.fate().describe());
        assertTrue(r.lastReturn() >= 0);
    }

    @Test
    void grantedCpuIsTheRequestedOne() {
        for (int cpu : Cpus.allowed()) {
            ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10).withCpu(cpu));
            assertTrue(r.completed(), r.fate().describe());
            assertEquals(cpu, r.cpuGranted());
        }
    }

    @Test
    void aCpuOutsideTheAllowedSetEndsTheChildWhilePinning() {
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10).withCpu(1023));
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate());
        assertEquals(66, e.code());
        assertEquals(Phase.PIN, e.phase());
        assertEquals("exited with 66: it could not pin itself (EINVAL)", e.describe());
        assertEquals(-1, r.cpuGranted());
    }

    @Test
    void awaitingAPhaseAChildNeverReachesReturnsWhenItEnds() throws InterruptedException {
        try (RunningChild c =
                MeasuredChild.start(ChildSpec.of(Call.GETPPID, 0, 10).withCpu(1023))) {
            assertFalse(c.awaitPhase(Phase.MEASURE, Duration.ofSeconds(30)));
            assertFalse(c.alive());
            assertEquals(Phase.PIN, c.phase());
        }
    }

    @Test
    void batchModeGivesATotalAndNoSamples() {
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPPID, W, N).withMode(ChildSpec.Mode.BATCH));
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(0, r.samples().length);
        assertTrue(r.batchTotalNs() > 0);
        assertEquals(ProcessHandle.current().pid(), r.lastReturn(), "getppid in the child is this JVM");
    }

    /** Each of the runner's copies of a loop makes the call it was asked for, timed or not. */
    @Test
    void everyPlacementMakesTheCall() {
        for (int placement = 0; placement < ChildSpec.PLACEMENTS; placement++) {
            ChildResult batch = MeasuredChild.run(ChildSpec.of(Call.GETPPID, W, N)
                    .withMode(ChildSpec.Mode.BATCH)
                    .withPlacement(placement));
            assertEquals(ProcessHandle.current().pid(), batch.lastReturn(), "placement " + placement);
            ChildResult timed =
                    MeasuredChild.run(ChildSpec.of(Call.GETPPID, W, N).withPlacement(placement));
            assertEquals(ProcessHandle.current().pid(), timed.lastReturn(), "placement " + placement);
            assertEquals(N, timed.samples().length);
        }
    }

    @Test
    void placementsAreZeroToThreeAndOnlyForPlainCalls() {
        BadInput big = assertThrows(
                BadInput.class, () -> ChildSpec.of(Call.GETPID, 0, 1).withPlacement(4));
        assertTrue(big.getMessage().contains("placement"), big.getMessage());
        assertThrows(BadInput.class, () -> ChildSpec.of(Call.GETPID, 0, 1).withPlacement(-1));
        assertThrows(BadInput.class, () -> ChildSpec.of(Call.FORK, 0, 1).withPlacement(1));
        assertThrows(BadInput.class, () -> ChildSpec.timer(-1, 0, 1).withPlacement(2));
        assertEquals(
                List.of(0, 1, 2, 3, 0, 1),
                java.util.stream.IntStream.range(0, 6)
                        .mapToObj(r -> ChildSpec.placementForRun(Call.GETPID, r))
                        .toList());
        assertEquals(0, ChildSpec.of(Call.FORK, 0, 1).withPlacementForRun(3).placement(), "a fork loop has one copy");
    }

    @Test
    void timerCostGivesNPositiveSamples() {
        ChildResult r = MeasuredChild.timerCost(Cpus.measuring(), N);
        assertEquals(N, r.samples().length);
        assertTrue(Arrays.stream(r.samples()).allMatch(s -> s > 0), "a timer sample was not positive");
        assertEquals(Cpus.measuring(), r.cpuGranted());
    }

    @ParameterizedTest
    @EnumSource(
            value = Phase.class,
            names = {"WARMUP", "MEASURE"})
    void killProcessProgramKillsTheChildWithSigsysAndNamesPhaseAndCall(Phase phase) {
        requireSeccomp("kill_process");
        long warmup = phase == Phase.WARMUP ? W : 0;
        ChildResult r = MeasuredChild.run(
                ChildSpec.of(Call.GETPPID, warmup, N).withPrograms(onSyscall(NR_GETPPID, RET_KILL_PROCESS)));
        Fate.Killed k = assertInstanceOf(Fate.Killed.class, r.fate());
        assertEquals(Signals.SIGSYS, k.signal());
        assertEquals(phase, k.phase());
        assertEquals(Call.GETPPID, k.call());
        String text = phase == Phase.WARMUP ? "warm-up" : "measurement";
        assertEquals(
                "killed by SIGSYS (31) during " + text + " of getppid", r.fate().describe());
        assertEquals(0, r.samples().length);
        assertFalse(r.completed());
        assertThrows(Refusal.class, r::requireCompleted);
    }

    @Test
    void theKillProgramLeavesOtherCallsAlone() {
        requireSeccomp("kill_process");
        ChildResult r = MeasuredChild.run(
                ChildSpec.of(Call.GETTID, W, N).withPrograms(onSyscall(NR_GETPPID, RET_KILL_PROCESS)));
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(N, r.samples().length);
    }

    @Test
    void errnoProgramMakesTheCallFailWithThatErrno() {
        requireSeccomp("errno");
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.syscall(NR_GETPPID), W, N)
                .withPrograms(onSyscall(NR_GETPPID, RET_ERRNO | Errno.EPERM)));
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(-1, r.lastReturn());
        assertEquals(Errno.EPERM, r.lastErrno());
        assertEquals(N, r.samples().length);
    }

    /**
     * The selftest's loop compares each result with the pid, as the selftest asserts it: a getpid that
     * fails (-1, EPERM) ends the run at the first call, in either mode, at every placement, and names
     * the errno; the bare loop takes the same failure as a result. So the comparison is in the loop.
     */
    @Test
    void theSelftestLoopEndsTheRunWhenGetpidIsNotThePid() {
        requireSeccomp("errno");
        byte[] eperm = onSyscall(Call.GETPID.nr(), RET_ERRNO | Errno.EPERM);
        for (ChildSpec.Mode mode :
                List.of(ChildSpec.Mode.PER_CALL, ChildSpec.Mode.BATCH, ChildSpec.Mode.BATCH_CPUTIME)) {
            for (int placement = 0; placement < ChildSpec.PLACEMENTS; placement++) {
                ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPID_SELFTEST, W, N)
                        .withPrograms(eperm)
                        .withMode(mode)
                        .withPlacement(placement));
                Fate.Exited e = assertInstanceOf(
                        Fate.Exited.class,
                        r.fate(),
                        mode + " at " + placement + ": " + r.fate().describe());
                assertEquals(72, e.code());
                assertEquals(Errno.EPERM, e.setupErrno(), Errno.name(e.setupErrno()));
                assertEquals(Phase.WARMUP, e.phase(), "the first warm-up call fails");
                assertEquals(Errno.EPERM, r.lastErrno());
            }
        }
        ChildResult bare = MeasuredChild.run(ChildSpec.of(Call.GETPID, W, N).withPrograms(eperm));
        assertTrue(bare.completed(), bare.fate().describe());
        assertEquals(Errno.EPERM, bare.lastErrno());
        // Unfiltered, the selftest loop completes and its last call returned the child's own pid.
        ChildResult ok =
                MeasuredChild.run(ChildSpec.of(Call.GETPID_SELFTEST, W, N).withMode(ChildSpec.Mode.BATCH_CPUTIME));
        assertTrue(ok.completed(), ok.fate().describe());
        assertTrue(
                ok.lastReturn() > 1
                        && ok.lastReturn() != ProcessHandle.current().pid(),
                "a pid of the child's own: " + ok.lastReturn());
        assertTrue(ok.batchTotalNs() > 0);
    }

    @Test
    void stackedProgramsTheMostRestrictiveWinsInEitherOrder() {
        requireSeccomp("errno");
        byte[] eperm = onSyscall(NR_GETPPID, RET_ERRNO | Errno.EPERM);
        for (List<byte[]> stack : List.of(List.of(allowAll(), eperm), List.of(eperm, allowAll()))) {
            ChildResult r = MeasuredChild.run(
                    ChildSpec.of(Call.syscall(NR_GETPPID), 0, 10).withPrograms(stack));
            assertTrue(r.completed(), r.fate().describe());
            assertEquals(-1, r.lastReturn());
            assertEquals(Errno.EPERM, r.lastErrno());
        }
        // ERRNO against KILL_PROCESS: the kill wins.
        ChildResult killed = MeasuredChild.run(ChildSpec.of(Call.syscall(NR_GETPPID), 0, 10)
                .withPrograms(onSyscall(NR_GETPPID, RET_KILL_PROCESS), eperm));
        assertEquals(
                Signals.SIGSYS,
                assertInstanceOf(Fate.Killed.class, killed.fate()).signal());
    }

    @Test
    void aProgramTheKernelRefusesEndsTheChildAtInstallationWithEinval() {
        requireSeccomp("allow");
        byte[] jumpOutOfRange = program(insn(Programs.JEQ_K, 5, 0, 1), insn(Programs.RET_K, 0, 0, Programs.RET_ALLOW));
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10).withPrograms(allowAll(), jumpOutOfRange));
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate());
        assertEquals(69, e.code());
        assertEquals(Phase.INSTALL, e.phase());
        assertEquals(1, e.program());
        assertEquals(Errno.EINVAL, e.setupErrno());
        assertEquals(
                "exited with 69: the kernel refused program 1 (EINVAL)",
                r.fate().describe());
    }

    @ParameterizedTest
    @EnumSource(ChildSpec.ListenerTransfer.class)
    void listenerReachesTheParentAndClosingItMakesTheCallFailWithEnosys(ChildSpec.ListenerTransfer how)
            throws Exception {
        requireSeccomp("user_notif");
        ChildSpec spec = ChildSpec.of(Call.syscall(NR_GETPPID), 2, 10)
                .withPrograms(onSyscall(NR_GETPPID, RET_USER_NOTIF))
                .withNewListener(how);
        try (RunningChild child = MeasuredChild.start(spec)) {
            int fd = child.listenerFd();
            int flags = NativeLib.hl_fd_flags(fd);
            assertTrue(flags >= 0, "listener fd " + fd + " not open: " + Errno.name(-flags));
            assertEquals(1, flags & 1, "the listener must be O_CLOEXEC in the parent");
            assertEquals(
                    "anon_inode:seccomp notify",
                    Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString());
            // Past the handover the child is in (or entering) its first notified call, where it waits.
            assertTrue(child.awaitPhase(Phase.WARMUP, Duration.ofSeconds(10)), "child stuck in " + child.phase());
            // The child keeps no descriptor beyond its region (3) and socket (4): nothing leaked in, and
            // its own listener copy is gone.
            for (Path p : fdsOf(child.pid())) {
                int n = Integer.parseInt(p.getFileName().toString());
                assertTrue(n <= 4, "child has fd " + n + " -> " + Files.readSymbolicLink(p));
            }
            child.closeListener();
            ChildResult r = child.await();
            assertTrue(r.completed(), r.fate().describe());
            assertEquals(-1, r.lastReturn());
            assertEquals(Errno.ENOSYS, r.lastErrno());
            assertEquals(10, r.samples().length);
        }
    }

    @Test
    void aChildBlockedOnItsSupervisorIsKilledByClose() throws InterruptedException {
        requireSeccomp("user_notif");
        ChildSpec spec = ChildSpec.of(Call.GETPPID, 0, 10)
                .withPrograms(onSyscall(NR_GETPPID, RET_USER_NOTIF))
                .withNewListener(ChildSpec.ListenerTransfer.SCM_RIGHTS);
        RunningChild child = MeasuredChild.start(spec);
        child.listenerFd(); // held open and never answered: the child waits in its first call
        assertTrue(child.awaitPhase(Phase.MEASURE, Duration.ofSeconds(10)), "child stuck in " + child.phase());
        child.close();
        Fate.Killed k = assertInstanceOf(Fate.Killed.class, child.await().fate());
        assertEquals(Signals.SIGKILL, k.signal());
        assertEquals(Phase.MEASURE, k.phase());
    }

    @Test
    void aChildOutlivesTheThreadThatStartedIt() throws Exception {
        requireSeccomp("user_notif");
        ChildSpec spec = ChildSpec.of(Call.syscall(NR_GETPPID), 0, 5)
                .withPrograms(onSyscall(NR_GETPPID, RET_USER_NOTIF))
                .withNewListener(ChildSpec.ListenerTransfer.SCM_RIGHTS);
        RunningChild[] started = new RunningChild[1];
        Thread t = new Thread(() -> started[0] = MeasuredChild.start(spec), "short-lived starter");
        t.start();
        t.join();
        // The child waits on its listener until we act, so a parent-death signal tied to the starting
        // thread would have killed it by now; give the thread's exit time to be noticed by the kernel.
        Thread.sleep(200);
        try (RunningChild child = started[0]) {
            child.listenerFd();
            child.closeListener();
            ChildResult r = child.await();
            assertTrue(r.completed(), r.fate().describe());
            assertEquals(Errno.ENOSYS, r.lastErrno());
        }
    }

    @Test
    void childrenSpawnedConcurrentlyHoldOnlyTheirOwnRegionAndSocket() throws Exception {
        int threads = 4;
        List<RunningChild> children = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<Thread> starters = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    children.add(MeasuredChild.start(ChildSpec.of(Call.syscall(OrphanProbe.SYS_PAUSE), 0, 1)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            starters.add(t);
        }
        go.countDown();
        for (Thread t : starters) {
            t.join();
        }
        try {
            assertEquals(threads, children.size());
            for (RunningChild c : children) {
                assertTrue(c.awaitPhase(Phase.MEASURE, Duration.ofSeconds(10)), "child stuck in " + c.phase());
                List<Integer> fds = new ArrayList<>();
                for (Path p : fdsOf(c.pid())) {
                    fds.add(Integer.parseInt(p.getFileName().toString()));
                }
                assertTrue(fds.stream().allMatch(n -> n <= 4), "child " + c.pid() + " holds " + fds);
                assertTrue(fds.contains(3) && fds.contains(4), "child " + c.pid() + " holds " + fds);
            }
        } finally {
            for (RunningChild c : children) {
                c.close();
                assertEquals(
                        Signals.SIGKILL,
                        assertInstanceOf(Fate.Killed.class, c.await().fate()).signal());
            }
        }
    }

    @Test
    void runsLeakNoDescriptorsIntoThisProcess() throws IOException {
        MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10));
        int before = fdsOf(ProcessHandle.current().pid()).size();
        for (int i = 0; i < 30; i++) {
            MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10));
        }
        assertEquals(before, fdsOf(ProcessHandle.current().pid()).size());
    }

    @Test
    void specsOutsideTheRunnersLimitsAreBadInput() {
        assertThrows(BadInput.class, () -> ChildSpec.of(Call.GETPPID, 0, 0));
        assertThrows(BadInput.class, () -> ChildSpec.of(Call.GETPPID, 0, 10).withPrograms(new byte[7]));
        assertThrows(
                BadInput.class,
                () -> ChildSpec.of(Call.GETPPID, 0, 10).withNewListener(ChildSpec.ListenerTransfer.SCM_RIGHTS));
        assertThrows(IllegalArgumentException.class, () -> Call.syscall(1, 1, 2, 3, 4, 5, 6, 7));
    }

    @Test
    void callLabelsAndNumbers() {
        assertEquals(110, Call.GETPPID.nr());
        assertEquals(186, Call.GETTID.nr());
        assertEquals(39, Call.GETPID.nr());
        assertEquals(24, Call.SCHED_YIELD.nr());
        assertEquals(157, Call.PRCTL_SET_NAME.nr());
        assertEquals(10, Call.MPROTECT.nr());
        assertEquals(257, Call.openat(file).nr());
        assertEquals("syscall 110(1, 0, 0, 0, 0, 0)", Call.syscall(110, 1).label());
        assertEquals(Call.GETPPID, Call.parse("getppid", null));
        assertArrayEquals(
                new long[] {1, 2, 0, 0, 0, 0},
                Call.syscall(3, 1, 2).args().stream().mapToLong(Long::longValue).toArray());
        assertEquals(Call.syscall(3), Call.parse("3", null));
        assertThrows(BadInput.class, () -> Call.parse("openat", null));
        assertThrows(BadInput.class, () -> Call.parse("nonsense", null));
    }

    @AfterAll
    static void noChildRemains() throws IOException {
        assertEquals(0, MeasuredChild.live(), "children started and never reaped");
        long me = ProcessHandle.current().pid();
        List<String> orphans = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    for (String line : Files.readAllLines(p.resolve("status"))) {
                        if (line.startsWith("PPid:")
                                && Long.parseLong(line.substring(5).trim()) == me) {
                            orphans.add(p.getFileName().toString());
                        }
                    }
                } catch (IOException gone) {
                    // exited while we looked
                }
            }
        }
        assertEquals(List.of(), orphans, "processes whose parent is this JVM");
    }

    static List<Path> fdsOf(long pid) throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return s.toList();
        }
    }

    static void requireSeccomp(String action) {
        Requires.seccomp(action);
    }
}
