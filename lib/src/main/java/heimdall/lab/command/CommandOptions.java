package heimdall.lab.command;

import java.util.Map;
import java.util.Set;

/**
 * The options of one command as {@link Args} parses them: long flags, long options taking one value,
 * and short spellings of long options (e.g. {@code -o} for {@code --out}, mapped by the command).
 */
public record CommandOptions(Set<String> flags, Set<String> valued, Map<String, String> shortNames) {
    public CommandOptions {
        flags = Set.copyOf(flags);
        valued = Set.copyOf(valued);
        shortNames = Map.copyOf(shortNames);
    }

    /** Options without short spellings. */
    public static CommandOptions of(Set<String> flags, Set<String> valued) {
        return new CommandOptions(flags, valued, Map.of());
    }

    /** These options with {@code -o} a second spelling of {@code --out}. */
    public CommandOptions withShortOut() {
        return new CommandOptions(flags, valued, Map.of("-o", "--out"));
    }
}
