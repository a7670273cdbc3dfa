package heimdall.lab.graph.record;

import heimdall.lab.Refusal;
import heimdall.lab.graph.Edge;
import heimdall.lab.graph.EdgeKind;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.Site;
import heimdall.lab.probe.SyscallNames;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.sys.Signals;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Projects one traced run ({@code heimdall-trace --maps --stack N}) onto an executable syscall graph.
 *
 * <p>What is recorded: the root process's threads only (the thread group of the traced command after
 * its exec). Processes it forks are other programs and are left out, including a fork's calls before
 * its own exec.
 *
 * <ul>
 *   <li><b>Sites</b>: one per (syscall number, call site), the call site as {@link CallSites} finds
 *       it. {@code name} is the syscall's name, {@code function} the call site ({@code object+0xoffset},
 *       or the symbol when a resolver names it). Ids are 1.. in the order of (call site object,
 *       offset, syscall), so they do not depend on thread scheduling. A syscall number outside
 *       {@code 0..}{@link Graph#SYSCALL_LIMIT}{@code -1} is written with a null syscall, which import
 *       refuses (an unmapped site is never made permissive).
 *   <li><b>Edges</b>: {@code next} from each call to the thread's following call in the same frame;
 *       a site followed by itself gives an {@code again} self-edge (a loop around one call site).
 *   <li><b>Entries</b> (thread roles): the root's main thread is {@code main}; any other thread's role
 *       is {@code thread:<site>}: the call site of the {@code clone}/{@code clone3} that created it when
 *       that lies in program code (threads made by the same {@code pthread_create} call share a role);
 *       when the creating call's site is inside libc (pthread_create's frames deeper than the recorded
 *       stack window), the thread's first call site in program code, i.e. its start routine or the
 *       first function that routine calls. Sites are named by symbol when the resolver knows one, else
 *       {@code object+0xoffset}. The first call of each thread starts its role.
 *   <li><b>Signal entries</b> {@code signal:<NAME>}: a delivered signal opens a handler frame when the
 *       thread later makes the matching {@code rt_sigreturn} (matched innermost first); the frame's
 *       first call starts the entry, its calls chain by {@code next}, and its {@code rt_sigreturn} ends
 *       it, after which the interrupted frame continues from where it was. Deliveries with no handler
 *       (default or ignored actions) open no frame.
 *   <li><b>Terminal</b>: the last call of each thread that ended (usually {@code exit} or
 *       {@code exit_group}).
 * </ul>
 */
public final class GraphRecorder {
    private GraphRecorder() {}

    /**
     * A projection as recorded.
     *
     * @param sites the sites, by id; a site with {@code syscall < 0} is unmapped
     * @param threads thread ids recorded, by role
     * @param calls syscalls recorded
     */
    public record Recording(
            List<Site> sites, List<Edge> edges, Map<String, List<Integer>> threads, int calls, int signalFrames) {
        /** Sites written with a null syscall. */
        public long unmapped() {
            return sites.stream().filter(s -> s.syscall() < 0).count();
        }
    }

    private record Key(String object, long offset, long nr) {}

    private static final Comparator<Key> ORDER =
            Comparator.comparing(Key::object).thenComparingLong(Key::offset).thenComparingLong(Key::nr);

    private static final class SiteInfo {
        final Key key;
        final Set<String> firstOf = new LinkedHashSet<>();
        boolean terminal;

        SiteInfo(Key key) {
            this.key = key;
        }
    }

    /**
     * Records {@code events} (one traced run, as {@link heimdall.lab.probe.TraceReader} reads them).
     *
     * @param symbols names a call site's function (may return null to keep {@code object+0xoffset})
     * @throws Refusal when the trace has no root exec or no executable mappings for the root process
     */
    public static Recording record(List<TraceEvent> events, Function<CallSites.Location, String> symbols) {
        int root = -1;
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.Start s && s.kind().equals("root")) {
                root = s.pid();
            }
        }
        if (root < 0) {
            throw new Refusal("the trace has no root process that exec'd its command");
        }
        return record(events, root, symbols);
    }

    /**
     * Records the process {@code root} of {@code events} (its threads, from its first exec on), where the traced
     * command is a launcher that starts the program as a process of its own ({@code heimdall-workload}, which
     * runs every measured run of a workload): the program is recorded as the launcher runs it, with the
     * descriptors, folder and environment it will be enforced in. The launcher's own calls, and the program's
     * before its exec, are left out, as a root's setup is.
     *
     * @throws Refusal when {@code root} never exec'd, or has no executable mappings
     */
    public static Recording record(List<TraceEvent> events, int root, Function<CallSites.Location, String> symbols) {
        long execSeq = -1;
        TraceEvent.Maps lastMaps = null;
        for (TraceEvent e : events) {
            if (e.pid() != root) {
                continue;
            }
            if (e instanceof TraceEvent.Exec x && execSeq < 0) {
                execSeq = x.seq();
            }
            if (e instanceof TraceEvent.Maps m) {
                lastMaps = m;
            }
        }
        if (execSeq < 0) {
            throw new Refusal("the trace has no exec of process " + root + ": no command to record");
        }
        if (lastMaps == null) {
            throw new Refusal("the trace has no executable mappings of the root process (was it traced with --maps, "
                    + "and did it end with exit_group?)");
        }
        CallSites sites = new CallSites(lastMaps);

        // Per thread of the root process, in seq order.
        Map<Integer, List<TraceEvent>> byThread = new LinkedHashMap<>();
        Map<Integer, TraceEvent.Start> starts = new HashMap<>();
        for (TraceEvent e : events) {
            if (e.pid() != root || e.seq() < execSeq && !(e instanceof TraceEvent.Start)) {
                continue;
            }
            if (e instanceof TraceEvent.Start s) {
                starts.put(s.tid(), s);
            }
            byThread.computeIfAbsent(e.tid(), t -> new ArrayList<>()).add(e);
        }

        Map<Key, SiteInfo> infos = new HashMap<>();
        Map<Long, Key> keyOfSeq = new HashMap<>();
        Function<TraceEvent.Syscall, Key> keyOf = call -> {
            CallSites.Location l = sites.of(call).orElse(new CallSites.Location("[unmapped]", call.ip()));
            Key k = new Key(l.object(), l.offset(), call.nr());
            infos.computeIfAbsent(k, SiteInfo::new);
            keyOfSeq.put(call.seq(), k);
            return k;
        };
        for (List<TraceEvent> list : byThread.values()) {
            for (TraceEvent e : list) {
                if (e instanceof TraceEvent.Syscall c) {
                    keyOf.apply(c);
                }
            }
        }

        Map<String, List<Integer>> threads = new TreeMap<>();
        Set<List<Object>> edgeSet = new LinkedHashSet<>();
        List<Object[]> edgeKeys = new ArrayList<>();
        int calls = 0;
        int signalFrames = 0;
        for (Map.Entry<Integer, List<TraceEvent>> t : byThread.entrySet()) {
            int tid = t.getKey();
            List<TraceEvent> list = t.getValue();
            String role = role(tid, root, starts.get(tid), byThread, keyOfSeq, symbols);
            threads.computeIfAbsent(role, r -> new ArrayList<>()).add(tid);
            Set<Long> handled = handledSignals(list);
            Deque<Object[]> frames = new ArrayDeque<>(); // {entry name, last Key or null}
            frames.push(new Object[] {role, null});
            boolean ended = false;
            for (TraceEvent e : list) {
                if (e instanceof TraceEvent.Signal s && handled.contains(s.seq())) {
                    frames.push(new Object[] {Graph.SIGNAL_PREFIX + Signals.name(s.signal()), null});
                    signalFrames++;
                } else if (e instanceof TraceEvent.Syscall c) {
                    calls++;
                    Key k = keyOfSeq.get(c.seq());
                    Object[] top = frames.peek();
                    Key last = (Key) top[1];
                    if (last == null) {
                        infos.get(k).firstOf.add((String) top[0]);
                    } else {
                        EdgeKind kind = last.equals(k) ? EdgeKind.AGAIN : EdgeKind.NEXT;
                        if (edgeSet.add(List.of(last, k, kind))) {
                            edgeKeys.add(new Object[] {last, k, kind});
                        }
                    }
                    top[1] = k;
                    if (c.nr() == Graph.RT_SIGRETURN && frames.size() > 1) {
                        frames.pop();
                    }
                } else if (e instanceof TraceEvent.Exit) {
                    ended = true;
                }
            }
            Key lastBase = (Key) frames.peekLast()[1];
            if (ended && lastBase != null) {
                infos.get(lastBase).terminal = true;
            }
        }

        TreeSet<Key> ordered = new TreeSet<>(ORDER);
        ordered.addAll(infos.keySet());
        Map<Key, Long> ids = new HashMap<>();
        List<Site> siteList = new ArrayList<>();
        SyscallNames names = SyscallNames.x86_64();
        long id = 1;
        for (Key k : ordered) {
            ids.put(k, id);
            SiteInfo info = infos.get(k);
            CallSites.Location l = new CallSites.Location(k.object(), k.offset());
            String fn = symbols.apply(l);
            String function = fn == null || fn.isEmpty() ? l.label() : fn + " (" + l.label() + ")";
            boolean mapped = k.nr() >= 0 && k.nr() < Graph.SYSCALL_LIMIT;
            siteList.add(new Site(
                    id,
                    mapped ? (int) k.nr() : -1,
                    names.name(k.nr()),
                    function,
                    List.copyOf(info.firstOf),
                    info.terminal));
            id++;
        }
        List<Edge> edges = new ArrayList<>();
        for (Object[] e : edgeKeys) {
            edges.add(new Edge(ids.get((Key) e[0]), ids.get((Key) e[1]), (EdgeKind) e[2]));
        }
        edges.sort(
                Comparator.comparingLong(Edge::src).thenComparingLong(Edge::dst).thenComparing(Edge::kind));
        return new Recording(siteList, edges, threads, calls, signalFrames);
    }

    /** The role of a thread: {@code main} for the root's main thread, else its creation site. */
    private static String role(
            int tid,
            int root,
            TraceEvent.Start start,
            Map<Integer, List<TraceEvent>> byThread,
            Map<Long, Key> keyOfSeq,
            Function<CallSites.Location, String> symbols) {
        if (tid == root || start == null) {
            return "main";
        }
        List<TraceEvent> creator = byThread.getOrDefault(start.parent(), List.of());
        TraceEvent.Syscall clone = null;
        for (TraceEvent e : creator) {
            if (e.seq() > start.seq()) {
                break;
            }
            if (e instanceof TraceEvent.Syscall c && (c.nr() == 56 || c.nr() == 435)) {
                clone = c;
            }
        }
        if (clone != null) {
            Key k = keyOfSeq.get(clone.seq());
            if (!CallSites.system(k.object())) {
                return "thread:" + label(new CallSites.Location(k.object(), k.offset()), symbols);
            }
        }
        // Created from inside libc (pthread_create's frames hid the program's): name the role by the
        // thread's first call site in program code, which its start routine (or what it calls first) made.
        for (TraceEvent e : byThread.getOrDefault(tid, List.of())) {
            if (e instanceof TraceEvent.Syscall c) {
                Key k = keyOfSeq.get(c.seq());
                if (!CallSites.system(k.object())) {
                    return "thread:" + label(new CallSites.Location(k.object(), k.offset()), symbols);
                }
            }
        }
        if (clone != null) {
            Key k = keyOfSeq.get(clone.seq());
            return "thread:" + label(new CallSites.Location(k.object(), k.offset()), symbols);
        }
        return "thread:unknown-creator";
    }

    private static String label(CallSites.Location l, Function<CallSites.Location, String> symbols) {
        String fn = symbols.apply(l);
        return fn == null || fn.isEmpty() ? l.label() : fn;
    }

    /**
     * The seqs of the signal deliveries that ran a handler: each {@code rt_sigreturn} ends the
     * innermost delivery still open; deliveries never ended that way had no handler.
     */
    static Set<Long> handledSignals(List<TraceEvent> thread) {
        Deque<Long> open = new ArrayDeque<>();
        Set<Long> handled = new HashSet<>();
        for (TraceEvent e : thread) {
            if (e instanceof TraceEvent.Signal s) {
                open.push(s.seq());
            } else if (e instanceof TraceEvent.Syscall c && c.nr() == Graph.RT_SIGRETURN && !open.isEmpty()) {
                handled.add(open.pop());
            }
        }
        return handled;
    }
}
