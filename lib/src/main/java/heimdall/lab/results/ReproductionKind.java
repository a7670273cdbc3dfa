package heimdall.lab.results;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * One reproduction, described once: its name (as {@code ./lab reproduce NAME} and {@code summary.json}
 * spell it), the record type of its rows, the published table it is set beside, and how {@code compare}
 * lines its rows up. Every kind is one class in a package of its own, {@code heimdall.lab.reproduce.<kind>},
 * registered with one line of {@code META-INF/services/heimdall.lab.results.ReproductionKind}; that class
 * also declares the kind's options and run (for {@code ./lab reproduce}), its table, plots and headline
 * findings, so the CLI, completion, {@code Results.load}, {@code compare}, the plots and the first screen
 * all read the same value.
 *
 * <p>The kinds are found with {@link ServiceLoader}: this package is below the ones that run and draw a
 * reproduction, so it may not name their classes, yet reading a folder needs its kind. They are loaded
 * once, on first use, in the services file's order (help's order).
 *
 * <p>A kind also owns its {@code table.md}: {@link #table} makes it from what a run {@link Recorded} in
 * memory (rows, settings, host), and the framework writes it beside the {@code summary.json} and
 * {@code environment.json} made from the same copy.
 *
 * @param <R> the row type
 * @param <S> the type of its run's settings ({@code environment.json}'s last properties)
 */
public abstract class ReproductionKind<R extends ResultRow, S> {
    private final String name;
    private final Class<R> rowType;
    private final Class<S> settingsType;
    private final List<String> alsoCalled;

    /**
     * @param name the reproduction's name
     * @param rowType the record type of its {@code summary.json} rows (one kind per row type)
     * @param settingsType the record type of its run's settings
     * @param alsoCalled older spellings of the name a folder may carry (e.g. {@code "graph jmh"})
     */
    protected ReproductionKind(String name, Class<R> rowType, Class<S> settingsType, String... alsoCalled) {
        this.name = Objects.requireNonNull(name);
        this.rowType = Objects.requireNonNull(rowType);
        this.settingsType = Objects.requireNonNull(settingsType);
        this.alsoCalled = List.of(alsoCalled);
    }

    /** The record type of its run's settings. */
    public final Class<S> settingsType() {
        return settingsType;
    }

    /**
     * The body of {@code table.md} for a run: the kind's own layout of its rows beside the published
     * figures, made only from {@code run} (nothing is read from disk). The framework puts the stop's line
     * and the quick line above it ({@link #shortfall}).
     */
    public abstract String table(Recorded<R, S> run);

    /**
     * What {@code table.md}'s bold first line says falls short after a stop, e.g. "rows have fewer runs
     * than asked (runs_completed in summary.json)".
     */
    public String shortfall() {
        return "rows have fewer runs than asked (runs_completed in summary.json)";
    }

    /** The reproduction's name, as {@code ./lab reproduce NAME} and {@code summary.json} spell it. */
    public final String name() {
        return name;
    }

    /** The record type of its {@code summary.json} rows. */
    public final Class<R> rowType() {
        return rowType;
    }

    /** Older spellings of {@link #name} that folders written before may carry. */
    public final List<String> alsoCalled() {
        return alsoCalled;
    }

    /** How {@code compare} lines up two folders' rows of this kind; empty: not compared (refused, not guessed). */
    public Optional<RowIdentity> identity() {
        return Optional.empty();
    }

    /**
     * What the first screen says of {@code row}: its headline figure with its interval ({@link Headline#of});
     * empty for a row without one, the default (a kind whose rows carry no interval says so rather than print
     * figures without one).
     */
    public Optional<Headline> headline(R row) {
        return Optional.empty();
    }

    /** {@link #headline} of a row of this kind, checked to be one. */
    public final Optional<Headline> headlineOf(ResultRow row) {
        return headline(rowType.cast(row));
    }

    /**
     * The first screen's findings when this kind chooses them over all its rows ({@link Findings}); empty, the
     * default: one {@link #headline} per row name.
     */
    public Optional<Findings> findings(List<R> rows) {
        return Optional.empty();
    }

    /** {@link #findings} of rows of this kind, checked to be ones. */
    public final Optional<Findings> findingsOf(List<? extends ResultRow> rows) {
        return findings(cast(rows));
    }

    /** The published table this kind's rows are set beside ({@code Published*}), read; empty for none. */
    public Optional<Record> published() {
        return Optional.empty();
    }

    /** {@code rows} as this kind's row type: an unchecked list checked element by element. */
    public final List<R> cast(List<? extends ResultRow> rows) {
        return rows.stream().map(rowType::cast).toList();
    }

    @Override
    public final String toString() {
        return name;
    }

    /**
     * What names a row on every host, for {@code compare}, and which of its figures are compared.
     *
     * @param keys the row fields that together name a row (absent fields count as blank)
     * @param median the row's median field
     * @param added the row's added-cost field (for graph-lookup, ns per event: all of it is added)
     * @param published the published added cost: a field of the row, or {@code object.field} inside one
     * @param unit the unit of median and added, for column and axis titles
     */
    public record RowIdentity(List<String> keys, String median, String added, String published, String unit) {
        public RowIdentity {
            keys = List.copyOf(keys);
        }
    }

    /**
     * Every flat key of this kind's {@code summary.json} rows, in the order they are written (the parts'
     * fields under their prefixes), per row record: one entry, or one per record a sealed row type permits
     * (kernel-bitmap's kinds of row). What {@code docs/results-format.md} lists.
     */
    public final Map<String, List<String>> rowKeys() {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (rowType.isSealed()) {
            for (Class<?> each : rowType.getPermittedSubclasses()) {
                keys.put(each.getSimpleName(), FlatRows.keys(each, ""));
            }
        } else {
            keys.put(rowType.getSimpleName(), FlatRows.keys(rowType, ""));
        }
        return keys;
    }

    /** Every kind, in the services file's order. */
    public static List<ReproductionKind<?, ?>> all() {
        return Loaded.KINDS;
    }

    /** The kind whose rows are {@code rowType}. */
    public static <R extends ResultRow> ReproductionKind<R, ?> of(Class<R> rowType) {
        for (ReproductionKind<?, ?> k : all()) {
            if (k.rowType == rowType) {
                @SuppressWarnings("unchecked") // the row type is the kind's own, checked just above
                ReproductionKind<R, ?> typed = (ReproductionKind<R, ?>) k;
                return typed;
            }
        }
        throw new IllegalStateException("no reproduction kind has rows of " + rowType.getSimpleName());
    }

    /** The kind whose rows are {@code rowType} and whose run's settings are {@code settingsType}. */
    public static <R extends ResultRow, S> ReproductionKind<R, S> of(Class<R> rowType, Class<S> settingsType) {
        ReproductionKind<R, ?> k = of(rowType);
        if (k.settingsType != settingsType) {
            throw new IllegalStateException(
                    k + "'s settings are " + k.settingsType.getSimpleName() + ", not " + settingsType.getSimpleName());
        }
        @SuppressWarnings("unchecked") // the settings type is the kind's own, checked just above
        ReproductionKind<R, S> typed = (ReproductionKind<R, S>) k;
        return typed;
    }

    /** The kind called {@code name} (or one of its older spellings), if any. */
    public static Optional<ReproductionKind<?, ?>> find(String name) {
        return all().stream()
                .filter(k -> k.name.equals(name) || k.alsoCalled.contains(name))
                .findFirst();
    }

    /**
     * The kind named {@code name} ({@code file} and {@code field} say where the name was read, for
     * the error); bad input naming them and the known names when there is none.
     */
    public static ReproductionKind<?, ?> named(String name, Path file, String field) {
        return find(name)
                .orElseThrow(() -> BadInput.at(
                        file,
                        field,
                        "unknown reproduction \"" + Printable.of(name) + "\"; known: "
                                + all().stream().map(ReproductionKind::name).toList()));
    }

    /** The registry, loaded once (holder idiom: on first use, thread-safe). */
    private static final class Loaded {
        static final List<ReproductionKind<?, ?>> KINDS = load();

        private static List<ReproductionKind<?, ?>> load() {
            List<ReproductionKind<?, ?>> kinds = new ArrayList<>();
            // one line per kind in META-INF/services/heimdall.lab.results.ReproductionKind: each kind's package
            // (reproduce.<kind>) uses the reproduce framework, so no list in a package below it may name them
            ServiceLoader.load(ReproductionKind.class, ReproductionKind.class.getClassLoader()).stream()
                    .map(ServiceLoader.Provider::get)
                    .forEach(kinds::add);
            kinds = List.copyOf(kinds);
            for (int i = 0; i < kinds.size(); i++) {
                for (int j = 0; j < i; j++) {
                    if (kinds.get(i).rowType == kinds.get(j).rowType
                            || kinds.get(i).name.equals(kinds.get(j).name)) {
                        throw new IllegalStateException(
                                "kinds " + kinds.get(j) + " and " + kinds.get(i) + " share a name or a row type");
                    }
                }
            }
            return kinds;
        }
    }
}
