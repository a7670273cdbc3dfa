package heimdall.lab.graph;

import heimdall.lab.BadInput;
import java.util.SplittableRandom;

/**
 * Synthetic graphs whose machines have a chosen number of states (64, 4,096 and 32,768 in the
 * benchmarks), with state-dependent permissions, a small recurring hot region, and a cold region
 * reachable only through two alternating calls.
 *
 * <p>Shape, for {@code states = 2M}: work sites {@code w0..w(M-1)}, each with a syscall drawn from
 * {@link #POOL}, and connector sites {@code k0..k(M-1)}, whose syscall alternates {@link #X}, {@link #Y},
 * {@link #X}, ... around a ring {@code k(i) -> k(i+1)}, so repeating X, Y, X, Y walks through every
 * connector. Each {@code w(i)} can enter the ring at {@code k(i)}, and each {@code k(i)} can drop into
 * {@code w(i)}: the two alternating calls connect every state. Each work site also has
 * {@link #WORK_SUCCESSORS} work successors with distinct syscalls (state-dependent permissions); those
 * of the hot region {@code w0..w(H-1)} ({@code H = min(16, M)}) stay inside it, those of other work
 * sites are anywhere. Entry {@code main} starts at {@code w0}, so a walk that never calls X or Y stays
 * in the hot region ({@link #hotSpec}) while an unrestricted one spreads over everything
 * ({@link #broadSpec}). A {@code signal:SIGALRM} handler ({@code write}, then {@code rt_sigreturn})
 * lets traces carry signal frames. Compiled, the graph has {@code 2M} site states plus a few start and
 * handler states; most of them stay distinct under minimization.
 */
public record SyntheticGraph(Graph graph, int workSites, int hotSites, long seed) {
    /** The alternating connector calls: {@code sendto} and {@code recvfrom}. */
    public static final int X = 44;

    public static final int Y = 45;
    /** Work site syscalls. */
    static final int[] POOL = {0, 1, 3, 4, 5, 8, 9, 10, 11, 12, 16, 17, 18, 19, 20, 21, 24, 28, 32, 35, 39, 72, 96, 186
    };

    public static final int WORK_SUCCESSORS = 3;
    public static final int HOT_LIMIT = 16;
    public static final String MAIN = "main";
    public static final String SIGALRM = "signal:SIGALRM";

    /** Builds the graph for about {@code states} states (an even number of at least 4). */
    public static SyntheticGraph build(int states, long seed) {
        if (states < 4 || states % 2 != 0) {
            throw new BadInput("synthetic graph: states " + states + " must be even and at least 4");
        }
        int m = states / 2;
        int hot = Math.min(HOT_LIMIT, m);
        SplittableRandom rng = new SplittableRandom(seed);
        int[] sys = new int[m];
        for (int i = 0; i < m; i++) {
            sys[i] = POOL[rng.nextInt(POOL.length)];
        }
        Graph.Builder b = Graph.builder();
        for (int i = 0; i < m; i++) {
            b.site(work(i), sys[i], "w" + i, "work", false, i == 0 ? new String[] {MAIN} : new String[0]);
        }
        for (int i = 0; i < m; i++) {
            b.site(connector(m, i), i % 2 == 0 ? X : Y, "k" + i, "connect", false);
        }
        long handler = 2L * m;
        b.site(handler, 1, "alarm_write", "on_sigalrm", false, SIGALRM);
        b.site(handler + 1, Graph.RT_SIGRETURN, "alarm_return", "__restore_rt", false);
        b.next(handler, handler + 1);
        for (int i = 0; i < m; i++) {
            b.next(work(i), connector(m, i));
            b.next(connector(m, i), connector(m, (i + 1) % m));
            b.next(connector(m, i), work(i));
            boolean[] used = new boolean[512];
            int added = 0;
            for (int tries = 0; added < WORK_SUCCESSORS && tries < 64; tries++) {
                int j = i < hot ? rng.nextInt(hot) : rng.nextInt(m);
                if (!used[sys[j]]) {
                    used[sys[j]] = true;
                    b.next(work(i), work(j));
                    added++;
                }
            }
        }
        return new SyntheticGraph(b.build(), m, hot, seed);
    }

    private static long work(int i) {
        return i;
    }

    private static long connector(int m, int i) {
        return (long) m + i;
    }

    /** Whether site index {@code s} is a connector (X/Y) site. Site indices equal ids here. */
    public boolean isConnector(int s) {
        return s >= workSites && s < 2 * workSites;
    }

    /** Whether site index {@code s} is a work site of the hot region. */
    public boolean isHot(int s) {
        return s < hotSites;
    }

    /** Hot traces: from {@code main}, never calling X or Y, so they recur in the hot region. */
    public Traces.Spec hotSpec(int length, long traceSeed) {
        return Traces.Spec.of(MAIN, length, traceSeed).avoiding(this::isConnector);
    }

    /** Broad traces: unrestricted walks that use the connectors and cover the full state range. */
    public Traces.Spec broadSpec(int length, long traceSeed) {
        return Traces.Spec.of(MAIN, length, traceSeed);
    }
}
