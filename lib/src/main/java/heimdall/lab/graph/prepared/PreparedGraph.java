package heimdall.lab.graph.prepared;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.Coalescer;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A graph prepared in every layout: optional coalescing, compile, minimize, then the tables, each
 * step timed. This is what {@code ./lab graph info} prints and what benchmarks replay.
 *
 * <p>A compile over budget refuses the whole preparation ({@link Refusal} from {@link #prepare}). A
 * layout over the payload budget refuses only that layout: it is absent from {@link #layouts()} and
 * its reason is in {@link #refusals()}, so other layouts can still be measured but nothing is made up
 * for the refused one.
 */
public final class PreparedGraph {
    /**
     * What to prepare and within which bounds.
     *
     * @param coalesce merge equivalent sites first
     * @param budget construction bounds of the compile
     * @param limitBytes preparation payload budget per layout
     * @param layouts the layouts to build
     */
    public record Options(boolean coalesce, CompileBudget budget, long limitBytes, List<Layout> layouts) {
        public Options {
            if (limitBytes < 0) {
                throw new BadInput("payload budget " + limitBytes + ": must not be negative");
            }
            layouts = List.copyOf(layouts);
        }

        /** No coalescing, default budgets (1,048,576 transitions and frames, 256 MiB), every layout. */
        public static Options defaults() {
            return new Options(false, CompileBudget.defaults(), DfaLayouts.DEFAULT_LIMIT, List.of(Layout.values()));
        }

        public Options withCoalesce(boolean on) {
            return new Options(on, budget, limitBytes, layouts);
        }

        public Options withBudget(CompileBudget b) {
            return new Options(coalesce, b, limitBytes, layouts);
        }

        /** The preparation payload budget in bytes, per layout. */
        public Options withLimit(long bytes) {
            return new Options(coalesce, budget, bytes, layouts);
        }

        public Options withLayouts(List<Layout> ls) {
            return new Options(coalesce, budget, limitBytes, ls);
        }
    }

    /** Nanoseconds spent in each stage; zero for a stage not run. */
    public record Timings(long coalesceNanos, long compileNanos, long minimizeNanos, Map<Layout, Long> prepareNanos) {}

    private final Graph source;
    private final Optional<Coalescer.Coalesced> coalesced;
    private final Machine machine;
    private final Machine minimized;
    private final Map<Layout, Prepared> layouts;
    private final Map<Layout, String> refusals;
    private final Timings timings;

    private PreparedGraph(
            Graph source,
            Optional<Coalescer.Coalesced> coalesced,
            Machine machine,
            Machine minimized,
            Map<Layout, Prepared> layouts,
            Map<Layout, String> refusals,
            Timings timings) {
        this.source = source;
        this.coalesced = coalesced;
        this.machine = machine;
        this.minimized = minimized;
        this.layouts = Collections.unmodifiableMap(layouts);
        this.refusals = Collections.unmodifiableMap(refusals);
        this.timings = timings;
    }

    /**
     * Prepares {@code g}.
     *
     * @throws Refusal when the compile exceeds its budget (the message names budget and figure)
     */
    public static PreparedGraph prepare(Graph g, Options o) {
        long t0 = System.nanoTime();
        Optional<Coalescer.Coalesced> co = o.coalesce() ? Optional.of(Coalescer.coalesce(g)) : Optional.empty();
        Graph followed = co.map(Coalescer.Coalesced::graph).orElse(g);
        long t1 = System.nanoTime();
        Machine m = MachineCompiler.compile(followed, o.budget());
        long t2 = System.nanoTime();
        Machine min = Minimizer.minimize(m);
        long t3 = System.nanoTime();
        Map<Layout, Prepared> built = new EnumMap<>(Layout.class);
        Map<Layout, String> refused = new EnumMap<>(Layout.class);
        Map<Layout, Long> prep = new EnumMap<>(Layout.class);
        for (Layout l : o.layouts()) {
            long s = System.nanoTime();
            try {
                built.put(
                        l,
                        l.reference()
                                ? ReferenceFollower.of(followed, l)
                                : DfaLayouts.prepare(l, l.minimized() ? min : m, o.limitBytes()));
            } catch (Refusal r) {
                refused.put(l, r.getMessage());
            }
            prep.put(l, System.nanoTime() - s);
        }
        return new PreparedGraph(
                g,
                co,
                m,
                min,
                built,
                refused,
                new Timings(o.coalesce() ? t1 - t0 : 0, t2 - t1, t3 - t2, Collections.unmodifiableMap(prep)));
    }

    /** The graph as given. */
    public Graph source() {
        return source;
    }

    /** The graph actually followed: the coalesced one when coalescing was asked for. */
    public Graph followed() {
        return coalesced.map(Coalescer.Coalesced::graph).orElse(source);
    }

    public Optional<Coalescer.Coalesced> coalesced() {
        return coalesced;
    }

    public Machine machine() {
        return machine;
    }

    public Machine minimized() {
        return minimized;
    }

    /** The layouts built, in {@link Layout} order. */
    public Map<Layout, Prepared> layouts() {
        return layouts;
    }

    /** The layout, or a {@link Refusal} with its reason when it was refused or not asked for. */
    public Prepared layout(Layout l) {
        Prepared p = layouts.get(l);
        if (p == null) {
            throw new Refusal(l + ": " + refusals.getOrDefault(l, "not prepared"));
        }
        return p;
    }

    /** Layouts refused for their payload budget, with the reason. */
    public Map<Layout, String> refusals() {
        return refusals;
    }

    public Timings timings() {
        return timings;
    }

    /** The layout {@code auto} picks for this graph on this host, with its one-line reason. */
    public AutoLayout auto() {
        return AutoLayout.choose(followed(), minimized);
    }
}
