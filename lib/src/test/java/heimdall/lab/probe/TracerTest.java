package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** heimdall-trace on the real fixtures: needs ptrace (root here), skipped loudly otherwise. */
class TracerTest {
    static final int GETPPID = 110, GETUID = 102, GETGID = 104, GETEUID = 107, GETEGID = 108;
    static final Set<Integer> MARKERS = Set.of(GETPPID, GETUID, GETGID, GETEUID, GETEGID);
    static final int MPROTECT = 10, OPENAT = 257, CLOSE = 3, EXIT_GROUP = 231, PRCTL = 157;
    static final long PROT_READ = 1, O_RDONLY_CLOEXEC = 0x80000, PR_SET_NAME = 15;

    private static List<Integer> markers(Tracer.Run run) {
        return run.syscalls().stream()
                .map(TraceEvent.Syscall::nr)
                .filter(MARKERS::contains)
                .toList();
    }

    private static List<Integer> expectedMarkers(int loops) {
        List<Integer> want = new ArrayList<>(List.of(GETPPID));
        for (int i = 0; i < loops; i++) {
            want.addAll(List.of(GETUID, GETGID, GETEUID));
        }
        want.add(GETEGID);
        return want;
    }

    @Test
    void abcdfMarkersAreRecordedInOrderWithTheirCounts() throws Exception {
        NeedsPtrace.assume();
        for (int loops : new int[] {0, 1, 5}) {
            Tracer.Run run =
                    Tracer.standard().run(List.of(NativeExecutables.abcdf().toString(), String.valueOf(loops)));
            assertEquals(0, run.status(), run.stderr());
            assertEquals(expectedMarkers(loops), markers(run), "loops=" + loops);

            Observations o = Probe.aggregate(
                    List.of(run.events()), List.of(run.status()), List.of("abcdf"), SyscallNames.x86_64());
            assertEquals(
                    List.of((long) loops),
                    o.call("getuid").map(Observations.Call::counts).orElse(List.of(0L)));
            assertEquals(loops > 0, o.call("geteuid").isPresent());
            assertEquals(List.of(1L), o.call("getppid").orElseThrow().counts());
            assertEquals(List.of(1L), o.call("getegid").orElseThrow().counts());
        }
    }

    @Test
    void abcdfTraceHasItsArgumentCallsReturnValuesAndLifecycle() throws Exception {
        NeedsPtrace.assume();
        Tracer.Run run = Tracer.standard().run(List.of(NativeExecutables.abcdf().toString(), "2", "/etc/hostname"));
        assertEquals(0, run.status(), run.stderr());
        List<TraceEvent.Syscall> calls = run.syscalls();
        int root = calls.get(0).tid();
        assertEquals(59, calls.get(0).nr(), "the first recorded call is the command's execve");
        assertTrue(calls.stream().allMatch(c -> c.tid() == root && c.pid() == root), "one thread only");

        // The fixture's own mprotect(PROT_READ) and openat(O_RDONLY|O_CLOEXEC) come right before A.
        int a = indexOf(calls, GETPPID);
        assertEquals(MPROTECT, calls.get(a - 3).nr());
        assertEquals(PROT_READ, calls.get(a - 3).arg(2));
        assertEquals(4096, calls.get(a - 3).arg(1));
        assertEquals(OPENAT, calls.get(a - 2).nr());
        assertEquals(O_RDONLY_CLOEXEC, calls.get(a - 2).arg(2));
        long fd = calls.get(a - 2).ret().orElseThrow();
        assertTrue(fd >= 3, "openat returned a descriptor, not " + fd);
        assertEquals(CLOSE, calls.get(a - 1).nr());
        assertEquals(fd, calls.get(a - 1).arg(0));
        assertEquals(0, calls.get(a - 1).ret().orElseThrow());

        TraceEvent.Syscall last = calls.get(calls.size() - 1);
        assertEquals(EXIT_GROUP, last.nr());
        assertTrue(last.ret().isEmpty(), "exit_group never returns");
        assertTrue(calls.get(a).ret().orElseThrow() > 0, "getppid returns the tracer's pid");

        assertTrue(run.events().get(0) instanceof TraceEvent.Start s && s.kind().equals("root") && s.tid() == root);
        assertTrue(run.events().stream()
                .anyMatch(e -> e instanceof TraceEvent.Exec x && x.exe().endsWith("/fixtures/abcdf")));
        TraceEvent end = run.events().get(run.events().size() - 1);
        assertTrue(end instanceof TraceEvent.Exit x && x.code() == 0 && !x.killed() && x.tid() == root, end.toString());
    }

    private static int indexOf(List<TraceEvent.Syscall> calls, int nr) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).nr() == nr) {
                return i;
            }
        }
        throw new AssertionError("no syscall " + nr);
    }

    @Test
    void exitStatusIsTheCommands() throws Exception {
        NeedsPtrace.assume();
        Tracer.Run bad = Tracer.standard().run(List.of(NativeExecutables.abcdf().toString(), "not-a-number"));
        assertEquals(2, bad.status());
        assertTrue(bad.stderr().contains("LOOPS must be a whole number"), bad.stderr());
        Tracer.Run missing =
                Tracer.standard().run(List.of(NativeExecutables.abcdf().toString(), "1", "/no/such/file"));
        assertEquals(1, missing.status());
    }

    @Test
    void followsForkedChildrenAndTheirExec() throws Exception {
        NeedsPtrace.assume();
        String abcdf = NativeExecutables.abcdf().toString();
        Tracer.Run run = Tracer.standard().run(List.of("/bin/sh", "-c", abcdf + " 2; exit 3"));
        assertEquals(3, run.status());
        int root = ((TraceEvent.Start) run.events().get(0)).tid();
        List<TraceEvent.Start> children = run.events().stream()
                .filter(e -> e instanceof TraceEvent.Start s && s.kind().equals("process"))
                .map(e -> (TraceEvent.Start) e)
                .toList();
        assertFalse(children.isEmpty(), "the shell's child was followed");
        int child = children.get(0).tid();
        assertEquals(root, children.get(0).parent());
        assertEquals(child, children.get(0).pid());
        List<Integer> childMarkers = run.syscalls().stream()
                .filter(c -> c.pid() == child)
                .map(TraceEvent.Syscall::nr)
                .filter(MARKERS::contains)
                .toList();
        assertEquals(expectedMarkers(2), childMarkers);
        assertTrue(run.events().stream()
                .anyMatch(e -> e instanceof TraceEvent.Exit x && x.tid() == child && x.code() == 0));
    }

    @Test
    void followsTheWasmHostsThreadsAndSeesItsMeasuredCalls() throws Exception {
        NeedsPtrace.assume();
        var node = NeedsPtrace.node();
        Tracer.Run run = Tracer.standard()
                .run(List.of(
                        node.toString(),
                        NeedsPtrace.home()
                                .resolve(FixtureProfiles.WASM_HOST_SCRIPT)
                                .toString()));
        assertEquals(0, run.status(), run.stderr());
        Set<Integer> tids = run.syscalls().stream().map(TraceEvent.Syscall::tid).collect(Collectors.toSet());
        assertTrue(tids.size() >= 2, "node runs several threads, saw " + tids);
        Set<Integer> started = new HashSet<>();
        for (TraceEvent e : run.events()) {
            if (e instanceof TraceEvent.Start s) {
                if (!s.kind().equals("root")) {
                    assertEquals("thread", s.kind());
                    assertTrue(started.contains(s.parent()), "a thread's creator started before it: " + s);
                }
                started.add(s.tid());
            }
        }
        assertEquals(tids, started.stream().filter(tids::contains).collect(Collectors.toSet()));

        List<TraceEvent.Syscall> calls = run.syscalls();
        assertTrue(calls.stream().anyMatch(c -> c.nr() == 186), "gettid");
        assertTrue(calls.stream().anyMatch(c -> c.nr() == 24), "sched_yield (the module's WASI yield)");
        assertTrue(calls.stream().anyMatch(c -> c.nr() == PRCTL && c.arg(0) == PR_SET_NAME), "prctl(PR_SET_NAME)");
        assertTrue(calls.stream().anyMatch(c -> c.nr() == MPROTECT && c.arg(2) == PROT_READ), "mprotect(PROT_READ)");
        assertTrue(
                calls.stream().anyMatch(c -> c.nr() == OPENAT && c.arg(2) == O_RDONLY_CLOEXEC),
                "openat(O_RDONLY|O_CLOEXEC)");
    }

    @Test
    void callSitesCanBeFoundFromTheStackAndTheMappings() throws Exception {
        NeedsPtrace.assume();
        Tracer.Run run =
                Tracer.withCallSites(2).run(List.of(NativeExecutables.abcdf().toString(), "2"));
        assertEquals(0, run.status(), run.stderr());
        TraceEvent.Maps maps = run.events().stream()
                .filter(e -> e instanceof TraceEvent.Maps)
                .map(e -> (TraceEvent.Maps) e)
                .reduce((a, b) -> b)
                .orElseThrow();
        List<TraceEvent.Syscall> marks =
                run.syscalls().stream().filter(c -> MARKERS.contains(c.nr())).toList();
        assertEquals(expectedMarkers(2).size(), marks.size());
        Set<Long> sites = new HashSet<>();
        for (TraceEvent.Syscall c : marks) {
            assertTrue(maps.find(c.ip()).orElseThrow().path().contains("libc"), "the syscall instruction is libc's");
            // syscall(2) is a leaf: the word at sp is the return address into abcdf's own text
            long caller = c.stack().get(0);
            assertTrue(maps.find(caller).orElseThrow().path().endsWith("/fixtures/abcdf"), Long.toHexString(caller));
            sites.add(caller);
        }
        assertEquals(5, sites.size(), "one call site per marker: A, B, C, D, F");
    }

    @Test
    void signalsAndDeathBySignalAreRecorded() throws Exception {
        NeedsPtrace.assume();
        Tracer.Run run = Tracer.standard().run(List.of("/bin/sh", "-c", "kill -TERM $$"));
        assertEquals(128 + 15, run.status(), "the tracer exits 128+signal like a shell");
        int root = ((TraceEvent.Start) run.events().get(0)).tid();
        assertTrue(run.events().stream()
                .anyMatch(e -> e instanceof TraceEvent.Signal g && g.tid() == root && g.signal() == 15));
        TraceEvent end = run.events().get(run.events().size() - 1);
        assertTrue(
                end instanceof TraceEvent.Exit x && x.killed() && x.signal() == 15 && x.code() == -1, end.toString());
    }
}
