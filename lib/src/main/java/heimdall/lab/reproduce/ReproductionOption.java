package heimdall.lab.reproduce;

import heimdall.lab.command.Args;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One option of a reproduction, declared once: {@code ./lab reproduce} parses it ({@link Args}),
 * prints it in {@code --help} with both its {@code --quick} and its full default, and offers it to
 * completion, all from this record, so the three cannot drift apart.
 *
 * @param name the long name, e.g. {@code --runs}
 * @param kind how its value is read
 * @param label the value's placeholder in help ({@code N}, {@code C}, {@code FILE}); empty for a flag
 * @param description what it sets, without its defaults (help adds them); {@code \n} starts a new help line
 * @param quick the default with {@code --quick}: digits for a number, prose for a text; null for a flag
 *     or an option without a default
 * @param full the default without {@code --quick}, as {@code quick}
 * @param min the least value a number may have
 * @param max the largest value a number may have: past it a value is a typo, refused, never narrowed
 */
public record ReproductionOption(
        String name, Kind kind, String label, String description, String quick, String full, long min, long max) {
    /** How an option's value is read. */
    public enum Kind {
        /** No value: present or not. */
        FLAG,
        /** A whole number in {@code min..max}. */
        NUMBER,
        /** A CPU this process may run on. */
        CPU,
        /** Free text the reproduction checks itself (a file, a list). */
        TEXT
    }

    public ReproductionOption {
        if (!name.startsWith("--")) {
            throw new IllegalArgumentException("an option's name starts with --: " + name);
        }
        if (kind == Kind.NUMBER && (!isNumber(quick) || !isNumber(full))) {
            throw new IllegalArgumentException(name + ": a number's defaults are numbers");
        }
    }

    /** An option without a value. */
    public static ReproductionOption flag(String name, String description) {
        return new ReproductionOption(name, Kind.FLAG, "", description, null, null, 0, 0);
    }

    /** A count of something ({@code --runs}, {@code --calls}): 1..{@code max}. */
    public static ReproductionOption count(String name, String description, long quick, long full, long max) {
        return number(name, "N", description, quick, full, 1, max);
    }

    /** A whole number in {@code min..max}. */
    public static ReproductionOption number(
            String name, String label, String description, long quick, long full, long min, long max) {
        return new ReproductionOption(
                name, Kind.NUMBER, label, description, Long.toString(quick), Long.toString(full), min, max);
    }

    /** A CPU number, the same default with or without {@code --quick}. */
    public static ReproductionOption cpu(String name, String description, int fallback) {
        return new ReproductionOption(
                name,
                Kind.CPU,
                "C",
                description,
                Integer.toString(fallback),
                Integer.toString(fallback),
                0,
                Integer.MAX_VALUE);
    }

    /** Free text; the defaults are prose for help (null: none). */
    public static ReproductionOption text(String name, String label, String description, String quick, String full) {
        return new ReproductionOption(name, Kind.TEXT, label, description, quick, full, 0, 0);
    }

    /** Whether it takes a value. */
    public boolean valued() {
        return kind != Kind.FLAG;
    }

    /** Whether it was given (a flag: set). */
    public boolean given(Args args) {
        return args.flag(name);
    }

    /**
     * Its number: the value given, else the default for {@code --quick} or not. Bad input names the
     * option and the value when it is not a whole number, or not in range (a CPU: not one this process
     * may use).
     */
    public long number(Args args) {
        long fallback = Long.parseLong(args.flag("--quick") ? quick : full);
        return switch (kind) {
            case NUMBER -> args.longValue(name, fallback, min, max);
            case CPU -> args.cpu(name, (int) fallback);
            default -> throw new IllegalStateException(name + " is not a number");
        };
    }

    /** {@link #number} for a number an {@code int} holds (its {@code max} says so). */
    public int intNumber(Args args) {
        if (max > Integer.MAX_VALUE) {
            throw new IllegalStateException(name + " may exceed an int");
        }
        return (int) number(args);
    }

    /** Its text as given; empty when absent. */
    public Optional<String> text(Args args) {
        return args.value(name);
    }

    /** Its lines in {@code --help}: the name and label, the description, then both defaults. */
    String help() {
        String head = label.isEmpty() ? name : name + " " + label;
        String[] lines = description.split("\n", -1);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "  %-22s %s", head, lines[0]));
        for (int i = 1; i < lines.length; i++) {
            s.append('\n').append(" ".repeat(25)).append(lines[i]);
        }
        // the defaults on the description's last line when they fit in 100 columns, else on their own
        defaults()
                .ifPresent(
                        d -> s.append(s.length() - s.lastIndexOf("\n") + d.length() < 100 ? " " : "\n" + " ".repeat(25))
                                .append(d));
        return s.append('\n').toString();
    }

    /** "quick: 3, full: 7", or "default: 3" when they agree; empty without a default. */
    Optional<String> defaults() {
        if (quick == null && full == null) {
            return Optional.empty();
        }
        if (Objects.equals(quick, full)) {
            return Optional.of("(default: " + shown(full) + ")");
        }
        return Optional.of("(quick: " + shown(quick) + "; full: " + shown(full) + ")");
    }

    private String shown(String value) {
        if (value == null) {
            return "none";
        }
        return kind == Kind.NUMBER ? String.format(Locale.ROOT, "%,d", Long.parseLong(value)) : value;
    }

    private static boolean isNumber(String s) {
        return s != null && s.matches("-?[0-9]+");
    }
}
