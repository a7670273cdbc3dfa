package heimdall.lab.vm;

import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.io.PrintStream;
import java.util.Optional;

/** What the {@code ./lab vm} commands share: their name, summary and options, and the streams they print to. */
abstract class VmCommand implements Command {
    private final String name;
    private final String summary;
    private final CommandOptions options;
    final PrintStream out;
    final PrintStream err;

    VmCommand(String name, String summary, CommandOptions options, PrintStream out, PrintStream err) {
        this.name = name;
        this.summary = summary;
        this.options = options;
        this.out = out;
        this.err = err;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String summary() {
        return summary;
    }

    @Override
    public final Optional<CommandOptions> options() {
        return Optional.of(options);
    }
}
