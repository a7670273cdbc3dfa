package heimdall.lab.graph;

import heimdall.lab.BadInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

/**
 * Builds traces by walking a graph's sites with a seeded random generator, independently of any
 * prepared table (so a table's bug cannot shape its own test input). Encoding: {@link Trace}.
 *
 * <p>The walk keeps one site per frame. At each event, with probability {@code invalidRate} it emits
 * an invalid call (a number the walker's site does not allow, sometimes beyond every table's columns)
 * and does not move; with probability {@code signalRate} it delivers a random signal (when the graph
 * has signal entries and fewer than {@code maxDepth} frames are open) and walks the handler until its
 * {@code rt_sigreturn}; with probability {@code repeatRate} it repeats the last call where the site has
 * no {@code next} successor for it (exercising {@code again} edges and retained positions); otherwise it
 * takes a uniformly chosen successor not excluded by {@code avoid}. On a terminal site of the base
 * frame, or where no successor is left, it emits {@link Trace#RESET} and starts again.
 *
 * <p>On a deterministic graph every walked call is allowed, so the rejection count is the invalid
 * calls plus refused deliveries; on a nondeterministic one the single walked path is still allowed,
 * except where a repeat meets a {@code next} successor of another position.
 */
public final class Traces {
    private Traces() {}

    /**
     * How to walk.
     *
     * @param entry the thread entry to start at, or null for an unidentified child (a random thread
     *     entry is walked after each reset)
     * @param avoid site indices the walk never enters (e.g. a synthetic graph's cold connector calls)
     */
    public record Spec(
            String entry,
            int length,
            long seed,
            double invalidRate,
            double signalRate,
            double repeatRate,
            int maxDepth,
            IntPredicate avoid) {
        public Spec {
            if (length < 0
                    || invalidRate < 0
                    || signalRate < 0
                    || repeatRate < 0
                    || invalidRate + signalRate + repeatRate > 1
                    || maxDepth < 0) {
                throw new BadInput("trace spec: length " + length + ", rates " + invalidRate + "/" + signalRate + "/"
                        + repeatRate + " (must be >= 0 and sum to at most 1), depth " + maxDepth);
            }
        }

        /** A walk of {@code length} events at {@code entry}: no invalid calls, no signals, no repeats. */
        public static Spec of(String entry, int length, long seed) {
            return new Spec(entry, length, seed, 0, 0, 0, 8, s -> false);
        }

        public Spec withInvalidRate(double r) {
            return new Spec(entry, length, seed, r, signalRate, repeatRate, maxDepth, avoid);
        }

        public Spec withSignalRate(double r) {
            return new Spec(entry, length, seed, invalidRate, r, repeatRate, maxDepth, avoid);
        }

        public Spec withRepeatRate(double r) {
            return new Spec(entry, length, seed, invalidRate, signalRate, r, maxDepth, avoid);
        }

        public Spec withMaxDepth(int d) {
            return new Spec(entry, length, seed, invalidRate, signalRate, repeatRate, d, avoid);
        }

        public Spec avoiding(IntPredicate sites) {
            return new Spec(entry, length, seed, invalidRate, signalRate, repeatRate, maxDepth, sites);
        }
    }

    /** Walks {@code g} as {@code spec} says. */
    public static int[] walk(Graph g, Spec spec) {
        return new Walker(g, spec).run();
    }

    private static final class Walker {
        final Graph g;
        final Spec spec;
        final SplittableRandom rng;
        final int[] threadEntries;
        final int[] signalEntries;
        final int[] fixedEntry;
        final List<int[]> frames = new ArrayList<>(); // {entry, site or -1 at start}
        final int[] out;
        int len;

        Walker(Graph g, Spec spec) {
            this.g = g;
            this.spec = spec;
            rng = new SplittableRandom(spec.seed());
            threadEntries = g.threadEntries().stream().mapToInt(g::entryIndex).toArray();
            signalEntries = g.signalEntries().stream().mapToInt(g::entryIndex).toArray();
            if (spec.entry() != null) {
                int e = g.entryIndex(spec.entry());
                if (e < 0 || g.isSignalEntry(e)) {
                    throw new BadInput(
                            "trace entry '" + spec.entry() + "': not a thread entry of " + g.threadEntries());
                }
                fixedEntry = new int[] {e};
            } else {
                fixedEntry = threadEntries;
            }
            out = new int[spec.length()];
        }

        int[] run() {
            if (fixedEntry.length == 0) {
                Arrays.fill(out, 0);
                return out;
            }
            restart(false);
            while (len < out.length) {
                double r = rng.nextDouble();
                int[] top = frames.get(frames.size() - 1);
                if (r < spec.invalidRate()) {
                    emit(invalid(top));
                    continue;
                }
                r -= spec.invalidRate();
                if (r < spec.signalRate()) {
                    if (signalEntries.length > 0 && frames.size() - 1 < spec.maxDepth()) {
                        int k = rng.nextInt(signalEntries.length);
                        emit(Trace.signal(k));
                        frames.add(new int[] {signalEntries[k], -1});
                    }
                    continue;
                }
                r -= spec.signalRate();
                int site = top[1];
                boolean base = frames.size() == 1;
                if (base && site >= 0 && g.terminal(site)) {
                    restart(true);
                    continue;
                }
                if (r < spec.repeatRate() && site >= 0 && !hasNextLabelled(site, g.syscall(site))) {
                    int[] again = Arrays.stream(g.again(site))
                            .filter(t -> g.syscall(t) == g.syscall(site))
                            .toArray();
                    emit(g.syscall(site));
                    if (again.length > 0) {
                        top[1] = again[rng.nextInt(again.length)];
                    }
                    continue;
                }
                int[] succ = successors(top);
                if (succ.length == 0) {
                    restart(true);
                    continue;
                }
                int t = succ[rng.nextInt(succ.length)];
                emit(g.syscall(t));
                if (!base && g.syscall(t) == Graph.RT_SIGRETURN) {
                    frames.remove(frames.size() - 1);
                } else {
                    top[1] = t;
                }
            }
            return out;
        }

        private void restart(boolean emitReset) {
            if (emitReset) {
                emit(Trace.RESET);
            }
            frames.clear();
            frames.add(new int[] {fixedEntry[rng.nextInt(fixedEntry.length)], -1});
        }

        private void emit(int ev) {
            if (len < out.length) {
                out[len++] = ev;
            }
        }

        private int[] successors(int[] frame) {
            int[] s = frame[1] < 0 ? g.firsts(frame[0]) : g.next(frame[1]);
            return Arrays.stream(s).filter(t -> !spec.avoid().test(t)).toArray();
        }

        private boolean hasNextLabelled(int site, int nr) {
            for (int t : g.next(site)) {
                if (g.syscall(t) == nr) {
                    return true;
                }
            }
            return false;
        }

        /** A call the frame's site does not allow; one in eight lies beyond every table's columns. */
        private int invalid(int[] frame) {
            if (rng.nextInt(8) == 0) {
                return Graph.SYSCALL_LIMIT + rng.nextInt(1 << 16);
            }
            int[] allowed = frame[1] < 0 ? g.firsts(frame[0]) : g.next(frame[1]);
            for (int tries = 0; tries < 64; tries++) {
                int nr = rng.nextInt(Graph.SYSCALL_LIMIT);
                boolean ok = frame[1] >= 0 && nr == g.syscall(frame[1]);
                for (int t : allowed) {
                    ok |= g.syscall(t) == nr;
                }
                if (!ok) {
                    return nr;
                }
            }
            return Graph.SYSCALL_LIMIT;
        }
    }
}
