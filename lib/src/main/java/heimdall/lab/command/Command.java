package heimdall.lab.command;

import java.util.List;
import java.util.Optional;

/**
 * One subcommand of {@code ./lab}. A new command is registered by adding one instance to
 * {@code heimdall.lab.cli.Main.commands()}: its first word names its group ({@code "bpf stats"} is {@code stats} in
 * the {@code bpf} group; a one-word name such as {@code "reproduce"} is a command of its own), and the
 * command tree, help, completion and exit statuses follow from that.
 */
public interface Command {
    /** The words that select this command, e.g. {@code "bpf stats"}. */
    String name();

    /** One line for the command list. */
    String summary();

    /** The text printed for {@code --help}. */
    String help();

    /**
     * The text printed for {@code --help} given after these words (those after the command's name, the
     * {@code --help} left out): a command whose first word chooses what runs ({@code reproduce NAME})
     * narrows it to that; by default {@link #help()}.
     */
    default String help(List<String> words) {
        return help();
    }

    /**
     * The options this command parses, declared so help and completion know them and {@code --help}
     * is recognised after them; empty when they depend on the arguments (then every option reaches
     * {@link #run} as given and its own parsing judges it). Parse with {@link Args#parse(String, List,
     * CommandOptions)} on the same value so the declaration and the parsing cannot drift.
     */
    default Optional<CommandOptions> options() {
        return Optional.empty();
    }

    /**
     * Words completion offers for the command's positional arguments (e.g. {@code reproduce}'s NAMEs);
     * empty for none.
     */
    default List<String> completionWords() {
        return List.of();
    }

    /**
     * Runs the command.
     *
     * @param args the words after the command's name, exactly as given (including any {@code --})
     * @return the exit status: 0 success; throw {@link heimdall.lab.BadInput} for status 2 and
     *     {@link heimdall.lab.Refusal} for status 1
     */
    int run(List<String> args) throws Exception;
}
