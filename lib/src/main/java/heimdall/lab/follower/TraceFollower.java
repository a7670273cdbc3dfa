package heimdall.lab.follower;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.sys.Signals;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Java reference for the kernel follower: follows a traced run ({@link heimdall.lab.probe.Tracer})
 * with the replay harness's cursors ({@link Prepared}, a DFA layout of the same machine) under the
 * kernel follower's rules, so the two can be compared decision for decision:
 * <ul>
 *   <li>the root process is followed from its first call after exec, its main thread at {@code main};
 *   <li>a thread it creates takes the role its creator's last clone/clone3 step named
 *       ({@link ThreadRoles}), else the union of the thread roles;
 *   <li>a handled delivery pushes a frame at the signal's entry, {@code rt_sigreturn} pops it;
 *   <li>a call leading to a terminal state resets the thread to its entry;
 *   <li>the first call (or handled signal) denied ends the run: that is the divergence.
 * </ul>
 * Processes the root forks are not followed (nor are they by the kernel follower).
 */
public final class TraceFollower {
    /**
     * A followed trace.
     *
     * @param divergence the first rejected event, as the kernel follower reports it (tgid: the root)
     * @param roles each followed thread's role ({@code "main"}, a role name, or {@code "(union)"})
     * @param calls calls stepped up to and including the divergent one
     */
    public record Verdict(Optional<Divergence> divergence, Map<Integer, String> roles, long calls) {}

    /** The role of a thread no creating site names. */
    public static final String UNION = "(union)";

    private static final class Thread {
        final Cursor cursor;
        final String role;
        long calls;
        int pendingChild = -1; // the state the last clone/clone3 step led to

        Thread(Cursor cursor, String role) {
            this.cursor = cursor;
            this.role = role;
        }
    }

    private TraceFollower() {}

    /** Follows {@code events} (one traced run) with {@code p}, prepared from {@code m}. */
    public static Verdict follow(Machine m, Prepared p, ThreadRoles roles, List<TraceEvent> events) {
        int root = -1;
        long exec = -1;
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.Exec x && exec < 0) {
                root = x.pid();
                exec = x.seq();
            }
        }
        if (exec < 0) {
            throw new IllegalArgumentException("the trace has no exec");
        }
        Set<Long> handled = handled(events, root, exec);
        Map<Integer, Thread> threads = new HashMap<>();
        Map<Integer, String> roleOf = new LinkedHashMap<>();
        threads.put(root, new Thread(p.cursor("main"), "main"));
        roleOf.put(root, "main");
        long calls = 0;
        for (TraceEvent e : events) {
            if (e.seq() <= exec || e.pid() != root) {
                continue;
            }
            if (e instanceof TraceEvent.Start s && s.kind().equals("thread")) {
                Thread creator = threads.get(s.parent());
                String role = creator == null ? null : roles.role(creator.pendingChild);
                if (creator != null) {
                    creator.pendingChild = -1;
                }
                threads.put(
                        s.tid(),
                        new Thread(
                                role == null ? p.unidentifiedCursor() : p.cursor(role), role == null ? UNION : role));
                roleOf.put(s.tid(), role == null ? UNION : role);
            } else if (e instanceof TraceEvent.Syscall c) {
                Thread t = threads.get(c.tid());
                if (t == null) {
                    continue; // a thread of the root from before its exec: not in the trace's followed part
                }
                calls++;
                t.calls++;
                int before = t.cursor.state();
                int depth = t.cursor.depth();
                if (!t.cursor.step(c.nr())) {
                    return new Verdict(
                            Optional.of(new Divergence(
                                    Divergence.Kind.CALL, c.tid(), root, c.nr(), before, depth, t.calls)),
                            roleOf,
                            calls);
                }
                boolean popped = t.cursor.depth() < depth;
                if (!popped && (c.nr() == ThreadRoles.CLONE || c.nr() == ThreadRoles.CLONE3)) {
                    t.pendingChild = t.cursor.state();
                }
                if (!popped && m.terminal(t.cursor.state())) {
                    t.cursor.reset();
                }
            } else if (e instanceof TraceEvent.Signal g && handled.contains(g.seq())) {
                Thread t = threads.get(g.tid());
                if (t == null) {
                    continue;
                }
                int sig = p.signals().indexOf(Graph.SIGNAL_PREFIX + Signals.name(g.signal()));
                int before = t.cursor.state();
                int depth = t.cursor.depth();
                if (sig < 0 || !t.cursor.deliver(sig)) {
                    return new Verdict(
                            Optional.of(new Divergence(
                                    Divergence.Kind.SIGNAL, g.tid(), root, g.signal(), before, depth, t.calls)),
                            roleOf,
                            calls);
                }
            }
        }
        return new Verdict(Optional.empty(), roleOf, calls);
    }

    /**
     * Deliveries that ran a handler: each {@code rt_sigreturn} of a thread ends its innermost delivery
     * still open (the recorder's rule; the kernel follower reads the handler itself).
     */
    private static Set<Long> handled(List<TraceEvent> events, int root, long exec) {
        Map<Integer, Deque<Long>> open = new HashMap<>();
        Set<Long> out = new HashSet<>();
        for (TraceEvent e : events) {
            if (e.seq() <= exec || e.pid() != root) {
                continue;
            }
            if (e instanceof TraceEvent.Signal s) {
                open.computeIfAbsent(s.tid(), k -> new ArrayDeque<>()).push(s.seq());
            } else if (e instanceof TraceEvent.Syscall c && c.nr() == Graph.RT_SIGRETURN) {
                Deque<Long> d = open.get(c.tid());
                if (d != null && !d.isEmpty()) {
                    out.add(d.pop());
                }
            }
        }
        return out;
    }
}
