package heimdall.lab.child;

import heimdall.lab.BadInput;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.sys.Cpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One run of a measured child: where it runs, what it installs, what it calls and how often.
 *
 * @param cpu the CPU the child pins itself to; -1 keeps the inherited affinity
 * @param programs classic BPF programs installed in this order, each raw {@code struct sock_filter}
 *     bytes (8 bytes an instruction, little endian; libseccomp's {@code seccomp_export_bpf} format).
 *     Each program after the first is installed under those before it, so they must allow
 *     {@code seccomp} (317); otherwise the child dies installing it (phase {@link Phase#INSTALL}).
 *     With a call that attaches ({@link Call.Kind#attaches()}) the last program is not installed
 *     first: it is the one each call attaches
 * @param call what is measured
 * @param warmup calls made before measuring, not recorded
 * @param count measured calls (at least 1)
 * @param mode one sample per call, one total (on the monotonic clock, or the process's CPU time),
 *     or the timer alone
 * @param newListener install the last program with {@code SECCOMP_FILTER_FLAG_NEW_LISTENER} and hand
 *     the listener to the parent ({@link RunningChild#listenerFd()})
 * @param transfer how the listener reaches the parent
 * @param listenerProgram which program is installed with the listener flag (0 = the first)
 * @param placement which of the runner's {@value #PLACEMENTS} copies of a plain call's timed loop runs
 *     (0 to 3): copy {@code k} starts {@code 16 k} bytes into a 64-byte code line. Where a timed loop
 *     falls in its code lines changes a system call's measured cost (on the project's AMD VM one
 *     position adds about 30 ns under a filter), so a row's runs rotate through the placements
 *     ({@link #placementForRun}) rather than measure one accident of the link. 0 for calls that
 *     attach or fork, and for the timer, which have one copy
 * @param cpuSet with {@code cpu} -1: the CPUs the child may run on (bit c = CPU c, c &lt; 64), free to
 *     migrate among them; 0 keeps the inherited affinity
 * @param landlock a Landlock ruleset the child builds and enforces on itself after {@code no_new_privs},
 *     before its first program (so a floor need not allow Landlock's calls); null for none. The child
 *     refuses it (phase {@link Phase#LANDLOCK}, exit 73) where its kernel's ABI lacks a handled right and
 *     best effort was not asked for (see {@link heimdall.lab.landlock.LandlockPlan})
 */
public record ChildSpec(
        int cpu,
        List<byte[]> programs,
        Call call,
        long warmup,
        long count,
        Mode mode,
        boolean newListener,
        ListenerTransfer transfer,
        int listenerProgram,
        int placement,
        long cpuSet,
        Landlock landlock) {

    /** How the calls are timed; {@code code} is {@code enum hl_mode}. */
    public enum Mode {
        /** Each call timed alone: {@code count} samples. */
        PER_CALL(0),
        /** One timer pair around all {@code count} calls: {@link ChildResult#batchTotalNs()}, no samples. */
        BATCH(1, 0),
        /**
         * As {@link #BATCH}, read with {@code CLOCK_PROCESS_CPUTIME_ID}, the clock of the kernel's
         * {@code seccomp_benchmark}: the child's CPU time, not wall time (two system calls around the
         * loop; a forked child's time is not in it).
         */
        BATCH_CPUTIME(1, 1),
        /** Two back-to-back clock reads per sample, no call: the timer's own cost. */
        TIMER(2, 0);

        final int code;
        final int clock;

        Mode(int code) {
            this(code, 0);
        }

        Mode(int code, int clock) {
            this.code = code;
            this.clock = clock;
        }

        /** Whether the child keeps one total and no samples. */
        public boolean batch() {
            return code == 1;
        }
    }

    /**
     * How the listener leaves the child. {@link #SCM_RIGHTS} (the default) needs the child's floor to
     * allow {@code sendmsg} and {@code close} after installing; {@link #PIDFD_GETFD} needs only
     * {@code close}: the parent copies the descriptor out with {@code pidfd_getfd} while the child
     * waits without a system call.
     */
    public enum ListenerTransfer {
        SCM_RIGHTS,
        PIDFD_GETFD
    }

    /** The runner's limits (heimdall_shm.h). */
    public static final int MAX_PROGRAMS = 16;

    public static final int MAX_INSNS = 4096;
    public static final long MAX_COUNT = 1L << 28;
    /** The most warm-up calls a spec may ask for (16 times {@link #MAX_COUNT}). */
    public static final long MAX_WARMUP = MAX_COUNT * 16;
    /** The runner's copies of each plain call's loops (HL_PLACEMENTS). */
    public static final int PLACEMENTS = 4;

    static final int HEADER_SIZE = 4352;
    static final int PATH_MAX = 4096;

    /** The shared region's header (struct hl_shm_header): its identity, flags and fields' offsets. */
    static final int SHM_MAGIC = 0x4d534c48;

    static final int SHM_VERSION = 4;
    static final int F_NEW_LISTENER = 1;
    static final int F_LISTENER_PIDFD = 2;
    static final int H_MAGIC = 0;
    static final int H_VERSION = 4;
    static final int H_CPU = 16;
    static final int H_CALL = 20;
    static final int H_MODE = 24;
    static final int H_FLAGS = 28;
    static final int H_NR = 32;
    static final int H_ARGS = 40;
    static final int H_WARMUP = 88;
    static final int H_COUNT = 96;
    static final int H_NPROGS = 108;
    static final int H_PROG_LEN = 112;
    static final int H_LISTENER_PROG = 200;
    static final int H_BATCH_CLOCK = 204;
    static final int H_PLACEMENT = 208;
    static final int H_PATH_DIR_LEN = 212;
    static final int H_CPU_SET = 216;
    static final int H_LANDLOCK_LEN = 224;
    static final int H_PATH = 256;

    /** No Landlock ruleset. */
    public ChildSpec(
            int cpu,
            List<byte[]> programs,
            Call call,
            long warmup,
            long count,
            Mode mode,
            boolean newListener,
            ListenerTransfer transfer,
            int listenerProgram,
            int placement,
            long cpuSet) {
        this(cpu, programs, call, warmup, count, mode, newListener, transfer, listenerProgram, placement, cpuSet, null);
    }

    /** Without a CPU set: {@code cpu} alone says where the child runs. */
    public ChildSpec(
            int cpu,
            List<byte[]> programs,
            Call call,
            long warmup,
            long count,
            Mode mode,
            boolean newListener,
            ListenerTransfer transfer,
            int listenerProgram,
            int placement) {
        this(cpu, programs, call, warmup, count, mode, newListener, transfer, listenerProgram, placement, 0, null);
    }

    public ChildSpec {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(transfer, "transfer");
        programs = List.copyOf(programs);
        if (cpu < -1 || cpu >= 1024) {
            throw bad("cpu", "must be a CPU number below 1024 or -1, got " + cpu);
        }
        if (cpuSet != 0 && cpu != -1) {
            throw bad("cpuSet", "a CPU set goes with cpu -1, not with CPU " + cpu);
        }
        if (programs.size() > MAX_PROGRAMS) {
            throw bad("programs", "at most " + MAX_PROGRAMS + " programs, got " + programs.size());
        }
        for (int i = 0; i < programs.size(); i++) {
            int len = programs.get(i).length;
            if (len == 0 || len % 8 != 0 || len / 8 > MAX_INSNS) {
                throw bad("programs[" + i + "]", len + " bytes is not 1.." + MAX_INSNS + " instructions of 8 bytes");
            }
        }
        if (warmup < 0 || warmup > MAX_WARMUP) {
            throw bad("warmup", "must be 0.." + MAX_WARMUP + ", got " + warmup);
        }
        if (count < 1 || count > MAX_COUNT) {
            throw bad("count", "must be 1.." + MAX_COUNT + ", got " + count);
        }
        if ((mode == Mode.TIMER) != (call.kind() == Call.Kind.NONE)) {
            throw bad("mode", "TIMER goes with Call.NONE, and only with it");
        }
        if (call.kind().attaches() && (programs.isEmpty() || newListener)) {
            throw bad("programs", call.kind() + " attaches the last program, so needs at least one, and no listener");
        }
        if (newListener && programs.isEmpty()) {
            throw bad("newListener", "needs at least one program to install with it");
        }
        if (newListener && (listenerProgram < 0 || listenerProgram >= programs.size())) {
            throw bad(
                    "listenerProgram", "must name one of the " + programs.size() + " programs, got " + listenerProgram);
        }
        if (placement < 0 || placement >= PLACEMENTS) {
            throw bad("placement", "must be 0.." + (PLACEMENTS - 1) + ", got " + placement);
        }
        if (placement != 0 && !placeable(call)) {
            throw bad("placement", call.kind() + " has one copy of its loop: placement must be 0, got " + placement);
        }
        if (call.path() != null && call.path().toString().getBytes(StandardCharsets.UTF_8).length >= PATH_MAX) {
            throw bad("call.path", "longer than " + (PATH_MAX - 1) + " bytes");
        }
    }

    /** {@code count} calls, each timed, after {@code warmup}, on the {@link Cpus#measuring()} CPU, no programs. */
    public static ChildSpec of(Call call, long warmup, long count) {
        return new ChildSpec(
                Cpus.measuring(),
                List.of(),
                call,
                warmup,
                count,
                Mode.PER_CALL,
                false,
                ListenerTransfer.SCM_RIGHTS,
                0,
                0);
    }

    /**
     * {@code count} timed calls of {@link Call#ATTACH} or {@link Call#FORK_ATTACH}, each attaching
     * {@code program} (raw {@code struct sock_filter} bytes), after {@code warmup}, on the
     * {@link Cpus#measuring()} CPU. Add a floor under it with {@link #withPrograms}, the attached
     * program last.
     */
    public static ChildSpec attaching(Call call, byte[] program, long warmup, long count) {
        return new ChildSpec(
                Cpus.measuring(),
                List.of(program),
                call,
                warmup,
                count,
                Mode.PER_CALL,
                false,
                ListenerTransfer.SCM_RIGHTS,
                0,
                0);
    }

    /** The timer alone: {@code count} pairs of back-to-back reads on {@code cpu}. */
    public static ChildSpec timer(int cpu, long warmup, long count) {
        return new ChildSpec(
                cpu, List.of(), Call.NONE, warmup, count, Mode.TIMER, false, ListenerTransfer.SCM_RIGHTS, 0, 0);
    }

    /** Pinned to {@code cpu} (-1: the inherited affinity); any CPU set is dropped. */
    public ChildSpec withCpu(int cpu) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                0,
                landlock);
    }

    /** Free to run on the CPUs of {@code cpuSet} (bit c = CPU c), not pinned to one. */
    public ChildSpec withCpuSet(long cpuSet) {
        return new ChildSpec(
                -1,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    public ChildSpec withPrograms(List<byte[]> programs) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    public ChildSpec withPrograms(byte[]... programs) {
        return withPrograms(List.of(programs));
    }

    public ChildSpec withCall(Call call) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    public ChildSpec withCounts(long warmup, long count) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    public ChildSpec withMode(Mode mode) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    /** The last program is installed with {@code SECCOMP_FILTER_FLAG_NEW_LISTENER}, handed over by {@code transfer}. */
    public ChildSpec withNewListener(ListenerTransfer transfer) {
        return withNewListener(transfer, programs.size() - 1);
    }

    /**
     * Program {@code index} (0 = installed first) is installed with
     * {@code SECCOMP_FILTER_FLAG_NEW_LISTENER}; the handover still happens after the last program is
     * installed, so every later program must allow what the handover needs (see {@link ListenerTransfer}).
     * A broker filter installed first, under a static floor, hands out its listener this way.
     */
    public ChildSpec withNewListener(ListenerTransfer transfer, int index) {
        return new ChildSpec(
                cpu, programs, call, warmup, count, mode, true, transfer, index, placement, cpuSet, landlock);
    }

    /** The same run with {@code landlock} (null: none) built and enforced by the child before its programs. */
    public ChildSpec withLandlock(Landlock landlock) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    /** The same run with the timed loop at {@code placement} (see the record's description). */
    public ChildSpec withPlacement(int placement) {
        return new ChildSpec(
                cpu,
                programs,
                call,
                warmup,
                count,
                mode,
                newListener,
                transfer,
                listenerProgram,
                placement,
                cpuSet,
                landlock);
    }

    /**
     * The placement for a row's {@code run}-th run (0-based): the runs of a plain call rotate through
     * all placements; other calls always get 0.
     */
    public ChildSpec withPlacementForRun(int run) {
        return withPlacement(placementForRun(call, run));
    }

    /** {@code run mod} {@value #PLACEMENTS} for a call whose loop has copies, else 0. */
    public static int placementForRun(Call call, int run) {
        return placeable(call) ? Math.floorMod(run, PLACEMENTS) : 0;
    }

    /**
     * Whether the runner has {@value #PLACEMENTS} copies of the call's loop (every call that neither attaches nor
     * forks).
     */
    public static boolean placeable(Call call) {
        int code = call.kind().code();
        return code >= 1 && code <= 8 || call.kind() == Call.Kind.GETPID_SELFTEST || call.kind() == Call.Kind.FSTATAT;
    }

    /** The header and programs of the shared region, as {@code hl_run_spawn} takes them. */
    byte[] encode() {
        int insnBytes = programs.stream().mapToInt(p -> p.length).sum();
        byte[] ruleset = landlock == null ? new byte[0] : landlock.encode();
        ByteBuffer b =
                ByteBuffer.allocate(HEADER_SIZE + insnBytes + ruleset.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(H_MAGIC, SHM_MAGIC);
        b.putInt(H_VERSION, SHM_VERSION);
        b.putInt(H_CPU, cpu);
        b.putInt(H_CALL, call.kind().code());
        b.putInt(H_MODE, mode.code);
        int flags = (newListener ? F_NEW_LISTENER : 0)
                | (newListener && transfer == ListenerTransfer.PIDFD_GETFD ? F_LISTENER_PIDFD : 0);
        b.putInt(H_FLAGS, flags);
        b.putLong(H_NR, call.nr());
        for (int i = 0; i < call.args().size(); i++) {
            b.putLong(H_ARGS + 8 * i, call.args().get(i));
        }
        b.putLong(H_WARMUP, warmup);
        b.putLong(H_COUNT, count);
        b.putInt(H_LISTENER_PROG, newListener ? listenerProgram : 0);
        b.putInt(H_BATCH_CLOCK, mode.clock);
        b.putInt(H_PLACEMENT, placement);
        b.putLong(H_CPU_SET, cpuSet);
        b.putInt(H_NPROGS, programs.size());
        for (int i = 0; i < programs.size(); i++) {
            b.putInt(H_PROG_LEN + 4 * i, programs.get(i).length / 8);
        }
        if (call.path() != null) {
            b.put(H_PATH, call.path().toString().getBytes(StandardCharsets.UTF_8));
            if (call.dir() != null) {
                b.putInt(H_PATH_DIR_LEN, call.dir().toString().getBytes(StandardCharsets.UTF_8).length);
            }
        }
        b.putInt(H_LANDLOCK_LEN, ruleset.length);
        int at = HEADER_SIZE;
        for (byte[] p : programs) {
            b.put(at, p);
            at += p.length;
        }
        b.put(at, ruleset);
        return b.array();
    }

    private static BadInput bad(String field, String reason) {
        return BadInput.at("child spec", field, reason);
    }
}
