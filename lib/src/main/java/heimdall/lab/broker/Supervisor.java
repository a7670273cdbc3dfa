package heimdall.lab.broker;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.util.Locale;

/**
 * A supervisor of seccomp user notifications: a thread pinned to its own CPU that receives the
 * notified calls of one listener and answers each one.
 *
 * <p>The listener is any seccomp listener fd in this process: from the measured child over
 * {@code SCM_RIGHTS}, from {@code pidfd_getfd}, from a test fixture. From a successful start on, the
 * supervisor owns it and closes it when stopped: after that every call still waiting, and every later
 * notified call of that filter, fails with {@code ENOSYS}. If start fails, the listener stays the
 * caller's. A listener from either program of a stacked floor works the same (the kernel allows one
 * listener per filter chain).
 *
 * <p>Two implementations answer the same way through the same native code
 * ({@code native/broker/notif.c}): {@link Kind#NATIVE}, a C pthread with one fixed answer, and
 * {@link Kind#JAVA}, a Java thread that asks a {@link Policy} and calls the native library through
 * JNA with preallocated buffers (no allocation per call).
 */
public interface Supervisor extends AutoCloseable {
    /** Which supervisor. */
    enum Kind {
        NATIVE,
        JAVA;

        /** {@code native} or {@code java}; bad input naming {@code what} otherwise. */
        public static Kind parse(String text, String what) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new BadInput(what + ": '" + text + "' is not a supervisor (native, java)");
            }
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Starts a supervisor of {@code kind} that gives every call the same answer.
     *
     * @throws Refusal when user notification is unsupported, the CPU cannot be granted, the
     *     synchronous wake-up is unsupported, or {@code in/} cannot be opened
     */
    static Supervisor start(Kind kind, int listenerFd, SupervisorOptions options, Answer answer) {
        return start(kind, listenerFd, options, Policy.always(answer));
    }

    /**
     * Starts a supervisor of {@code kind} with {@code policy}: the native supervisor takes a policy with
     * one fixed answer ({@link Policy#always}) or {@link Policy#relativeReadsBrokered()}, and their opt-ins
     * ({@link Policy#allowingDirectories()}, {@link Policy#asSupervisor()}, {@link Policy#allowingHardLinks()});
     * the Java one any policy.
     *
     * @throws IllegalArgumentException when the native supervisor is given a policy that decides each call
     */
    static Supervisor start(Kind kind, int listenerFd, SupervisorOptions options, Policy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("policy is null");
        }
        Answer fixed = policy.fixedAnswer();
        if (kind == Kind.NATIVE) {
            if (fixed == null && policy.brokersRelativeReadsOnly()) {
                return NativeSupervisor.start(
                        listenerFd,
                        options,
                        Answer.BROKER,
                        SupervisorStart.rules(policy) | BrokerNative.RULE_CONTINUE_OTHERS);
            }
            if (fixed == null) {
                throw new IllegalArgumentException(
                        "the native supervisor gives one fixed answer (Policy.always(answer)) or runs "
                                + "Policy.relativeReadsBrokered(), with their opt-ins");
            }
            return NativeSupervisor.start(listenerFd, options, fixed, SupervisorStart.rules(policy));
        }
        return JavaSupervisor.start(listenerFd, options, policy, fixed);
    }

    /** Starts a Java supervisor that answers each call as {@code policy} decides. */
    static Supervisor start(int listenerFd, SupervisorOptions options, Policy policy) {
        return JavaSupervisor.start(listenerFd, options, policy);
    }

    /**
     * Null when seccomp user notification can be supervised here (the native library loads, the
     * kernel knows {@code SECCOMP_RET_USER_NOTIF} and {@code SECCOMP_GET_NOTIF_SIZES}); else why not.
     */
    static String unsupportedReason() {
        String problem = BrokerJni.loadProblem(); // libheimdall.so's problem, or libheimdall-jni.so's
        if (problem != null) {
            return problem;
        }
        int r = BrokerNative.hl_notif_supported();
        return r == 1 ? null : "seccomp user notification is not available: " + Libc.describe(-r);
    }

    /**
     * This process's own copy of descriptor {@code fd} of process {@code pid} ({@code pidfd_getfd}): how a
     * listener created by a program's launcher reaches a supervisor here. A refusal naming the reason
     * when the copy cannot be taken (no ptrace access to {@code pid}, Linux before 5.6).
     */
    static int copyListener(int pid, int fd) {
        BrokerNative.require();
        int copy = BrokerNative.hl_pidfd_getfd(pid, fd);
        if (copy < 0) {
            throw new Refusal("pidfd_getfd of process " + pid + "'s listener: " + Libc.describe(-copy)
                    + " (needs ptrace access to it, Linux 5.6)");
        }
        return copy;
    }

    /**
     * A close-on-exec duplicate of {@code fd}: for handing a supervisor a listener whose original
     * stays with its owner (who closes it). The child's calls fail with {@code ENOSYS} only once every
     * copy is closed.
     */
    static int duplicate(int fd) {
        BrokerNative.require();
        int copy = BrokerNative.hl_dup_cloexec(fd);
        if (copy < 0) {
            throw new Refusal("cannot duplicate descriptor " + fd + ": " + Libc.describe(-copy));
        }
        return copy;
    }

    Kind kind();

    /** The counters so far (a recent figure while running, exact after {@link #stop()}). */
    SupervisorStats stats();

    /**
     * Stops the thread, closes the listener and returns the final counters. Idempotent. Returns
     * within a second in every case: a loop it cannot join by then (stuck in a read of the caller's
     * memory, or a Java policy that blocks) is abandoned, counted in {@link SupervisorStats#stalled()},
     * and ends by itself when that read or policy returns, answering nothing more; the listener is
     * closed meanwhile, every call still waiting failing with {@code ENOSYS} (its descriptor number
     * stays taken by {@code /dev/null} until that thread, or a handed-off one, ends).
     */
    SupervisorStats stop();

    @Override
    default void close() {
        stop();
    }
}
