package heimdall.lab.follower;

import heimdall.lab.BadInput;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.sys.Signals;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab graph follow NODES EDGES -- CMD...}: runs a command under the kernel follower. */
public final class FollowCommand implements Command {
    private final PrintStream out;

    public FollowCommand() {
        this(System.out);
    }

    FollowCommand(PrintStream out) {
        this.out = out;
    }

    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of("--floor"), Set.of("--hook", "--timeout"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "graph follow";
    }

    @Override
    public String summary() {
        return "run a command with its prepared graph enforced in the kernel (eBPF): a deviation kills it";
    }

    @Override
    public String help() {
        return """
                usage: ./lab graph follow NODES EDGES [--hook H] [--floor] [--timeout S] -- CMD [ARGS...]

                Imports the pinned graph pair, compiles and minimizes it, and lays it out as dfa-offsets cells
                in read-only BPF array maps; an eBPF program then steps each thread of CMD's process on each of
                its calls, from the first call after its exec: the main thread at entry main, a thread it creates
                at the role of its creating clone/clone3 call site when the graph names one (a role thread:X
                for a clone site whose function is X), else at the union of the thread entries (threads made
                inside libc, e.g. by pthread_create); a handled signal pushes a frame at its signal entry and
                rt_sigreturn pops it; a terminal call resets the thread to its entry. The first call (or
                handled signal) the graph does not allow kills the process with SIGKILL; that call itself
                completes, the kill lands as it returns. Processes CMD forks are not followed.

                  --hook H       syscall-tracepoint (tp_btf/sys_enter; every process on the host pays while
                                 attached) or seccomp-fentry (fentry/__secure_computing; only processes with a
                                 seccomp filter reach it). Default syscall-tracepoint.
                  --floor        install an allow-everything seccomp filter in CMD before its exec (what
                                 seccomp-fentry needs to be reached)
                  --timeout S    kill CMD after S seconds (default 60)

                Needs root and kernel BTF (/sys/kernel/btf/vmlinux). Nothing stays loaded after the command:
                programs and maps are held by this process's descriptors only.

                Exit status: 0 CMD ran to its end without a deviation (its own status is printed); 1 refused:
                the follower killed CMD (thread, state and call printed), or not root, no BTF, the hook not
                attachable, the verifier rejected the program (its log printed), the graph is larger than the
                map limit; 2 bad input (pins, files, a graph with no main entry, no command).
                """;
    }

    @Override
    public int run(List<String> argv) {
        Args args = Args.parse("graph follow", argv, OPTIONS).atMost(2);
        Path nodes = Path.of(args.positional(0, "NODES"));
        Path edges = Path.of(args.positional(1, "EDGES"));
        List<String> command = args.afterDashes();
        if (command.isEmpty()) {
            throw new BadInput("graph follow: no command after -- (./lab graph follow --help)");
        }
        String hookName = args.value("--hook").orElse(Hook.SYSCALL_TRACEPOINT.wire());
        Hook hook = Arrays.stream(Hook.values())
                .filter(h -> h.wire().equals(hookName))
                .findFirst()
                .orElseThrow(() -> new BadInput("option --hook: '" + hookName + "' is not one of "
                        + Arrays.stream(Hook.values()).map(Hook::wire).toList()));
        long timeout = args.longValue("--timeout", 60, 1, 86_400);
        Graph g = GraphFiles.readPinned(nodes, edges).graph();
        KernelTables t = KernelTables.of(g);
        out.printf(
                Locale.ROOT,
                "following %s: %d states x %d columns (%,d bytes of cells), hook %s%n",
                String.join(" ", command),
                t.states(),
                t.columns(),
                t.payloadBytes(),
                hook.section());
        FollowedRun.Outcome o = FollowedRun.run(t, hook, args.flag("--floor"), command, Duration.ofSeconds(timeout));
        out.printf(
                Locale.ROOT,
                "followed %,d calls, %d signal frame(s)%n",
                o.stats().calls(),
                o.stats().signals());
        if (o.killed()) {
            for (Divergence d : o.divergences()) {
                out.println("killed: " + d);
            }
            out.printf(
                    Locale.ROOT,
                    "calls begun after the kill: %d; the child ended by %s%n",
                    o.stats().callsAfterKill(),
                    o.signal() != 0 ? Signals.name(o.signal()) : "exit " + o.exitCode());
            return 1;
        }
        out.println(
                o.signal() != 0
                        ? "the command ended by " + Signals.name(o.signal())
                        : "the command exited " + o.exitCode());
        return 0;
    }
}
