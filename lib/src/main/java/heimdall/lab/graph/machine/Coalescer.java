package heimdall.lab.graph.machine;

import heimdall.lab.graph.Edge;
import heimdall.lab.graph.EdgeKind;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.Site;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Merges equivalent sites before determinization: sites with the same syscall, the same entry
 * membership ({@code first_of}), the same terminal flag, and the same sets of {@code next} and
 * {@code again} successors up to equivalence (the coarsest such partition, found by refining
 * signatures until stable). A position set then maps onto a set of merged sites that gets exactly the
 * same decisions, so every decision is preserved; the subset construction may see fewer sets, but its
 * exponential worst case remains.
 *
 * <p>Cost: each refinement round is linear in sites and edges; the number of rounds is bounded by the
 * number of sites (long chains of look-alike sites are the slow case). An offline pass.
 */
public final class Coalescer {
    private Coalescer() {}

    /**
     * A coalesced graph and where each original site went.
     *
     * @param siteMap original site id to the id of the merged site that replaced it (the smallest id
     *     of the merged group)
     */
    public record Coalesced(Graph graph, Map<Long, Long> siteMap, int originalSites) {
        /** Sites removed by merging. */
        public int merged() {
            return originalSites - graph.siteCount();
        }
    }

    public static Coalesced coalesce(Graph g) {
        int n = g.siteCount();
        int[] cls = new int[n];
        Map<List<Object>, Integer> first = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Site s = g.site(i);
            List<Object> key = List.of(s.syscall(), new TreeSet<>(s.firstOf()).toString(), s.terminal());
            cls[i] = first.computeIfAbsent(key, k -> first.size());
        }
        int classes = first.size();
        while (true) {
            Map<Sig, Integer> ids = new HashMap<>();
            int[] refined = new int[n];
            for (int i = 0; i < n; i++) {
                Sig sig = new Sig(cls[i], classSet(g.next(i), cls), classSet(g.again(i), cls));
                refined[i] = ids.computeIfAbsent(sig, k -> ids.size());
            }
            cls = refined;
            if (ids.size() == classes) {
                break;
            }
            classes = ids.size();
        }
        // Representative: the first member in file order; id of the merged site: the smallest member id.
        int[] rep = new int[classes];
        long[] minId = new long[classes];
        Arrays.fill(rep, -1);
        Arrays.fill(minId, Long.MAX_VALUE);
        for (int i = 0; i < n; i++) {
            if (rep[cls[i]] < 0) {
                rep[cls[i]] = i;
            }
            minId[cls[i]] = Math.min(minId[cls[i]], g.site(i).id());
        }
        Map<Long, Long> siteMap = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            siteMap.put(g.site(i).id(), minId[cls[i]]);
        }
        List<Site> sites = new ArrayList<>();
        LinkedHashSet<Edge> edges = new LinkedHashSet<>();
        boolean[] done = new boolean[classes];
        for (int i = 0; i < n; i++) {
            int c = cls[i];
            if (done[c]) {
                continue;
            }
            done[c] = true;
            Site s = g.site(rep[c]);
            sites.add(new Site(minId[c], s.syscall(), s.name(), s.function(), s.firstOf(), s.terminal()));
            for (int t : g.next(rep[c])) {
                edges.add(new Edge(minId[c], minId[cls[t]], EdgeKind.NEXT));
            }
            for (int t : g.again(rep[c])) {
                edges.add(new Edge(minId[c], minId[cls[t]], EdgeKind.AGAIN));
            }
        }
        Graph out = Graph.of(sites, new ArrayList<>(edges), "coalesced(nodes)", "coalesced(edges)");
        return new Coalesced(out, siteMap, n);
    }

    private static int[] classSet(int[] succ, int[] cls) {
        return Arrays.stream(succ).map(t -> cls[t]).distinct().sorted().toArray();
    }

    private record Sig(int cls, int[] next, int[] again) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Sig s && s.cls == cls && Arrays.equals(s.next, next) && Arrays.equals(s.again, again);
        }

        @Override
        public int hashCode() {
            return (cls * 31 + Arrays.hashCode(next)) * 31 + Arrays.hashCode(again);
        }
    }
}
