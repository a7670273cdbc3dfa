package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;

/**
 * Writes small results folders in the reproductions' format (summary.json, samples.arrow,
 * environment.json) from seeded random samples, for the analysis tests. Summary figures are
 * computed from the samples written, so tables built either way must agree.
 */
final class SyntheticResults {
    static final int RUNS = 3;
    static final int PER_RUN = 200;

    record Sample(int row, String variant, int run, int seq, long ns) {}

    private SyntheticResults() {}

    /** A floor-cost folder: floor rows (2) and broker rows (2: native/continue, java/broker). */
    static Path floorFolder(Path dir) throws IOException {
        return callFolder(dir, "floor-cost", new Object[][] {
            // what, call, base ns (none), added ns, supervisor, answer, load
            {"floor: one program", "getppid", 60.0, 40.0, null, null, null},
            {"floor: two programs", "getppid", 60.0, 85.0, null, null, null},
            {"broker", "openat", 900.0, 9000.0, "native", "continue", null},
            {"broker", "openat", 900.0, 30000.0, "java", "broker", null},
        });
    }

    /** A host-load folder: one floor row measured idle and loaded. */
    static Path loadFolder(Path dir) throws IOException {
        return callFolder(dir, "host-load", new Object[][] {
            {"floor: one program", "getppid", 60.0, 40.0, null, null, "idle"},
            {"floor: one program", "getppid", 60.0, 40.0, null, null, "loaded"},
        });
    }

    private static Path callFolder(Path dir, String reproduction, Object[][] specs) throws IOException {
        Random rnd = new Random(42);
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            Object[] s = specs[i];
            double base = (Double) s[2];
            double add = (Double) s[3];
            boolean loaded = "loaded".equals(s[6]);
            List<Long> runMed = new ArrayList<>();
            List<Long> runMedNone = new ArrayList<>();
            List<Double> all = new ArrayList<>();
            List<Double> allNone = new ArrayList<>();
            for (int run = 0; run < RUNS; run++) {
                double[] f = new double[PER_RUN];
                double[] n = new double[PER_RUN];
                for (int k = 0; k < PER_RUN; k++) {
                    f[k] = Math.round(draw(rnd, base + add, loaded, run));
                    n[k] = Math.round(draw(rnd, base, loaded, run));
                    samples.add(new Sample(i, "filtered", run, k, (long) f[k]));
                    samples.add(new Sample(i, "none", run, k, (long) n[k]));
                    all.add(f[k]);
                    allNone.add(n[k]);
                }
                runMed.add(Math.round(nearestMedian(f)));
                runMedNone.add(Math.round(nearestMedian(n)));
            }
            double[] fa = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double[] na =
                    allNone.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            Map<String, Object> row = new LinkedHashMap<>();
            if (s[6] != null) {
                row.put("load", s[6]);
            }
            row.put("what", s[0]);
            row.put("call", s[1]);
            row.put("floor", s[0]);
            row.put("insns", 4 + i);
            row.put("cache", i % 2 == 0);
            // Whole nanoseconds, as the reproductions write them (samples are whole, medians nearest-rank).
            row.put("median_none_ns", Math.round(nearestMedian(na)));
            row.put("median_ns", Math.round(nearestMedian(fa)));
            row.put("added_ns", Math.round(nearestMedian(fa) - nearestMedian(na)));
            row.put("p99_ns", Math.round(quantileSorted(fa, 0.99)));
            row.put("p99_none_ns", Math.round(quantileSorted(na, 0.99)));
            row.put("run_medians_ns", runMed);
            row.put("run_medians_none_ns", runMedNone);
            row.put("samples", fa.length);
            double sp = spread(runMed.stream().mapToDouble(Long::doubleValue).toArray());
            row.put("spread", sp);
            row.put("noisy", sp > 0.1);
            row.put("published", i == 0 ? Map.of("row", 1, "median_ns", 101, "added_ns", 38) : null);
            row.put("status", "ok");
            row.put("failure", null);
            if (s[4] != null) {
                row.put("supervisor", s[4]);
                row.put("answer", s[5]);
            }
            if (s[6] != null) {
                row.put("load_avg_runs", loaded ? List.of(1.8, 2.1, 2.6) : List.of(0.05, 0.1, 0.08));
            }
            rows.add(row);
        }
        write(dir, reproduction, rows);
        writeFloorSamples(dir.resolve("samples.arrow"), samples);
        return dir;
    }

    /** Graph rows: two graphs × three layouts (one refused: null figures). */
    static Path graphFolder(Path dir) throws IOException {
        Random rnd = new Random(7);
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Object[]> samples = new ArrayList<>();
        String[] layouts = {"hash", "dfa-words", "dfa-compact"};
        double[] speed = {95.0, 6.0, 8.0};
        int i = 0;
        for (String graph : new String[] {"nginx", "redis"}) {
            for (int l = 0; l < layouts.length; l++) {
                double base = speed[l] * (graph.equals("redis") ? 1.3 : 1.0);
                List<Double> vals = new ArrayList<>();
                for (int k = 0; k <= 10; k++) {
                    double v = k == 0 ? base * 3 : base * (1 + 0.05 * rnd.nextGaussian());
                    samples.add(new Object[] {i, k, v});
                    if (k > 0) {
                        vals.add(v);
                    }
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("graph", graph);
                row.put("trace", "startup");
                row.put("layout", layouts[l]);
                row.put("status", "measured");
                row.put("states", 120 + l);
                row.put("transitions", 900 + 10 * l);
                row.put("ns_per_event_median", Stats.median(vals));
                row.put(
                        "ns_per_event_min",
                        vals.stream().mapToDouble(d -> d).min().orElseThrow());
                row.put(
                        "ns_per_event_max",
                        vals.stream().mapToDouble(d -> d).max().orElseThrow());
                row.put("noisy", false);
                row.put("speedup_vs_hash", l == 0 ? null : speed[0] / speed[l]);
                row.put("rejections", 0);
                row.put("prep_ms", 3.5 * (l + 1));
                row.put("payload_bytes", 4096L * (l + 1));
                rows.add(row);
                i++;
            }
        }
        write(dir, "graph-lookup", rows);
        try (BufferAllocator a = new RootAllocator();
                IntVector row = new IntVector("row", a);
                IntVector sample = new IntVector("sample", a);
                Float8Vector v = new Float8Vector("ns_per_event", a)) {
            int n = samples.size();
            row.allocateNew(n);
            sample.allocateNew(n);
            v.allocateNew(n);
            for (int k = 0; k < n; k++) {
                row.set(k, (Integer) samples.get(k)[0]);
                sample.set(k, (Integer) samples.get(k)[1]);
                v.set(k, (Double) samples.get(k)[2]);
            }
            writeRoot(dir.resolve("samples.arrow"), List.of(row, sample, v), n);
        }
        return dir;
    }

    /** The nearest-rank median, as the reproductions compute it (bench.Stats). */
    static double nearestMedian(double[] values) {
        double[] s = values.clone();
        java.util.Arrays.sort(s);
        return quantileSorted(s, 0.5);
    }

    /** A right-skewed sample: a base time, gaussian jitter, a run offset and a rare slow tail. */
    private static double draw(Random rnd, double median, boolean loaded, int run) {
        double v = median * (1 + 0.03 * rnd.nextGaussian()) + run * median * 0.01;
        if (rnd.nextDouble() < (loaded ? 0.05 : 0.01)) {
            v += median * (5 + 20 * rnd.nextDouble());
        }
        return Math.max(1, v);
    }

    private static void write(Path dir, String reproduction, List<Map<String, Object>> rows) throws IOException {
        java.nio.file.Files.createDirectories(dir);
        ObjectMapper m = new ObjectMapper();
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("reproduction", reproduction);
        top.put("schema_version", 2);
        top.put("interrupted", false);
        top.put("rows", rows);
        m.writerWithDefaultPrettyPrinter()
                .writeValue(dir.resolve("summary.json").toFile(), top);
        m.writerWithDefaultPrettyPrinter()
                .writeValue(dir.resolve("environment.json").toFile(), environment(reproduction));
    }

    /** A minimal environment.json of {@code reproduction}'s run: the host fields every folder has. */
    static Map<String, Object> environment(String reproduction) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("reproduction", reproduction);
        env.put("hostname", "synthetic");
        env.put("cpu_model", "synthetic");
        env.put("online_cpus", 2);
        env.put("kernel_release", "6.18.0");
        env.put("clocksource", "tsc");
        return env;
    }

    private static void writeFloorSamples(Path file, List<Sample> samples) throws IOException {
        try (BufferAllocator a = new RootAllocator();
                IntVector row = new IntVector("row", a);
                VarCharVector variant = new VarCharVector("variant", a);
                IntVector run = new IntVector("run", a);
                IntVector seq = new IntVector("seq", a);
                BigIntVector ns = new BigIntVector("ns", a)) {
            int n = samples.size();
            row.allocateNew(n);
            variant.allocateNew(n);
            run.allocateNew(n);
            seq.allocateNew(n);
            ns.allocateNew(n);
            for (int k = 0; k < n; k++) {
                Sample s = samples.get(k);
                row.set(k, s.row());
                variant.setSafe(k, s.variant().getBytes(StandardCharsets.UTF_8));
                run.set(k, s.run());
                seq.set(k, s.seq());
                ns.set(k, s.ns());
            }
            writeRoot(file, List.of(row, variant, run, seq, ns), n);
        }
    }

    private static void writeRoot(Path file, List<org.apache.arrow.vector.FieldVector> vectors, int n)
            throws IOException {
        for (var v : vectors) {
            v.setValueCount(n);
        }
        try (VectorSchemaRoot root = new VectorSchemaRoot(vectors);
                FileChannel ch = FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING);
                ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
            root.setRowCount(n);
            w.start();
            w.writeBatch();
            w.end();
        }
    }

    // The reproductions' definitions, restated independently so the fixture checks the library.
    /** The q-quantile (0..1) of sorted values by nearest rank; NaN for none. */
    private static double quantileSorted(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** (largest − smallest) / median of the per-run medians: how far runs disagree, as a fraction. */
    private static double spread(double[] runMedians) {
        if (runMedians.length == 0) {
            return Double.NaN;
        }
        double min = Arrays.stream(runMedians).min().orElseThrow();
        double max = Arrays.stream(runMedians).max().orElseThrow();
        double med = Stats.median(runMedians);
        return med == 0 ? Double.NaN : (max - min) / med;
    }
}
