package heimdall.lab.follower;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./lab graph follow-check [--hook H]}: the kernel follower's decisions on one hook against the
 * Java reference ({@link FollowerCheck}), from the built library: what CI runs in a guest kernel where
 * design (b) loads.
 */
public final class FollowCheckCommand implements Command {
    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of(), Set.of("--hook"));
    private final PrintStream out;

    public FollowCheckCommand() {
        this(System.out);
    }

    FollowCheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "graph follow-check";
    }

    @Override
    public String summary() {
        return "check the kernel follower's decisions on one hook against the Java reference (fixtures abcdf, "
                + "follower-mt)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab graph follow-check [--hook H]

                Runs the kernel follower's decision checks on this kernel with hook H, each against the Java
                reference on a ptrace'd run of the same arguments: abcdf's recorded run is never killed and every
                call is stepped; abcdf --unobserved is killed at the call, state and count where the Java
                follower first denies; follower-mt (recorded here) is never killed on normal runs, is killed at a
                swapped thread's first call with --swap-roles (and let run by union tables), at the worker's
                getpgrp with --unobserved, and its divergent mkdir completes. One line per check.

                  --hook H   syscall-tracepoint (default) or seccomp-fentry (the children then get an
                             allow-everything floor: only filtered tasks reach the hook)

                Needs root, kernel BTF and ptrace. Exit status: 0 every check agreed; 1 a check disagreed
                (FAIL lines), or refused: not root, no BTF, the hook not attachable on this kernel (the hook
                probe's answers printed); 2 bad input.
                """;
    }

    @Override
    public int run(List<String> argv) {
        Args args = Args.parse("graph follow-check", argv, OPTIONS).atMost(0);
        String hookName = args.value("--hook").orElse(Hook.SYSCALL_TRACEPOINT.wire());
        Hook hook = Arrays.stream(Hook.values())
                .filter(h -> h.wire().equals(hookName))
                .findFirst()
                .orElseThrow(() -> new BadInput("option --hook: '" + hookName + "' is not one of "
                        + Arrays.stream(Hook.values()).map(Hook::wire).toList()));
        out.println("follow-check: hook " + hook.section() + " on " + System.getProperty("os.version"));
        List<FollowerCheck.Check> checks = FollowerCheck.run(hook, c -> {
            out.println(c);
            out.flush();
        });
        long failed = checks.stream().filter(c -> !c.ok()).count();
        if (failed > 0) {
            throw new Refusal(
                    "follow-check: " + failed + " of " + checks.size() + " checks disagreed on " + hook.section());
        }
        out.println("follow-check: all " + checks.size() + " checks agree on " + hook.section());
        return 0;
    }
}
