package heimdall.lab.explore;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Host;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Writes a session's measurements as an ordinary results folder of floor-cost's kind: a row per
 * measurement under a floor with its bare baseline, {@code summary.json}, {@code environment.json},
 * {@code samples.arrow} (variants {@code filtered} and {@code none}, as floor-cost writes them) and
 * {@code table.md}, through {@link ResultsFolder} (made exclusively, published whole). The one place
 * the exploring API names a result kind.
 */
final class SessionFolder {
    /** The reproduction whose rows these are: floor-cost's, so {@code ./lab compare} lines them up with its. */
    /** A session is saved as a floor-cost folder: the rows are floor-cost rows. */
    static final ReproductionKind<FloorCostRow, ?> KIND = ReproductionKind.of(FloorCostRow.class);

    private SessionFolder() {}

    /** A measurement, what made it, and its baseline (null: none). */
    record Row(Measurement measured, Session.Origin origin, Measurement baseline) {}

    /** What environment.json says the session measured with, beside the host's facts. */
    record Settings(
            @JsonProperty("made_by") String madeBy,
            @JsonProperty("rows") int rows,
            @JsonProperty("java") String java) {}

    /**
     * Writes {@code rows} into {@code dir} (null: a new {@code results/<date>-<host>-explore[-N]}) and
     * returns the published folder.
     */
    static Path write(Path dir, List<Row> rows) {
        Instant started = Instant.now();
        Host host = Host.capture();
        ResultsFolder folder = dir == null
                ? ResultsFolder.allocate(Fixtures.resultsRoot(), LocalDate.now(), host.hostname(), "explore")
                : ResultsFolder.chosen(dir);
        try {
            List<FloorCostRow> summary = new ArrayList<>();
            try (SamplesFile samples = folder.createSamples()) {
                for (int i = 0; i < rows.size(); i++) {
                    Row r = rows.get(i);
                    FloorRow row = floorRow(r);
                    List<long[]> baseline =
                            r.baseline() == null ? List.of() : r.baseline().runs();
                    for (int run = 0; run < r.measured().runs().size(); run++) {
                        samples.append(i, "filtered", run, r.measured().runs().get(run));
                    }
                    for (int run = 0; run < baseline.size(); run++) {
                        samples.append(i, "none", run, baseline.get(run));
                    }
                    FloorBench.Measured m = new FloorBench.Measured(
                            row,
                            r.measured().runs(),
                            baseline,
                            -1,
                            List.of(),
                            null,
                            r.measured().cpu(),
                            List.of());
                    summary.add(FloorSummary.of(
                            m, r.measured().runsAsked(), r.measured().interrupted()));
                }
            }
            folder.writeSummary(KIND, Optional.empty(), summary);
            folder.writeEnvironment(
                    KIND.name(),
                    Optional.empty(),
                    started,
                    Instant.now(),
                    host,
                    new Settings(
                            "a heimdall.lab.explore session (Lab.session().save())",
                            rows.size(),
                            ResultsFolder.javaVm()));
            folder.writeTable(
                    Optional.empty(),
                    "rows have fewer runs than asked (runs_completed in summary.json)",
                    table(summary));
            return folder.publish();
        } catch (RuntimeException e) {
            folder.abandon();
            throw e;
        }
    }

    /** The row as floor-cost describes one: the floors stacked as one floor, the call as the runner made it. */
    private static FloorRow floorRow(Row r) {
        List<Floor> floors = r.origin().floors();
        String what = String.join(" + ", floors.stream().map(Floor::name).toList());
        Floor stacked = new Floor(
                what, floors.stream().flatMap(f -> f.programs().stream()).toList(), -1);
        return new FloorRow(what, stacked, r.origin().call(), null, null);
    }

    private static String table(List<FloorCostRow> rows) {
        StringBuilder md = new StringBuilder("# measurements saved from a notebook session\n\n");
        md.append("| row | what | call | median ns | none ns | added ns | runs |\n");
        md.append("| ---: | --- | --- | ---: | ---: | ---: | ---: |\n");
        for (int i = 0; i < rows.size(); i++) {
            FloorCostRow r = rows.get(i);
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %s | %s | %s | %s | %s |%n",
                    i,
                    r.what().replace("|", "\\|"),
                    r.call().replace("|", "\\|"),
                    r.medianNs(),
                    r.medianNoneNs(),
                    r.addedNs(),
                    r.runsCompleted()));
        }
        return md.toString();
    }
}
