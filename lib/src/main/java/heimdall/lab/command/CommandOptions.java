package heimdall.lab.command;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options of one command as {@link Args} parses them: long flags, long options taking one value,
 * short spellings of long options (e.g. {@code -o} for {@code --out}, mapped by the command), and the
 * valued options that name a file or folder the command writes ({@code --out} always, where it is declared):
 * {@code ./lab vm run} checks those before a guest could write them where the host never sees them.
 */
public record CommandOptions(
        Set<String> flags, Set<String> valued, Map<String, String> shortNames, Set<String> outputs) {
    /** The option that names a command's output wherever it is declared. */
    public static final String OUT = "--out";

    public CommandOptions {
        flags = Set.copyOf(flags);
        valued = Set.copyOf(valued);
        shortNames = Map.copyOf(shortNames);
        Set<String> written = new HashSet<>(outputs);
        if (valued.contains(OUT)) {
            written.add(OUT);
        }
        if (!valued.containsAll(written)) {
            throw new IllegalArgumentException("an output option must take a value: " + written + " of " + valued);
        }
        outputs = Set.copyOf(written);
    }

    /** Options with these short spellings, {@code --out} the only output. */
    public CommandOptions(Set<String> flags, Set<String> valued, Map<String, String> shortNames) {
        this(flags, valued, shortNames, Set.of());
    }

    /** Options without short spellings. */
    public static CommandOptions of(Set<String> flags, Set<String> valued) {
        return new CommandOptions(flags, valued, Map.of());
    }

    /** These options with {@code -o} a second spelling of {@code --out}. */
    public CommandOptions withShortOut() {
        return new CommandOptions(flags, valued, Map.of("-o", OUT), outputs);
    }

    /** These options with {@code names} (valued ones) also naming what the command writes. */
    public CommandOptions writing(String... names) {
        Set<String> all = new HashSet<>(outputs);
        all.addAll(List.of(names));
        return new CommandOptions(flags, valued, shortNames, all);
    }

    /** An output option as given on a command line: its spelling there ({@code -o}, {@code --out}) and value. */
    public record Output(String spelling, String value) {}

    /**
     * The output options in {@code args} (the words after the command's name), read as {@link Args} reads
     * them: up to {@code --}; {@code --key value} or {@code --key=value}; a short spelling for its long
     * option; a valued option takes the next word whatever it is. Anything Args would refuse is left to
     * it (the command reports it).
     */
    public List<Output> outputsIn(List<String> args) {
        List<Output> found = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                break;
            }
            String key = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                key = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            String name = shortNames.getOrDefault(key, key);
            if (!valued.contains(name) || (value == null && flags.contains(name))) {
                continue;
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    break;
                }
                value = args.get(++i);
            }
            if (outputs.contains(name)) {
                found.add(new Output(key, value));
            }
        }
        return found;
    }
}
