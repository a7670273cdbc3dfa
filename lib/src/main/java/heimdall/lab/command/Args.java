package heimdall.lab.command;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import heimdall.lab.WholeNumbers;
import heimdall.lab.sys.Cpus;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A command's arguments: {@code --flag}, {@code --key value} or {@code --key=value}, positionals, and
 * everything after {@code --} kept verbatim (a command line to run). Unknown options are bad input.
 *
 * <p>An option's value is the next word whatever it looks like ({@code --out -h} names a folder
 * {@code -h}), with two exceptions that are always a slip: an empty value ({@code -o ""} would mean
 * the current folder) and a word that is itself an option of the same command, or {@code --}
 * ({@code -o --json} forgot the file name; a folder named {@code --json} is never what was meant).
 * Both are bad input; {@code --out=--json} or {@code --out ./--json} still say it on purpose.
 */
public final class Args {
    private final String command;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> positionals = new ArrayList<>();
    private final List<String> afterDashes = new ArrayList<>();

    private Args(String command) {
        this.command = command;
    }

    /** Parses {@code args} for {@code command} with the options it declares ({@link Command#options()}). */
    public static Args parse(String command, List<String> args, CommandOptions options) {
        return parse(command, args, options.flags(), options.valued());
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
                        if (value.equals("--")
                                || flags.contains(value)
                                || valued.contains(value)
                                || (value.contains("=") && valued.contains(value.substring(0, value.indexOf('='))))) {
                            throw new BadInput("option " + key + " needs a value, and '" + Printable.of(value)
                                    + "' is an option of ./lab " + command + "; to name a file so, write " + key
                                    + "=" + Printable.of(value) + " or " + key + " ./" + Printable.of(value));
                        }
                    }
                    if (value.isEmpty()) {
                        throw new BadInput("option " + key + ": the value is empty (an empty file name would mean "
                                + "the current folder; ./lab " + command + " --help)");
                    }
                    parsed.options.put(key, value);
                } else {
                    throw new BadInput("unknown option " + Printable.of(a) + " (./lab " + command + " --help)");
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

    /**
     * A whole-number option within {@code min..max}, or {@code fallback} when absent. Bad input names the
     * option and the value when it is not a whole number or lies outside the range, so no caller ever
     * narrows an out-of-range value by a cast ({@code --runs 4294967296} is refused, never 0 runs).
     * Digits only, with an optional sign: no grouping, since {@code ,} is a list separator elsewhere
     * ({@code --cpu 0,1} is refused, never CPU 1; {@code --runs 1,2} never 12 runs).
     */
    public long longValue(String name, long fallback, long min, long max) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        String digits = v;
        if (!WholeNumbers.isWhole(digits)) {
            throw new BadInput(
                    "option " + name + ": '" + Printable.of(v) + "' is not a whole number (" + WholeNumbers.FORM + ")");
        }
        // BigInteger first: a value past the range of long is out of range, not "not a number".
        BigInteger n = new BigInteger(digits);
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new BadInput("option " + name + ": " + v + " is out of range (" + WholeNumbers.range(min, max) + ")");
        }
        return n.longValueExact();
    }

    /** {@link #longValue(String, long, long, long)} for an option that a Java {@code int} holds. */
    public int intValue(String name, int fallback, int min, int max) {
        return (int) longValue(name, fallback, min, max);
    }

    /** A count of something ({@code --runs}, {@code --calls}, ...): 1..max, or {@code fallback} when absent. */
    public long count(String name, long fallback, long max) {
        return longValue(name, fallback, 1, max);
    }

    /**
     * A CPU number option, or {@code fallback} when absent: bad input unless it is one of the CPUs this
     * process may run on ({@link Cpus#allowed()}), checked before any narrowing ({@code --cpu 4294967297}
     * is refused, never CPU 1).
     */
    public int cpu(String name, int fallback) {
        long cpu = longValue(name, fallback, Long.MIN_VALUE, Long.MAX_VALUE);
        if (cpu < 0 || cpu > Integer.MAX_VALUE || !Cpus.allowed().contains((int) cpu)) {
            throw new BadInput(
                    "option " + name + ": CPU " + cpu + " is not one this process may use " + Cpus.allowed());
        }
        return (int) cpu;
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
            throw new BadInput("unexpected argument '" + Printable.of(positionals.get(count)) + "' (./lab " + command
                    + " --help)");
        }
        return this;
    }

    public List<String> afterDashes() {
        return afterDashes;
    }
}
