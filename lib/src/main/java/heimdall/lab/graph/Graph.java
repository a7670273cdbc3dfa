package heimdall.lab.graph;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An executable syscall projection: sites, entries, {@code next}/{@code again} edges and terminal
 * sites, validated and indexed for the compiler and the reference follower.
 *
 * <p>Sites keep their file order; each gets a dense <em>index</em> {@code 0..siteCount()-1}, which
 * every other class in this package uses instead of the 32-bit site id. Entries are numbered in the
 * order they first appear among the sites' {@code first_of} lists; signal entries are those named
 * {@code signal:<NAME>}, and a signal's number (its position in {@link #signalEntries()}) is what
 * traces and cursors use to deliver it.
 */
public final class Graph {
    /** Syscall numbers accepted in a projection: x86_64 numbers are below 512 (x32 ones are not accepted). */
    public static final int SYSCALL_LIMIT = 512;
    /** {@code rt_sigreturn} on x86_64: in a signal frame it returns to the interrupted frame. */
    public static final int RT_SIGRETURN = 15;
    /** The prefix that marks a signal entry. */
    public static final String SIGNAL_PREFIX = "signal:";

    private final List<Site> sites;
    private final List<Edge> edges;
    private final Map<Long, Integer> indexOf;
    private final List<String> entries;
    private final int[][] firsts;
    private final int[][] next;
    private final int[][] again;
    private final int[] syscalls;
    private final boolean[] terminal;

    private Graph(List<Site> sites, List<Edge> edges, String nodesSource, String edgesSource) {
        this.sites = List.copyOf(sites);
        this.edges = List.copyOf(edges);
        int n = sites.size();
        indexOf = new HashMap<>(n * 2);
        syscalls = new int[n];
        terminal = new boolean[n];
        LinkedHashMap<String, List<Integer>> firstLists = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Site s = sites.get(i);
            if (s.id() < 0 || s.id() > 0xFFFF_FFFFL) {
                throw BadInput.at(
                        nodesSource, "site", "row " + i + ": id " + s.id() + " is not an unsigned 32-bit value");
            }
            if (indexOf.put(s.id(), i) != null) {
                throw BadInput.at(nodesSource, "site", "row " + i + ": site " + s.id() + " appears twice");
            }
            if (s.syscall() < 0 || s.syscall() >= SYSCALL_LIMIT) {
                throw new Refusal(nodesSource + ": site " + s.id() + " (" + s.name() + " in " + s.function()
                        + ") calls unknown syscall " + s.syscall() + " (x86_64 numbers are 0.." + (SYSCALL_LIMIT - 1)
                        + ")");
            }
            syscalls[i] = s.syscall();
            terminal[i] = s.terminal();
            for (String e : s.firstOf()) {
                if (e == null || e.isEmpty() || e.equals(SIGNAL_PREFIX)) {
                    throw BadInput.at(nodesSource, "first_of", "site " + s.id() + ": empty entry name");
                }
                List<Integer> l = firstLists.computeIfAbsent(e, k -> new ArrayList<>());
                if (!l.contains(i)) {
                    l.add(i);
                }
            }
        }
        if (n > 0 && firstLists.isEmpty()) {
            throw BadInput.at(nodesSource, "first_of", "no site starts any entry, so no call could ever be allowed");
        }
        entries = List.copyOf(firstLists.keySet());
        firsts = new int[entries.size()][];
        for (int e = 0; e < entries.size(); e++) {
            firsts[e] = firstLists.get(entries.get(e)).stream()
                    .mapToInt(Integer::intValue)
                    .sorted()
                    .toArray();
        }
        List<TreeSet<Integer>> nx = new ArrayList<>(n);
        List<TreeSet<Integer>> ag = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nx.add(new TreeSet<>());
            ag.add(new TreeSet<>());
        }
        for (int r = 0; r < edges.size(); r++) {
            Edge e = edges.get(r);
            Integer a = indexOf.get(e.src());
            Integer b = indexOf.get(e.dst());
            if (a == null) {
                throw BadInput.at(edgesSource, "src", "row " + r + ": site " + e.src() + " is not in the nodes file");
            }
            if (b == null) {
                throw BadInput.at(edgesSource, "dst", "row " + r + ": site " + e.dst() + " is not in the nodes file");
            }
            (e.kind() == EdgeKind.NEXT ? nx : ag).get(a).add(b);
        }
        next = new int[n][];
        again = new int[n][];
        for (int i = 0; i < n; i++) {
            next[i] = nx.get(i).stream().mapToInt(Integer::intValue).toArray();
            again[i] = ag.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * Validates and indexes a projection. Bad structure (duplicate ids, dangling edges, no entry) is
     * {@link BadInput} naming {@code nodesSource}/{@code edgesSource}; a syscall outside the x86_64
     * range is a {@link Refusal}.
     */
    public static Graph of(List<Site> sites, List<Edge> edges, String nodesSource, String edgesSource) {
        return new Graph(sites, edges, nodesSource, edgesSource);
    }

    /** A builder for graphs made in code (fixtures, synthetic and random graphs). */
    public static Builder builder() {
        return new Builder();
    }

    public List<Site> sites() {
        return sites;
    }

    public List<Edge> edges() {
        return edges;
    }

    public int siteCount() {
        return sites.size();
    }

    /** The dense index of site {@code id}, or -1. */
    public int indexOf(long id) {
        Integer i = indexOf.get(id);
        return i == null ? -1 : i;
    }

    public Site site(int index) {
        return sites.get(index);
    }

    public int syscall(int index) {
        return syscalls[index];
    }

    public boolean terminal(int index) {
        return terminal[index];
    }

    /** {@code next} successors of a site, as sorted indices (shared; do not modify). */
    public int[] next(int index) {
        return next[index];
    }

    /** {@code again} successors of a site, as sorted indices (shared; do not modify). */
    public int[] again(int index) {
        return again[index];
    }

    /** All entry names, thread roles and signal entries, in entry-number order. */
    public List<String> entries() {
        return entries;
    }

    public int entryCount() {
        return entries.size();
    }

    /** The entry number of {@code name}, or -1. */
    public int entryIndex(String name) {
        return entries.indexOf(name);
    }

    public static boolean isSignal(String entry) {
        return entry.startsWith(SIGNAL_PREFIX);
    }

    public boolean isSignalEntry(int entry) {
        return isSignal(entries.get(entry));
    }

    /** First sites of an entry, as sorted indices (shared; do not modify). */
    public int[] firsts(int entry) {
        return firsts[entry];
    }

    /** Thread-role entries (not signals), in entry order. */
    public List<String> threadEntries() {
        return entries.stream().filter(e -> !isSignal(e)).toList();
    }

    /** Signal entries in entry order; a signal's number is its position here. */
    public List<String> signalEntries() {
        return entries.stream().filter(Graph::isSignal).toList();
    }

    /** The distinct syscalls of all sites, ascending. */
    public int[] alphabet() {
        return Arrays.stream(syscalls).distinct().sorted().toArray();
    }

    @Override
    public String toString() {
        return "Graph[" + sites.size() + " sites, " + edges.size() + " edges, entries " + entries + "]";
    }

    /** Collects sites and edges; {@link #build()} validates as {@link Graph#of} does. */
    public static final class Builder {
        private final List<Site> sites = new ArrayList<>();
        private final List<Edge> edges = new ArrayList<>();

        private Builder() {}

        public Builder site(long id, int syscall, String name, String function, boolean terminal, String... firstOf) {
            sites.add(new Site(id, syscall, name, function, List.of(firstOf), terminal));
            return this;
        }

        public Builder site(Site site) {
            sites.add(site);
            return this;
        }

        public Builder next(long src, long dst) {
            edges.add(new Edge(src, dst, EdgeKind.NEXT));
            return this;
        }

        public Builder again(long src, long dst) {
            edges.add(new Edge(src, dst, EdgeKind.AGAIN));
            return this;
        }

        public Builder edge(Edge e) {
            edges.add(e);
            return this;
        }

        public Graph build() {
            return Graph.of(sites, edges, "graph(nodes)", "graph(edges)");
        }
    }
}
