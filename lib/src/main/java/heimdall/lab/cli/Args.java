package heimdall.lab.cli;

import heimdall.lab.BadInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A command's arguments: {@code --flag}, {@code --key value} or {@code --key=value}, positionals, and
 * everything after {@code --} kept verbatim (a command line to run). Unknown options are bad input.
 */
public final class Args {
    private final String command;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> positionals = new ArrayList<>();
    private final List<String> afterDashes = new ArrayList<>();

    private Args(String command) {
        this.command = command;
    }

    /**
     * Parses {@code args} for {@code command}.
     *
     * @param flags options that take no value (e.g. {@code --json})
     * @param valued options that take one value (e.g. {@code --out})
     */
    public static Args parse(String command, List<String> args, Set<String> flags, Set<String> valued) {
        Args parsed = new Args(command);
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                parsed.afterDashes.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (a.startsWith("--")) {
                String key = a;
                String value = null;
                int eq = a.indexOf('=');
                if (eq > 0) {
                    key = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                if (flags.contains(key) && value == null) {
                    parsed.options.put(key, "true");
                } else if (valued.contains(key)) {
                    if (value == null) {
                        if (i + 1 >= args.size()) {
                            throw new BadInput("option " + key + " needs a value (./lab " + command + " --help)");
                        }
                        value = args.get(++i);
                    }
                    parsed.options.put(key, value);
                } else {
                    throw new BadInput("unknown option " + a + " (./lab " + command + " --help)");
                }
            } else {
                parsed.positionals.add(a);
            }
        }
        return parsed;
    }

    public boolean flag(String name) {
        return options.containsKey(name);
    }

    public Optional<String> value(String name) {
        return Optional.ofNullable(options.get(name));
    }

    /** An integer option, or {@code fallback} when absent; bad input when not a whole number. */
    public long longValue(String name, long fallback) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            throw new BadInput("option " + name + ": '" + v + "' is not a whole number");
        }
    }

    public List<String> positionals() {
        return positionals;
    }

    /** The positional at {@code index}, or bad input naming what was expected. */
    public String positional(int index, String what) {
        if (index >= positionals.size()) {
            throw new BadInput("missing " + what + " (./lab " + command + " --help)");
        }
        return positionals.get(index);
    }

    /** Fails when more positionals were given than the command takes. */
    public Args atMost(int count) {
        if (positionals.size() > count) {
            throw new BadInput("unexpected argument '" + positionals.get(count) + "' (./lab " + command + " --help)");
        }
        return this;
    }

    public List<String> afterDashes() {
        return afterDashes;
    }
}
