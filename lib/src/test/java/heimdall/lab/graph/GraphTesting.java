package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random graphs and event sequences, and the decision-by-decision comparison against the reference. */
public final class GraphTesting {
    private GraphTesting() {}

    static final int[] ALPHABET = {0, 1, 2, 3, Graph.RT_SIGRETURN};

    /** A small random graph: up to 10 sites over a 5-call alphabet, 1-2 thread entries, 0-2 signal entries. */
    public static Graph randomGraph(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 + r.nextInt(10);
        int threads = 1 + r.nextInt(2);
        int signals = r.nextInt(3);
        List<List<String>> firstOf = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            firstOf.add(new ArrayList<>());
        }
        for (int t = 0; t < threads + signals; t++) {
            String name = t < threads ? "t" + t : "signal:S" + (t - threads);
            int k = 1 + r.nextInt(2);
            for (int j = 0; j < k; j++) {
                List<String> l = firstOf.get(r.nextInt(n));
                if (!l.contains(name)) {
                    l.add(name);
                }
            }
        }
        Graph.Builder b = Graph.builder();
        for (int i = 0; i < n; i++) {
            // sparse ids, to keep ids and indices apart
            b.site(new Site(
                    10L * i + 7,
                    ALPHABET[r.nextInt(ALPHABET.length)],
                    "s" + i,
                    "f" + (i % 3),
                    firstOf.get(i),
                    r.nextInt(5) == 0));
        }
        double density = 0.1 + r.nextDouble() * 0.3;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (r.nextDouble() < density) {
                    b.next(10L * i + 7, 10L * j + 7);
                }
                if (r.nextDouble() < 0.08) {
                    b.again(10L * i + 7, 10L * j + 7);
                }
            }
        }
        return b.build();
    }

    /**
     * A random graph plus look-alike copies of some sites (same syscall, entries, terminal flag and
     * successors, reached from some of the original's predecessors), so coalescing has work to do.
     */
    public static Graph randomGraphWithTwins(long seed) {
        Graph base = randomGraph(seed);
        SplittableRandom r = new SplittableRandom(~seed);
        List<Site> sites = new ArrayList<>(base.sites());
        List<Edge> edges = new ArrayList<>(base.edges());
        int twins = 1 + r.nextInt(3);
        for (int k = 0; k < twins; k++) {
            Site x = sites.get(r.nextInt(sites.size()));
            long id = 100_000L * (k + 1) + x.id();
            if (sites.stream().anyMatch(s -> s.id() == id)) {
                continue;
            }
            sites.add(new Site(id, x.syscall(), x.name() + "'", x.function(), x.firstOf(), x.terminal()));
            for (Edge e : List.copyOf(edges)) {
                if (e.src() == x.id()) {
                    edges.add(new Edge(id, e.dst() == x.id() ? (r.nextBoolean() ? id : x.id()) : e.dst(), e.kind()));
                }
                if (e.dst() == x.id() && e.src() != x.id() && r.nextBoolean()) {
                    edges.add(new Edge(e.src(), id, e.kind()));
                }
            }
        }
        return Graph.of(sites, edges, "twins(nodes)", "twins(edges)");
    }

    /**
     * Random events: mostly calls of the alphabet, some other numbers (a few beyond every table), resets,
     * and deliveries of known and unknown signals.
     */
    public static int[] randomEvents(long seed, int length, int signals) {
        return randomEvents(seed, length, signals, ALPHABET);
    }

    /** As {@link #randomEvents(long, int, int)}, drawing most calls from {@code alphabet}. */
    public static int[] randomEvents(long seed, int length, int signals, int[] alphabet) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] ev = new int[length];
        for (int i = 0; i < length; i++) {
            int k = r.nextInt(100);
            if (k < 70) {
                ev[i] = alphabet[r.nextInt(alphabet.length)];
            } else if (k < 78) {
                ev[i] = r.nextInt(600);
            } else if (k < 80) {
                ev[i] = Integer.MAX_VALUE - r.nextInt(3);
            } else if (k < 84) {
                ev[i] = Trace.RESET;
            } else {
                ev[i] = Trace.signal(r.nextInt(signals + 1));
            }
        }
        return ev;
    }

    /** Applies one event the way replay does; true when allowed (a reset always is). */
    public static boolean apply(Cursor c, int ev) {
        if (ev >= 0) {
            return c.step(ev);
        }
        if (ev == Trace.RESET) {
            c.reset();
            return true;
        }
        return c.deliver(Trace.signalOf(ev));
    }

    /** The cursors to compare: one per thread entry and the unidentified child. */
    public static List<String> starts(Prepared p) {
        List<String> s = new ArrayList<>();
        for (String e : p.entries()) {
            if (!Graph.isSignal(e)) {
                s.add(e);
            }
        }
        s.add(null);
        return s;
    }

    public static Cursor cursor(Prepared p, String entry, int depth) {
        return entry == null ? p.unidentifiedCursor(depth) : p.cursor(entry, depth);
    }

    /**
     * Asserts that {@code layout} and the reference make the same decision on every event (and keep
     * the same depth), and that replay returns the same rejection count.
     *
     * @return the reference's rejection count
     */
    public static int assertMatchesReference(
            Prepared reference, Prepared layout, String entry, int[] events, int depth, String what) {
        Cursor ref = cursor(reference, entry, depth);
        Cursor lay = cursor(layout, entry, depth);
        int rejected = 0;
        for (int i = 0; i < events.length; i++) {
            boolean a = apply(ref, events[i]);
            boolean b = apply(lay, events[i]);
            if (a != b || ref.depth() != lay.depth()) {
                assertEquals(
                        a,
                        b,
                        what + " " + layout.layout() + " entry " + entry + ": event " + i + " (" + events[i]
                                + ") decision differs; events so far "
                                + java.util.Arrays.toString(java.util.Arrays.copyOf(events, i + 1)));
                assertEquals(ref.depth(), lay.depth(), what + " " + layout.layout() + ": depth after event " + i);
            }
            rejected += a ? 0 : 1;
        }
        assertEquals(
                rejected, cursor(layout, entry, depth).replay(events), what + " " + layout.layout() + " replay count");
        assertEquals(rejected, cursor(reference, entry, depth).replay(events), what + " hash replay count");
        return rejected;
    }

    /** Compares every layout of {@code p} with its hash layout on {@code events}, for every start. */
    public static void assertAllLayoutsMatch(PreparedGraph p, int[] events, int depth, String what) {
        Prepared ref = p.layout(Layout.HASH);
        for (Prepared l : p.layouts().values()) {
            if (l.layout() == Layout.HASH) {
                continue;
            }
            for (String entry : starts(ref)) {
                assertMatchesReference(ref, l, entry, events, depth, what);
            }
        }
    }
}
