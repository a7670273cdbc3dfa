package heimdall.lab.command;

import java.util.List;
import java.util.Optional;

/**
 * Which command a {@code ./lab} command line selects, as {@code ./lab}'s own command tree chooses it: for a
 * command that runs another {@code ./lab} command line (in a guest, say) and must know that command's options
 * before it starts.
 */
@FunctionalInterface
public interface CommandLookup {
    /**
     * The command {@code argv} (the words after {@code ./lab}) selects; empty when it selects none (a bad word,
     * {@code --version}, {@code help}), which that command line then reports itself.
     */
    Optional<Selected> select(List<String> argv);

    /**
     * A selected command and the words after its name.
     *
     * @param command the command
     * @param args the words after its name, as given
     */
    record Selected(Command command, List<String> args) {
        public Selected {
            args = List.copyOf(args);
        }
    }
}
