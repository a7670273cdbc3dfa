package heimdall.lab.probe;

import java.util.List;
import java.util.Optional;
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
     * {@code long} bits), {@code ip} the user instruction pointer after the syscall instruction
     * (usually inside libc's wrapper), {@code sp} the user stack pointer, {@code stack} the first
     * words at {@code sp} when the trace asked for them (else empty; for a leaf wrapper such as
     * {@code syscall(2)} the first word is the caller's return address), and {@code ret} the return
     * value when the call returned (empty for exit_group, exit, and a call cut short by the task's end).
     */
    record Syscall(
            long seq, int tid, int pid, int nr, List<Long> args, long ip, long sp, List<Long> stack, OptionalLong ret)
            implements TraceEvent {
        public Syscall {
            args = List.copyOf(args);
            stack = List.copyOf(stack);
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

    /**
     * The executable mappings of a process (traces taken with maps), written at its exit_group and
     * execve entries: what maps an {@code ip} or return address to (object, offset) across ASLR.
     */
    record Maps(long seq, int tid, int pid, List<Mapping> maps) implements TraceEvent {
        public Maps {
            maps = List.copyOf(maps);
        }

        /** The mapping holding {@code address}, if any. */
        public Optional<Mapping> find(long address) {
            return maps.stream().filter(m -> m.contains(address)).findFirst();
        }
    }

    /** One executable mapping: [start, end) of {@code path} at file {@code offset}. */
    record Mapping(long start, long end, String perms, long offset, String path) {
        public boolean contains(long address) {
            return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
        }
    }

    /** The task ended: with {@code code} if it exited, or killed by {@code signal} (the other is -1). */
    record Exit(long seq, int tid, int pid, int code, int signal) implements TraceEvent {
        public boolean killed() {
            return signal >= 0;
        }
    }
}
