package heimdall.lab.bench;

import heimdall.lab.bpf.SeccompData;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.PublishedFloorRow;
import java.util.Locale;

/**
 * One row of a floor-cost table: a call timed under a floor, and, for a brokered call, who answers it
 * and how. The same call with no filter is its baseline.
 *
 * @param what the row's label, as the published table names it ({@code "static floor, abcdf"})
 * @param floor the programs the child installs
 * @param call the measured call
 * @param broker for a brokered call, its supervisor; null otherwise
 * @param published the published row's figures, or null where the seed has no such row
 */
public record FloorRow(String what, Floor floor, Call call, Brokering broker, PublishedFloorRow published) {

    /**
     * How a brokered call is answered.
     *
     * @param supervisor native (a C thread) or java
     * @param answer CONTINUE (the bare round trip) or BROKER (open beneath {@code in/}, inject)
     * @param placement where the two run: {@code "own CPU"}, {@code "child's CPU"}, {@code "unpinned"}
     *     or {@code "shared set"} (a name for tables; {@code supervisorCpu} and {@code cpuSet} say it)
     * @param supervisorCpu the CPU the supervisor is pinned to, -1 with a CPU set
     * @param syncWakeUp {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP} on the listener
     * @param cpuSet 0, or the CPUs (bit c = CPU c) on which both the child and the supervisor run, each
     *     free to migrate among them (so a synchronous wake-up can bring them together); the child is
     *     then not pinned to the row's measuring CPU
     */
    public record Brokering(
            Supervisor.Kind supervisor,
            Answer answer,
            String placement,
            int supervisorCpu,
            boolean syncWakeUp,
            long cpuSet) {
        public Brokering {
            if (cpuSet != 0 && supervisorCpu != -1) {
                throw new IllegalArgumentException("a CPU set goes with supervisorCpu -1, not " + supervisorCpu);
            }
        }

        /** Both pinned: the supervisor to {@code supervisorCpu}, the child to the row's CPU. */
        public Brokering(
                Supervisor.Kind supervisor, Answer answer, String placement, int supervisorCpu, boolean syncWakeUp) {
            this(supervisor, answer, placement, supervisorCpu, syncWakeUp, 0);
        }
    }

    /**
     * The call as the filter sees it: its number and the arguments the runner passes (pointers are
     * left 0: no rule looks at them), for the emulator's instruction count and the cache predictor.
     */
    public SeccompData data() {
        return switch (call.kind()) {
            case PRCTL_SET_NAME -> SeccompData.x86_64(call.nr(), 15 /* PR_SET_NAME */, 0);
            case MPROTECT -> SeccompData.x86_64(call.nr(), 0, 4096, 1 /* PROT_READ */);
            case OPENAT -> SeccompData.x86_64(call.nr(), -100 /* AT_FDCWD */, 0, 0x80000 /* O_RDONLY|O_CLOEXEC */, 0);
            case SYSCALL ->
                SeccompData.x86_64(
                        call.nr(),
                        call.args().stream().mapToLong(Long::longValue).toArray());
            default -> SeccompData.x86_64(call.nr());
        };
    }

    /** The call's short name as the published tables print it: {@code getppid}, {@code openat}. */
    public String callName() {
        return switch (call.kind()) {
            case PRCTL_SET_NAME -> "prctl";
            case SYSCALL -> call.label();
            default -> call.kind().name().toLowerCase(Locale.ROOT);
        };
    }

    /**
     * Whether the call goes to a supervisor, or (a {@link #reference()} row) to a ping-pong partner
     * placed where the supervisor would be: either way one round trip a call, counted as brokered.
     */
    public boolean brokered() {
        return broker != null;
    }

    /**
     * Whether this is a reference row: a pipe ping-pong with a partner thread in the supervisor's
     * place (its {@link #broker()} gives only the placement), no seccomp: the host's floor for a
     * two-thread round trip; or that ping-pong followed by an {@code openat}
     * ({@link Call.Kind#PINGPONG_OPENAT}), the floor for a brokered {@code openat}'s added cost; or
     * the kernel's notify loop ({@link #notifyLoop()}).
     */
    public boolean reference() {
        return call.pingsPartner() || notifyLoop();
    }

    /**
     * The label of the kernel's notify-loop rows: a trapped {@code gettid} answered {@code CONTINUE} by
     * {@link NotifyLoop} (receive, answer, nothing else) placed where the supervisor would be, with the
     * synchronous wake-up as its {@link #broker()} says: the floor of a brokered round trip.
     */
    public static final String NOTIFY_LOOP = "round-trip floor: kernel notify loop (RECV, SEND CONTINUE)";

    /**
     * The label of the notify loop's rows in floor-cost's paired round trips: the same loop, measured in rounds
     * that alternate it with the supervisors on one filter (floor-cost's {@code PairedRoundTrips}).
     */
    public static final String PAIRED_LOOP = FloorCostRow.PAIRED + "kernel notify loop";

    /**
     * Whether this row is the kernel's notify loop ({@link #NOTIFY_LOOP} or {@link #PAIRED_LOOP}, a brokered row
     * by that label).
     */
    public boolean notifyLoop() {
        return broker != null && (NOTIFY_LOOP.equals(what) || PAIRED_LOOP.equals(what));
    }

    /**
     * The call this row's {@code added} cost is measured against, with no filter: the row's own call,
     * the {@code openat} alone for a ping-pong then {@code openat}, and none (null) for a bare
     * ping-pong, which is itself the floor.
     */
    public Call baselineCall() {
        return switch (call.kind()) {
            case PINGPONG -> null;
            case PINGPONG_OPENAT -> Call.openat(call.path());
            default -> call;
        };
    }

    /** The row as one line of text: {@code static floor, abcdf · getppid}. */
    public String label() {
        String s = what + " · " + callName();
        if (reference() && broker != null) {
            return s + " (" + broker.placement() + (notifyLoop() && broker.syncWakeUp() ? ", sync wake-up" : "") + ")";
        }
        if (broker != null) {
            s += ", " + broker.answer().label() + " (" + broker.supervisor().label() + ", " + broker.placement()
                    + (broker.syncWakeUp() ? ", sync wake-up" : "") + ")";
        }
        return s;
    }
}
