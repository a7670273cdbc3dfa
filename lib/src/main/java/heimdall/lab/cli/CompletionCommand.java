package heimdall.lab.cli;

import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import picocli.AutoComplete;
import picocli.CommandLine;

/** {@code ./lab completion}: a bash completion script for every group, command and declared option. */
final class CompletionCommand implements Command {
    private final Supplier<CommandLine> tree;

    /** @param tree the command tree to complete (without this command: it needs no completing) */
    CompletionCommand(Supplier<CommandLine> tree) {
        this.tree = tree;
    }

    @Override
    public String name() {
        return "completion";
    }

    @Override
    public String summary() {
        return "print a bash completion script (source <(./lab completion))";
    }

    @Override
    public String help() {
        return """
                usage: ./lab completion
                Prints a bash completion script for ./lab (and lab on PATH): groups, commands and their
                options. In bash:  source <(./lab completion)   or, for every shell, save it under
                ~/.local/share/bash-completion/completions/lab and add  complete -F _complete_lab ./lab
                to ~/.bashrc.""";
    }

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(CommandOptions.of(Set.of(), Set.of()));
    }

    @Override
    public int run(List<String> args) {
        Args.parse(name(), args, options().orElseThrow()).atMost(0);
        System.out.print(script(tree.get()));
        return ExitStatus.OK;
    }

    /** picocli's script for {@code tree}, bound to {@code lab} and {@code ./lab}. */
    static String script(CommandLine tree) {
        // picocli binds the function to the bare name; bash matches the word as typed, so ./lab too
        return AutoComplete.bash("lab", tree) + "\ncomplete -F _complete_lab -o default ./lab\n";
    }
}
