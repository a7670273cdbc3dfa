package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Case;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Options;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The time to prepare each imported graph once the JIT is warm: the cases' own import times are the
 * cold first ones, so import and compile are timed again after the replays, for the table's warm
 * preparation lines and the settings' {@code warm_preparation_ms}.
 */
final class WarmPreparation {
    private WarmPreparation() {}

    /** Timed repetitions of the warm preparation (after 10 untimed ones); the median is reported. */
    static final int REPEATS = 31;

    /**
     * Import plus compile of each imported graph, repeated once the JIT is warm (the replay has run),
     * on the pinned replay thread after a {@code System.gc()}: 10 untimed repetitions, then the median
     * of {@link #REPEATS}. On a shared 2-CPU host single repetitions vary several-fold (time slices
     * lost to other processes), hence the median.
     */
    static Map<String, Double> time(List<Case> cases, Options o, Consumer<String> progress) {
        Map<String, Double> out = new LinkedHashMap<>();
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        for (Case k : cases) {
            if (k.importMs() < 0 || out.containsKey(k.graph())) {
                continue;
            }
            Path nodes = o.external().isPresent()
                    ? o.external().get().get(0)
                    : dir.resolve(k.graph() + GraphFiles.NODES_SUFFIX);
            Path edges = o.external().isPresent()
                    ? o.external().get().get(1)
                    : dir.resolve(k.graph() + GraphFiles.EDGES_SUFFIX);
            double[] ms = new double[REPEATS];
            double[] importMs = new double[REPEATS];
            double[] compileMs = new double[REPEATS];
            for (int i = -10; i < ms.length; i++) {
                long t0 = System.nanoTime();
                GraphFiles.Imported imp =
                        GraphFiles.read(nodes, edges, o.external().isEmpty() || !o.allowUnpinned());
                long t1 = System.nanoTime();
                Machine m = MachineCompiler.compile(imp.graph(), o.settings().budget());
                long t2 = System.nanoTime();
                if (m.states() < 1) {
                    throw new IllegalStateException("empty machine");
                }
                if (i >= 0) {
                    ms[i] = (t2 - t0) / 1e6;
                    importMs[i] = (t1 - t0) / 1e6;
                    compileMs[i] = (t2 - t1) / 1e6;
                }
            }
            Arrays.sort(ms);
            Arrays.sort(importMs);
            Arrays.sort(compileMs);
            out.put(k.graph(), GraphLookup.round(ms[ms.length / 2]));
            progress.accept(String.format(
                    Locale.ROOT,
                    "%s: warm import + compile median %.3f ms (import alone %.3f, compile alone %.3f; "
                            + "fastest %.3f, slowest %.3f)",
                    k.graph(),
                    ms[ms.length / 2],
                    importMs[ms.length / 2],
                    compileMs[ms.length / 2],
                    ms[0],
                    ms[ms.length - 1]));
        }
        return out;
    }
}
