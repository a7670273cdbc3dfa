package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import java.util.Locale;

/**
 * What a workload runs under, in the order the rows show them (the order of value; the mechanisms added
 * later come last, so that earlier folders' rows keep their places). The broker rows run the broker floor
 * ({@code floor.Floors.brokerFloor()}: every open by name notified, the supervisor free to run on any CPU, as a
 * job's would).
 */
enum Mechanism {
    /** No filter: the baseline every other row is B/A against. */
    NONE("none", null, null),
    /** The program's own profile, generated here from its recorded runs ({@code profile probe} + {@code gen}). */
    OWN_PROFILE("own-profile", null, null),
    /** A profile the user named ({@code --profile FILE}): what does my tuned profile cost this program? */
    PROFILE("profile", null, null),
    /** Podman's default profile (Debian's golang-github-containers-common). */
    PODMAN("podman", null, null),
    /** Docker's default profile, where a file of it is installed. */
    DOCKER("docker", null, null),
    /** The broker floor, the native supervisor answering CONTINUE (the bare round trip per open). */
    BROKER_CONTINUE_NATIVE("broker-continue", Supervisor.Kind.NATIVE, Answer.CONTINUE),
    /** The same with the Java supervisor. */
    BROKER_CONTINUE_JAVA("broker-continue", Supervisor.Kind.JAVA, Answer.CONTINUE),
    /**
     * The broker floor, the Java supervisor opening the program's inputs itself (read-only opens of names
     * relative to the working folder, beneath {@code in/}) and CONTINUE for every other open
     * ({@code Policy.relativeReadsBrokered()}).
     */
    BROKER_BROKER_JAVA("broker-broker", Supervisor.Kind.JAVA, Answer.BROKER),
    /** The same policy run by the native supervisor, in C ({@code HL_RULE_CONTINUE_OTHERS}). */
    BROKER_BROKER_NATIVE("broker-broker", Supervisor.Kind.NATIVE, Answer.BROKER),
    /**
     * The kernel follower, design (a) ({@code tp_btf/sys_enter}) on the host, enforcing the program's graph
     * recorded here ({@code graph record}'s projection of one traced run); refused for a program that makes
     * processes, whose calls one followed process does not cover ({@link Enforcers#follower}).
     */
    FOLLOWER("follower", null, null),
    /**
     * Landlock, the ruleset built and enforced by the child on itself before its exec: read and execute beneath
     * {@code /}, write only beneath the run's own folders ({@link Enforcers#landlock}).
     */
    LANDLOCK("landlock", null, null);

    /** Where a supervisor ran: unpinned, as a job's broker would. */
    static final String PLACEMENT = "unpinned";

    final String label;
    final Supervisor.Kind supervisor;
    final Answer answer;

    Mechanism(String label, Supervisor.Kind supervisor, Answer answer) {
        this.label = label;
        this.supervisor = supervisor;
        this.answer = answer;
    }

    boolean brokered() {
        return supervisor != null;
    }

    /** The row's name for it: {@code broker-continue native}, {@code podman}. */
    String rowName() {
        return brokered() ? label + " " + supervisor.label() : label;
    }

    String answerLabel() {
        return answer == null ? null : answer.kind().name().toUpperCase(Locale.ROOT);
    }
}
