package heimdall.lab.analysis;

import heimdall.lab.bench.SampleCounts;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * The samples behind one {@link Results}, from whichever of three sources the folder has: a run's exact
 * counts in memory ({@link Results#written}; samples.arrow is then never read), samples.arrow (read once, in
 * one streaming pass, and kept), or without it distributions.json ({@link Distributions}). Apart from
 * {@link Results} because choosing the source and keeping what was read is one job, and the public methods
 * on {@link Results} that answer from it document what each source can give.
 */
final class FolderSamples {
    private final Path dir;
    /** The samples as the run that measured them counted them, or null for a folder loaded from disk. */
    private final SampleCounts counted;

    private Table table;
    private Map<SampleKey, long[][]> grouped;
    private Distributions distilled;
    private final Map<SampleKey, Ecdf> ecdfs = new HashMap<>();

    FolderSamples(Path dir, SampleCounts counted) {
        this.dir = dir;
        this.counted = counted;
    }

    /** {@link Results#samples()}: samples.arrow (or distributions.json's batches) as a table, below the limit. */
    synchronized Table table() {
        if (table == null && distilledOnly() && distilled().batches() != null) {
            table = distilled().batches().copy();
        }
        if (table == null) {
            table = SamplesReader.readArrow(dir.resolve("samples.arrow"), Results.TABLE_SAMPLES_LIMIT);
        }
        return table;
    }

    /** {@link Results#hasCallSamples()}. */
    boolean hasCallSamples() {
        if (counted != null) {
            return true; // a SamplesFile holds per-call samples
        }
        Path file = dir.resolve("samples.arrow");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return distilledOnly() && distilled().hasSeries();
        }
        return SamplesReader.isCallSampleFile(file);
    }

    /** {@link Results#distilledOnly()}. */
    boolean distilledOnly() {
        return counted == null
                && !Files.exists(dir.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(dir.resolve(Distributions.FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /** {@link Results#hasSampleData()}. */
    boolean hasSampleData() {
        // Anything at the name counts: reading it then says why a link or FIFO there is refused.
        return counted != null
                || Files.exists(dir.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                || distilledOnly();
    }

    private synchronized Distributions distilled() {
        if (distilled == null) {
            distilled = Distributions.read(dir.resolve(Distributions.FILE));
        }
        return distilled;
    }

    /** {@link Results#hasSamples}. */
    boolean has(int row, String variant) {
        if (counted != null) {
            return countedSeries().containsKey(new SampleKey(row, variant));
        }
        return distilledOnly() ? distilled().has(row, variant) : runsOf(row, variant).length > 0;
    }

    /** {@link Results#samplesOf}: one array per run, shared; empty from distributions.json or counts. */
    long[][] runsOf(int row, String variant) {
        if (distilledOnly() || counted != null) {
            return new long[0][]; // per-run samples live only in samples.arrow; ecdfOf still answers
        }
        long[][] runs = grouped().get(new SampleKey(row, variant));
        return runs == null ? new long[0][] : runs;
    }

    /** {@link Results#ecdfOf}: computed once a series and kept. */
    Ecdf ecdfOf(int row, String variant) {
        if (distilledOnly()) {
            return distilled().ecdf(row, variant);
        }
        SampleKey key = new SampleKey(row, variant);
        synchronized (ecdfs) {
            Ecdf e = ecdfs.get(key);
            if (e == null && counted != null) {
                var s = countedSeries().get(key);
                e = s == null ? Ecdf.of(new long[0]) : ecdfOfCounted(s);
                ecdfs.put(key, e);
            } else if (e == null) {
                e = Ecdf.of(runsOf(row, variant));
                ecdfs.put(key, e);
            }
            return e;
        }
    }

    /** {@link Results#variants()}. */
    List<String> variants() {
        if (distilledOnly()) {
            return distilled().variants();
        }
        if (counted != null) {
            return countedSeries().keySet().stream()
                    .map(SampleKey::variant)
                    .distinct()
                    .toList();
        }
        return grouped().keySet().stream().map(SampleKey::variant).distinct().toList();
    }

    /** {@link Results#rowsWithSamples()}. */
    List<Integer> rows() {
        if (distilledOnly()) {
            return distilled().rows();
        }
        if (counted != null) {
            return countedSeries().keySet().stream()
                    .map(SampleKey::row)
                    .distinct()
                    .sorted()
                    .toList();
        }
        return grouped().keySet().stream()
                .map(SampleKey::row)
                .distinct()
                .sorted()
                .toList();
    }

    private synchronized Map<SampleKey, long[][]> grouped() {
        if (grouped == null) {
            grouped = SamplesReader.readCallSamples(dir.resolve("samples.arrow"));
        }
        return grouped;
    }

    /** The counted series of a run in memory, by key. */
    private Map<SampleKey, SampleCounts.Series> countedSeries() {
        Map<SampleKey, SampleCounts.Series> out = new LinkedHashMap<>();
        counted.series().forEach((k, v) -> out.put(new SampleKey(k.row(), k.variant()), v));
        return out;
    }

    /** The ECDF of a counted series: the order statistics {@link Ecdf#of} would pick from the sorted samples. */
    static Ecdf ecdfOfCounted(SampleCounts.Series s) {
        if (s.count() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(s.count() + " samples in one series do not fit one array");
        }
        int n = (int) s.count();
        if (n == 0) {
            return Ecdf.of(new long[0]);
        }
        int[] ranks = Ecdf.indices(n); // ascending, and holding the median's and the p99's ranks
        long[] values = s.valuesAtRanks(ranks);
        return Ecdf.ofSorted(n, i -> values[Arrays.binarySearch(ranks, i)]);
    }
}
