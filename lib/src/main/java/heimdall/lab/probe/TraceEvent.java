package heimdall.lab.probe;

import java.util.List;
import java.util.OptionalLong;

/**
 * One line of {@code heimdall-trace}'s output. Every event has {@code seq} (the order the tracer saw
 * it; a syscall's seq is its entry), {@code tid} and {@code pid} (the thread group).
 *
 * <p>This is the whole vocabulary the graph recorder needs besides the calls themselves: thread
 * starts with their creator, execs, signal deliveries (signal entries) and exits (terminal sites).
 */
public sealed interface TraceEvent {
    long seq();

    int tid();

    int pid();

    /**
     * A syscall entry. {@code args} are the six argument registers as unsigned 64-bit values (Java
     * {@code long} bits), {@code ip} the user instruction pointer after the syscall instruction, and
     * {@code ret} the return value when the call returned (empty for exit_group, exit, and a call
     * cut short by the task's end).
     */
    record Syscall(long seq, int tid, int pid, int nr, List<Long> args, long ip, OptionalLong ret)
            implements TraceEvent {
        public Syscall {
            args = List.copyOf(args);
        }

        public long arg(int index) {
            return args.get(index);
        }
    }

    /** A task began: {@code kind} is root, thread or process; {@code parent} is its creator (0 for the root). */
    record Start(long seq, int tid, int pid, String kind, int parent) implements TraceEvent {}

    /** An execve succeeded; {@code formerTid} differs from {@code tid} when a non-leader thread exec'd. */
    record Exec(long seq, int tid, int pid, int formerTid, String exe) implements TraceEvent {}

    /** A signal was delivered to {@code tid}. */
    record Signal(long seq, int tid, int pid, int signal) implements TraceEvent {}

    /** The task ended: with {@code code} if it exited, or killed by {@code signal} (the other is -1). */
    record Exit(long seq, int tid, int pid, int code, int signal) implements TraceEvent {
        public boolean killed() {
            return signal >= 0;
        }
    }
}
