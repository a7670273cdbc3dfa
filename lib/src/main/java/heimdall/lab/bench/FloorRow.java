package heimdall.lab.bench;

import heimdall.lab.bpf.SeccompData;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import java.util.Map;

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
public record FloorRow(String what, Floor floor, Call call, Brokering broker,
        Map<String, Object> published) {

    /**
     * How a brokered call is answered.
     *
     * @param supervisor native (a C thread) or java
     * @param answer CONTINUE (the bare round trip) or BROKER (open beneath {@code in/}, inject)
     * @param placement {@code "own CPU"} or {@code "child's CPU"}
     * @param supervisorCpu the CPU the supervisor is pinned to
     * @param syncWakeUp {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP} on the listener
     */
    public record Brokering(Supervisor.Kind supervisor, Answer answer, String placement, int supervisorCpu,
            boolean syncWakeUp) {}

    /**
     * The call as the filter sees it: its number and the arguments the runner passes (pointers are
     * left 0: no rule looks at them), for the emulator's instruction count and the cache predictor.
     */
    public SeccompData data() {
        return switch (call.kind()) {
            case PRCTL_SET_NAME -> SeccompData.x86_64(call.nr(), 15 /* PR_SET_NAME */, 0);
            case MPROTECT -> SeccompData.x86_64(call.nr(), 0, 4096, 1 /* PROT_READ */);
            case OPENAT -> SeccompData.x86_64(call.nr(), -100 /* AT_FDCWD */, 0, 0x80000 /* O_RDONLY|O_CLOEXEC */, 0);
            case SYSCALL -> SeccompData.x86_64(call.nr(), call.args().stream().mapToLong(Long::longValue).toArray());
            default -> SeccompData.x86_64(call.nr());
        };
    }

    /** The call's short name as the published tables print it: {@code getppid}, {@code openat}. */
    public String callName() {
        return switch (call.kind()) {
            case PRCTL_SET_NAME -> "prctl";
            case SYSCALL -> call.label();
            default -> call.kind().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** Whether the call goes to a supervisor. */
    public boolean brokered() {
        return broker != null;
    }

    /** The row as one line of text: {@code static floor, abcdf · getppid}. */
    public String label() {
        String s = what + " · " + callName();
        if (broker != null) {
            s += ", " + broker.answer().label() + " (" + broker.supervisor().label() + ", " + broker.placement()
                    + (broker.syncWakeUp() ? ", sync wake-up" : "") + ")";
        }
        return s;
    }
}
