package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.Trace;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The {@code hash} layout: the reference follower that every other layout must match decision for
 * decision. It follows the graph directly, as DESIGN.md's "Prepared graphs" states the semantics:
 * hash maps from (position, syscall) to successor lists, a vector of positions per frame, and event
 * dispatch (call, signal delivery, {@code rt_sigreturn}, reset). No machine is built, so it has no
 * construction budget and its memory is not measured ({@link Prepared#UNMEASURED}). Its frames are
 * vectors preallocated to the number of positions, so its steps allocate nothing either.
 *
 * <p>Positions are site indices, plus one virtual start position per entry (index
 * {@code sites + entry}) whose {@code next} successors are the entry's first sites. See
 * {@link heimdall.lab.graph.machine.MachineCompiler} for the step rule.
 */
public final class ReferenceFollower extends AbstractPrepared<ReferenceFollower.Cursor> {
    private final Graph graph;
    private final int positions;
    private final GroupMap nextGroups;
    private final GroupMap againGroups;
    private final int[] groupStart;
    private final int[] groupSucc;
    private final int[] signalEntry;

    private ReferenceFollower(Graph g, Layout layout) {
        super(layout, g.entries(), g.signalEntries(), UNMEASURED);
        this.graph = g;
        int n = g.siteCount();
        positions = n + g.entryCount();
        int[][] nexts = new int[positions][];
        for (int p = 0; p < positions; p++) {
            nexts[p] = p < n ? g.next(p) : g.firsts(p - n);
        }
        int edges = Arrays.stream(nexts).mapToInt(a -> a.length).sum();
        int againEdges = 0;
        for (int p = 0; p < n; p++) {
            againEdges += g.again(p).length;
        }
        boolean own = layout == Layout.HASH;
        nextGroups = own ? new LongIntMap(edges + 1) : new FastutilGroupMap(edges + 1);
        againGroups = own ? new LongIntMap(againEdges + 1) : new FastutilGroupMap(againEdges + 1);
        int[] starts = new int[edges + againEdges + 1];
        int[] succ = new int[edges + againEdges];
        int groups = 0;
        int filled = 0;
        for (int kind = 0; kind < 2; kind++) {
            for (int p = 0; p < (kind == 0 ? positions : n); p++) {
                int[] targets = kind == 0 ? nexts[p] : g.again(p);
                int[] labels = Arrays.stream(targets)
                        .map(g::syscall)
                        .distinct()
                        .sorted()
                        .toArray();
                for (int l : labels) {
                    (kind == 0 ? nextGroups : againGroups).put(key(p, l), groups);
                    starts[groups++] = filled;
                    for (int t : targets) {
                        if (g.syscall(t) == l) {
                            succ[filled++] = t;
                        }
                    }
                }
            }
        }
        starts[groups] = filled;
        groupStart = Arrays.copyOf(starts, groups + 1);
        groupSucc = succ;
        signalEntry = g.signalEntries().stream().mapToInt(g::entryIndex).toArray();
    }

    private static long key(int position, int nr) {
        return (long) position * Graph.SYSCALL_LIMIT + nr;
    }

    /** Builds the follower's maps for {@code g} ({@link Layout#HASH}: our own open-addressing map). */
    public static ReferenceFollower of(Graph g) {
        return new ReferenceFollower(g, Layout.HASH);
    }

    /**
     * Builds the follower for {@code g} over {@code layout}'s map: {@link Layout#HASH} (our own) or
     * {@link Layout#HASH_FASTUTIL} (fastutil's {@code Long2IntOpenHashMap}). Same decisions either way.
     */
    public static ReferenceFollower of(Graph g, Layout layout) {
        if (!layout.reference()) {
            throw new IllegalArgumentException(layout + " is not a reference follower");
        }
        return new ReferenceFollower(g, layout);
    }

    public Graph graph() {
        return graph;
    }

    @Override
    Cursor open(int entry, int maxDepth) {
        return new Cursor(new int[] {graph.siteCount() + entry}, maxDepth);
    }

    @Override
    Cursor openUnidentified(int maxDepth) {
        int n = graph.siteCount();
        int[] start = IntStream.range(0, graph.entryCount())
                .filter(e -> !graph.isSignalEntry(e))
                .map(e -> n + e)
                .toArray();
        return new Cursor(start, maxDepth);
    }

    /** A thread's frames: each a vector of positions and the last call, preallocated to full size. */
    public final class Cursor implements heimdall.lab.graph.prepared.Cursor {
        private final int[] start;
        private final int[][] pos;
        private final int[] size;
        private final int[] last;
        private final boolean[] signalFrame;
        private int[] scratch;
        private final int[] stamp;
        private int epoch;
        private int depth;

        Cursor(int[] start, int maxDepth) {
            this.start = start;
            pos = new int[maxDepth + 1][positions];
            size = new int[maxDepth + 1];
            last = new int[maxDepth + 1];
            signalFrame = new boolean[maxDepth + 1];
            scratch = new int[positions];
            stamp = new int[positions];
            reset();
        }

        @Override
        public boolean step(int nr) {
            if (nr < 0 || nr >= Graph.SYSCALL_LIMIT) {
                return false;
            }
            int[] from = pos[depth];
            int n = size[depth];
            if (++epoch == 0) {
                Arrays.fill(stamp, 0);
                epoch = 1;
            }
            int count = 0;
            for (int i = 0; i < n; i++) {
                int g = nextGroups.get(key(from[i], nr));
                if (g >= 0) {
                    count = add(g, count);
                }
            }
            if (count == 0 && nr == last[depth]) {
                for (int i = 0; i < n; i++) {
                    int g = againGroups.get(key(from[i], nr));
                    if (g >= 0) {
                        count = add(g, count);
                    } else if (stamp[from[i]] != epoch) {
                        stamp[from[i]] = epoch;
                        scratch[count++] = from[i];
                    }
                }
            }
            if (count == 0) {
                return false;
            }
            if (signalFrame[depth] && nr == Graph.RT_SIGRETURN) {
                depth--;
                return true;
            }
            pos[depth] = scratch;
            scratch = from;
            size[depth] = count;
            last[depth] = nr;
            return true;
        }

        private int add(int group, int count) {
            for (int j = groupStart[group]; j < groupStart[group + 1]; j++) {
                int t = groupSucc[j];
                if (stamp[t] != epoch) {
                    stamp[t] = epoch;
                    scratch[count++] = t;
                }
            }
            return count;
        }

        @Override
        public boolean deliver(int signal) {
            if (signal < 0 || signal >= signalEntry.length || depth + 1 >= pos.length) {
                return false;
            }
            depth++;
            pos[depth][0] = graph.siteCount() + signalEntry[signal];
            size[depth] = 1;
            last[depth] = -1;
            signalFrame[depth] = true;
            return true;
        }

        @Override
        public void reset() {
            depth = 0;
            System.arraycopy(start, 0, pos[0], 0, start.length);
            size[0] = start.length;
            last[0] = -1;
            signalFrame[0] = false;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public int state() {
            return -1;
        }

        /** The current frame's positions as site indices and virtual starts, sorted (for tests and debugging). */
        public int[] positions() {
            int[] p = Arrays.copyOf(pos[depth], size[depth]);
            Arrays.sort(p);
            return p;
        }

        @Override
        public int replay(int[] trace) {
            int rejected = 0;
            for (int ev : trace) {
                boolean ok;
                if (ev >= 0) {
                    ok = step(ev);
                } else if (ev == Trace.RESET) {
                    reset();
                    ok = true;
                } else {
                    ok = deliver(Trace.signalOf(ev));
                }
                if (!ok) {
                    rejected++;
                }
            }
            return rejected;
        }
    }
}
