package heimdall.lab.bpf;

import heimdall.lab.Errno;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.Fate;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.sys.Signals;
import java.util.List;

/**
 * What the kernel did with one call made by a fresh runner under a stack of programs: the call
 * returned a value, failed with an errno, ended the process (exit, exit_group), or the runner was
 * killed by a signal while making it. Returned values are not compared (pids and descriptors differ
 * from child to child); everything else is.
 */
record KernelOutcome(Kind kind, long value) {
    enum Kind {
        RETURNED,
        ERRNO,
        EXITED,
        KILLED
    }

    static KernelOutcome errno(int e) {
        return new KernelOutcome(Kind.ERRNO, e);
    }

    static KernelOutcome killed(int signal) {
        return new KernelOutcome(Kind.KILLED, signal);
    }

    /** Same kind, and for all but RETURNED the same errno, exit code or signal. */
    boolean sameAs(KernelOutcome o) {
        return kind == o.kind && (kind == Kind.RETURNED || value == o.value);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case RETURNED -> "returned " + value;
            case ERRNO -> "errno " + value + " (" + Errno.name((int) value) + ")";
            case EXITED -> "exited with " + value;
            case KILLED -> "killed by " + Signals.name((int) value);
        };
    }

    /**
     * Installs {@code programs} (oldest first) in a fresh runner, makes the call once and reports
     * what happened. A runner that fails before the call (a program refused, say) is an error, not
     * an outcome.
     */
    static KernelOutcome of(List<Program> programs, int nr, long[] args) {
        ChildSpec spec = new ChildSpec(
                -1,
                programs.stream().map(Program::toBytes).toList(),
                Call.syscall(nr, args),
                0,
                1,
                ChildSpec.Mode.PER_CALL,
                false,
                ChildSpec.ListenerTransfer.SCM_RIGHTS,
                0,
                0);
        ChildResult r = MeasuredChild.run(spec);
        Fate f = r.fate();
        if (f instanceof Fate.Killed k && k.phase() == Phase.MEASURE) {
            return killed(k.signal());
        }
        if (f instanceof Fate.Exited e && e.phase() == Phase.MEASURE) {
            return new KernelOutcome(Kind.EXITED, e.code()); // the call ended the process
        }
        // DONE: the call's result is recorded; a program that refuses exit_group may then kill the
        // runner (or make glibc's _exit fall through to its hlt: SIGSEGV), which is not the call's doing.
        if (f instanceof Fate.Killed k && k.phase() == Phase.DONE
                || f instanceof Fate.Exited e && e.code() == 0 && e.phase() == Phase.DONE) {
            return r.lastErrno() != 0 ? errno(r.lastErrno()) : new KernelOutcome(Kind.RETURNED, r.lastReturn());
        }
        throw new IllegalStateException(
                "runner for " + spec.call().label() + " did not make its call: " + f.describe());
    }
}
