package heimdall.lab.follower;

import heimdall.lab.sys.Signals;

/**
 * What the kernel follower reported when it killed the followed process: the first event its graph
 * did not allow.
 *
 * @param kind a denied call, or a handled signal with no entry (or too many open frames)
 * @param tid the thread that made it
 * @param tgid its process
 * @param what the syscall number (for a call) or the signal number (for a signal)
 * @param state the machine state the thread was in
 * @param depth open signal frames
 * @param calls the thread's calls while followed, the rejected one included
 */
public record Divergence(Kind kind, int tid, int tgid, int what, int state, int depth, long calls) {
    /** The kinds of rejected event. */
    public enum Kind {
        CALL,
        SIGNAL
    }

    static Divergence of(int[] ev, int at) {
        Kind k = ev[at] == 2 ? Kind.SIGNAL : Kind.CALL;
        long calls = (ev[at + 6] & 0xFFFF_FFFFL) | ((long) ev[at + 7] << 32);
        return new Divergence(k, ev[at + 1], ev[at + 2], ev[at + 3], ev[at + 4], ev[at + 5], calls);
    }

    @Override
    public String toString() {
        String w = kind == Kind.CALL ? "call " + what : "signal " + Signals.name(what);
        return "thread " + tid + " of " + tgid + ": " + w + " in state " + state + " (depth " + depth + ", call #"
                + calls + ")";
    }
}
