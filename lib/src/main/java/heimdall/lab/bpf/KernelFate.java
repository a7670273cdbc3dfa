package heimdall.lab.bpf;

import static heimdall.lab.Errno.ENOSYS;

import heimdall.lab.profile.Action;

/**
 * What a process sees when a filter returns a value, as {@code Documentation/userspace-api/seccomp_filter.rst}
 * and {@code __seccomp_filter} describe it: the call runs, fails with an errno without running, or the
 * process is killed by (or sent) SIGSYS. This is what a differential test compares the kernel's behaviour with.
 *
 * @param kind what happens
 * @param errno the errno the call fails with, for {@link Kind#ERRNO} (0 means the call "succeeds" with 0
 *     without running)
 */
public record KernelFate(Kind kind, int errno) {
    /** The observable outcomes. */
    public enum Kind {
        /** The call runs (ALLOW, LOG). */
        RUNS,
        /** The call does not run and returns {@code -errno}. */
        ERRNO,
        /** SIGSYS is sent (TRAP): with the default disposition the process dies by SIGSYS. */
        SIGSYS_TRAP,
        /** The thread or process is killed by SIGSYS (KILL_THREAD, KILL_PROCESS). */
        KILLED_BY_SIGSYS,
        /** A supervisor holding the listener decides (NOTIFY with a listener). */
        NOTIFIED,
        /** A ptrace tracer decides (TRACE with a tracer attached). */
        TRACED
    }

    /** The kernel caps ERRNO data at {@code MAX_ERRNO}. */
    public static final int MAX_ERRNO = 4095;

    /**
     * The fate of a call answered {@code ret}.
     *
     * @param tracer whether a ptrace tracer with seccomp tracing is attached
     * @param listener whether the answering filter was installed with a notification listener
     */
    public static KernelFate of(int ret, boolean tracer, boolean listener) {
        int bits = ret & 0xffff0000;
        if (bits == Action.Kind.ALLOW.base || bits == Action.Kind.LOG.base) {
            return new KernelFate(Kind.RUNS, 0);
        }
        if (bits == Action.Kind.ERRNO.base) {
            return new KernelFate(Kind.ERRNO, Math.min(ret & 0xffff, MAX_ERRNO));
        }
        if (bits == Action.Kind.TRAP.base) {
            return new KernelFate(Kind.SIGSYS_TRAP, 0);
        }
        if (bits == Action.Kind.TRACE.base) {
            return tracer ? new KernelFate(Kind.TRACED, 0) : new KernelFate(Kind.ERRNO, ENOSYS);
        }
        if (bits == Action.Kind.NOTIFY.base) {
            return listener ? new KernelFate(Kind.NOTIFIED, 0) : new KernelFate(Kind.ERRNO, ENOSYS);
        }
        // KILL_PROCESS, KILL_THREAD and any unknown action value kill (the kernel treats unknown as KILL_PROCESS)
        return new KernelFate(Kind.KILLED_BY_SIGSYS, 0);
    }

    /** The fate with neither tracer nor listener (a plain child). */
    public static KernelFate of(int ret) {
        return of(ret, false, false);
    }

    /** The fate of a verdict with neither tracer nor listener. */
    public static KernelFate of(Verdict v) {
        return of(v.action());
    }
}
