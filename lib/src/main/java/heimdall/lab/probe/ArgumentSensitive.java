package heimdall.lab.probe;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one table of argument-sensitive calls: for these, the probe records the distinct values of the
 * arguments that matter and {@code profile gen} allows only those values; every other call observed
 * is allowed whatever its arguments are (a bare allow, which the kernel's action cache can answer).
 *
 * <p>Why these arguments: each one changes what the call does to the process's security, not just
 * which object it touches. {@code prot} decides whether memory becomes writable and executable
 * (W^X); {@code openat}/{@code open} {@code flags} decide write, create, truncate and close-on-exec;
 * {@code prctl}'s {@code option} selects among dozens of unrelated operations (naming a thread and
 * dropping capabilities are the same syscall); {@code mmap}'s {@code prot} and {@code flags} together
 * decide executable, shared and fixed mappings. Pointers, lengths and descriptors are left alone:
 * their values differ from run to run and say nothing about what the call may do.
 *
 * <p>Reading of the values: exact equality ({@code SCMP_CMP_EQ}), one rule per observed value, and
 * for a call with several arguments one rule per observed combination (the comparisons in one rule
 * are ANDed, separate rules ORed). A flag-set reading ({@code SCMP_CMP_MASKED_EQ} with the mask of
 * bits never seen, value 0) was rejected: it admits combinations that never occurred, e.g.
 * {@code PROT_WRITE|PROT_EXEC} from separate {@code PROT_WRITE} and {@code PROT_EXEC} calls, or
 * {@code O_CREAT|O_TRUNC} from separate opens, which is exactly what these rules exist to refuse.
 * Values are compared on all 64 bits as the tracer saw the registers (these arguments are C
 * {@code int}s and callers pass them zero-extended; a caller leaving garbage in the upper half would
 * be killed, never let through).
 */
public final class ArgumentSensitive {
    /** One argument: its index in {@code seccomp_data.args} and its name in the man page. */
    public record Arg(int index, String name) {}

    /** A call whose listed arguments are recorded and ruled on together. */
    public record Call(String syscall, List<Arg> args) {
        public Call {
            args = List.copyOf(args);
        }

        public List<Integer> indices() {
            return args.stream().map(Arg::index).toList();
        }

        public List<String> names() {
            return args.stream().map(Arg::name).toList();
        }
    }

    /** The table. Keep it here and nowhere else; the probe, gen and their tests read it. */
    public static final List<Call> TABLE = List.of(
            new Call("mmap", List.of(new Arg(2, "prot"), new Arg(3, "flags"))),
            new Call("mprotect", List.of(new Arg(2, "prot"))),
            new Call("pkey_mprotect", List.of(new Arg(2, "prot"))),
            new Call("open", List.of(new Arg(1, "flags"))),
            new Call("openat", List.of(new Arg(2, "flags"))),
            new Call("prctl", List.of(new Arg(0, "option"))));

    private static final Map<String, Call> BY_NAME =
            TABLE.stream().collect(Collectors.toUnmodifiableMap(Call::syscall, Function.identity()));

    private ArgumentSensitive() {}

    /** The entry for {@code syscall}, if its arguments matter. */
    public static Optional<Call> of(String syscall) {
        return Optional.ofNullable(BY_NAME.get(syscall));
    }
}
