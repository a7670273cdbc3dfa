package heimdall.lab.graph.machine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides whether two machines give the same decisions from every start, by exploring the product
 * of their reachable states (exhaustive, not sampled). Same decisions means: the same calls allowed
 * at every point, {@link Machine#POP} in the same places, and the same terminal flags.
 */
public final class Equivalence {
    private Equivalence() {}

    /**
     * Empty when equivalent; otherwise a description of the first difference found: the start, the
     * call sequence reaching it, and what differs.
     */
    public static Optional<String> difference(Machine a, Machine b) {
        if (!a.entries().equals(b.entries())) {
            return Optional.of("entries differ: " + a.entries() + " vs " + b.entries());
        }
        Map<Long, long[]> parent = new HashMap<>();
        ArrayDeque<Long> queue = new ArrayDeque<>();
        List<String> startNames = new ArrayList<>(a.entries());
        startNames.add("(unidentified child)");
        for (int e = 0; e <= a.entries().size(); e++) {
            int sa = e < a.entries().size() ? a.entryStart(e) : a.unionStart();
            int sb = e < a.entries().size() ? b.entryStart(e) : b.unionStart();
            long key = pair(sa, sb);
            if (!parent.containsKey(key)) {
                parent.put(key, new long[] {-1, e});
                queue.add(key);
            }
        }
        while (!queue.isEmpty()) {
            long key = queue.poll();
            int sa = (int) (key >>> 32);
            int sb = (int) key;
            String problem = null;
            if (a.terminal(sa) != b.terminal(sb)) {
                problem = "terminal flag " + a.terminal(sa) + " vs " + b.terminal(sb);
            }
            int i = a.rowStart(sa);
            int j = b.rowStart(sb);
            while (problem == null && (i < a.rowEnd(sa) || j < b.rowEnd(sb))) {
                int la = i < a.rowEnd(sa) ? a.label(i) : Integer.MAX_VALUE;
                int lb = j < b.rowEnd(sb) ? b.label(j) : Integer.MAX_VALUE;
                if (la != lb) {
                    problem = "call " + Math.min(la, lb) + " allowed by " + (la < lb ? "the first" : "the second")
                            + " only";
                    break;
                }
                int ta = a.targetAt(i++);
                int tb = b.targetAt(j++);
                if ((ta == Machine.POP) != (tb == Machine.POP)) {
                    problem = "call " + la + " pops the signal frame in "
                            + (ta == Machine.POP ? "the first" : "the second") + " only";
                    break;
                }
                if (ta != Machine.POP) {
                    long next = pair(ta, tb);
                    if (!parent.containsKey(next)) {
                        parent.put(next, new long[] {key, la});
                        queue.add(next);
                    }
                }
            }
            if (problem != null) {
                List<Long> calls = new ArrayList<>();
                long k = key;
                long[] p = parent.get(k);
                while (p[0] != -1) {
                    calls.add(p[1]);
                    p = parent.get(p[0]);
                }
                Collections.reverse(calls);
                return Optional.of("from " + startNames.get((int) p[1]) + " after calls " + calls + ": " + problem);
            }
        }
        return Optional.empty();
    }

    private static long pair(int a, int b) {
        return ((long) a << 32) | (b & 0xFFFF_FFFFL);
    }
}
