package heimdall.lab.cli;

import java.util.List;

/** One subcommand of {@code ./lab}. */
public interface Command {
    /** The words that select this command, e.g. {@code "bpf stats"}. */
    String name();

    /** One line for the command list. */
    String summary();

    /** The text printed for {@code --help}. */
    String help();

    /**
     * Runs the command.
     *
     * @return the exit status: 0 success; throw {@link heimdall.lab.BadInput} for status 2 and
     *     {@link heimdall.lab.Refusal} for status 1
     */
    int run(List<String> args) throws Exception;
}
