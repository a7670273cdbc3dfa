package heimdall.lab.follower;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.Machine;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Thread roles by creating call site, for the kernel follower and its Java reference alike: a new
 * thread follows the role of the {@code clone}/{@code clone3} site that created it, as far as the
 * creating thread's cursor can tell that site.
 *
 * <p>The recorder ({@link heimdall.lab.graph.record.GraphRecorder}) names a role {@code thread:X}
 * after the creating call's site when that lies in program code, {@code X} being the site's
 * {@code function} (or the symbol it begins with, {@code "X (object+0xoffset)"}). So a clone/clone3
 * site whose function is {@code X} creates role {@code thread:X}. A role named otherwise (the
 * recorder's fallback for threads made inside libc, e.g. by {@code pthread_create}: the thread's
 * first call site) has no creating site in the graph: such threads are unidentified, and follow the
 * union of the thread roles, as DESIGN.md says.
 *
 * <p>A follower does not see call sites, only its own state: after a clone/clone3 step the creating
 * thread is in a machine state, and that state names a role when every graph frame it stands for
 * (positions reached by that clone/clone3 call) lies on sites creating that one role. Minimization may
 * merge frames of different roles into one state; that state then names none (unidentified: the
 * union), which never denies a thread that a recorded run made. Found by walking the graph's frames
 * beside the machine's states from every entry (at most as many pairs as the unminimized machine has
 * states).
 *
 * @param roleOf by machine state: the role a clone/clone3 call leading to that state creates, or null
 */
public record ThreadRoles(String[] roleOf) {
    static final int CLONE = 56;
    static final int CLONE3 = 435;

    /** The role by state {@code state}'s creating site, or null (unidentified). */
    public String role(int state) {
        return state >= 0 && state < roleOf.length ? roleOf[state] : null;
    }

    /** Roles found for any state, sorted (for reports and tests). */
    public Set<String> roles() {
        Set<String> out = new TreeSet<>();
        for (String r : roleOf) {
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    /** The creating role of each clone/clone3 site of {@code g}, by site index (null where none). */
    static String[] creators(Graph g) {
        String[] out = new String[g.siteCount()];
        for (int i = 0; i < g.siteCount(); i++) {
            int nr = g.syscall(i);
            if (nr != CLONE && nr != CLONE3) {
                continue;
            }
            String fn = g.site(i).function();
            for (String role : g.threadEntries()) {
                if (!role.startsWith("thread:")) {
                    continue;
                }
                String x = role.substring("thread:".length());
                if (!x.isEmpty() && (fn.equals(x) || fn.startsWith(x + " ("))) {
                    out[i] = role;
                }
            }
        }
        return out;
    }

    private record Pair(int state, int last, List<Integer> positions) {}

    /** The roles of {@code m}'s states, {@code m} compiled (and perhaps minimized) from {@code g}. */
    public static ThreadRoles of(Graph g, Machine m) {
        String[] creator = creators(g);
        int n = g.siteCount();
        // Per state: the set of roles its clone/clone3 frames name ("" for a frame naming none or several).
        Map<Integer, Set<String>> seen = new HashMap<>();
        Set<Pair> visited = new HashSet<>();
        Deque<Pair> work = new ArrayDeque<>();
        for (int e = 0; e < g.entryCount(); e++) {
            push(new Pair(m.entryStart(e), -1, List.of(n + e)), visited, work);
        }
        List<Integer> union = new ArrayList<>();
        for (int e = 0; e < g.entryCount(); e++) {
            if (!g.isSignalEntry(e)) {
                union.add(n + e);
            }
        }
        push(new Pair(m.unionStart(), -1, List.copyOf(union)), visited, work);
        while (!work.isEmpty()) {
            Pair p = work.pop();
            for (int i = m.rowStart(p.state()); i < m.rowEnd(p.state()); i++) {
                int nr = m.label(i);
                int t = m.targetAt(i);
                if (t < 0) {
                    continue; // POP: the frame ends; the interrupted frame is another pair
                }
                List<Integer> dest = step(g, p.positions(), p.last(), nr);
                if (dest == null) {
                    throw new IllegalStateException("machine allows call " + nr + " in state " + p.state()
                            + " where the graph denies it: not the graph's machine");
                }
                if (nr == CLONE || nr == CLONE3) {
                    String role = null;
                    for (int q : dest) {
                        String r = q < n ? creator[q] : null;
                        role = r == null || role != null && !role.equals(r) ? "" : r;
                        if (role.isEmpty()) {
                            break;
                        }
                    }
                    seen.computeIfAbsent(t, k -> new HashSet<>()).add(role == null ? "" : role);
                }
                push(new Pair(t, nr, dest), visited, work);
            }
        }
        String[] roleOf = new String[m.states()];
        for (Map.Entry<Integer, Set<String>> e : seen.entrySet()) {
            Set<String> roles = e.getValue();
            if (roles.size() == 1 && !roles.contains("")) {
                roleOf[e.getKey()] = roles.iterator().next();
            }
        }
        return new ThreadRoles(roleOf);
    }

    private static void push(Pair p, Set<Pair> visited, Deque<Pair> work) {
        if (visited.add(p)) {
            work.push(p);
        }
    }

    /** DESIGN.md's step rule on a frame's positions (site indices; n + e is entry e's start). */
    static List<Integer> step(Graph g, List<Integer> positions, int last, int nr) {
        int n = g.siteCount();
        TreeSet<Integer> out = new TreeSet<>();
        for (int p : positions) {
            for (int s : p < n ? g.next(p) : g.firsts(p - n)) {
                if (g.syscall(s) == nr) {
                    out.add(s);
                }
            }
        }
        if (out.isEmpty() && nr == last) {
            for (int p : positions) {
                int[] again = p < n
                        ? Arrays.stream(g.again(p))
                                .filter(s -> g.syscall(s) == nr)
                                .toArray()
                        : new int[0];
                if (again.length == 0) {
                    out.add(p);
                } else {
                    for (int s : again) {
                        out.add(s);
                    }
                }
            }
        }
        return out.isEmpty() ? null : List.copyOf(out);
    }
}
