package heimdall.lab.explore;

import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import java.util.List;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A measured brokered round trip: the child's samples (ns an {@code openat}, supervisor included)
 * and what the supervisor decided, run by run.
 *
 * @param supervisor {@code native} or {@code java}
 * @param answer the fixed answer, or {@code policy}
 * @param measurement the timed calls
 * @param stats each run's supervisor counters: received, continued, brokered, errored, valued, refused
 * @param lastOutcome what the child's last call returned ({@code "3"}, {@code "-1 EACCES"})
 * @param policyFailure the first exception the Java policy threw (that call was answered EPERM), or null
 */
public record RoundTrip(
        String supervisor,
        String answer,
        Measurement measurement,
        List<SupervisorStats> stats,
        String lastOutcome,
        String policyFailure)
        implements Displayable {
    public RoundTrip {
        stats = List.copyOf(stats);
    }

    /** The median round trip, ns. */
    public long median() {
        return measurement.median();
    }

    /** What the round trip adds over {@code baseline} (the same openat with no filter, say). */
    public Added addedOver(Measurement baseline) {
        return measurement.addedOver(baseline);
    }

    /** One row a run: the supervisor's decisions. */
    public Table decisions() {
        IntColumn run = IntColumn.create("run");
        LongColumn received = LongColumn.create("received");
        LongColumn continued = LongColumn.create("continued");
        LongColumn brokered = LongColumn.create("brokered");
        LongColumn errored = LongColumn.create("errored");
        LongColumn valued = LongColumn.create("valued");
        LongColumn refused = LongColumn.create("refused");
        LongColumn failures = LongColumn.create("failures");
        for (int i = 0; i < stats.size(); i++) {
            SupervisorStats s = stats.get(i);
            run.append(i + 1);
            received.append(s.received());
            continued.append(s.continued());
            brokered.append(s.brokered());
            errored.append(s.errored());
            valued.append(s.valued());
            refused.append(s.refused());
            failures.append(s.failures());
        }
        return Table.create(
                "decisions: " + measurement.label(),
                run,
                received,
                continued,
                brokered,
                errored,
                valued,
                refused,
                failures);
    }

    /** One row: the figures and the decisions summed. */
    public Table table() {
        Table t = measurement.table();
        t.addColumns(
                StringColumn.create("supervisor", supervisor),
                StringColumn.create("answer", answer),
                LongColumn.create(
                        "received",
                        stats.stream().mapToLong(SupervisorStats::received).sum()),
                LongColumn.create(
                        "answered",
                        stats.stream().mapToLong(SupervisorStats::answered).sum()),
                StringColumn.create("last_outcome", String.valueOf(lastOutcome)));
        return t;
    }

    /** The round trips' distribution (ECDF). */
    public XYChart plot() {
        return measurement.plot();
    }

    /** The floor the child ran under ({@link Lab#BROKER_FLOOR} for the broker filter alone). */
    public String floor() {
        return measurement.floors().isEmpty() ? "no filter" : String.join(" + ", measurement.floors());
    }

    /** The headline: supervisor, answer, floor, median and p99 of the round trip, the decisions summed. */
    @Override
    public Table headline() {
        return Headline.of("round trip: " + measurement.label())
                .row("supervisor", supervisor)
                .row("answer", answer)
                .row("median", Headline.ns(median()))
                .row("p99", Headline.ns(measurement.p99()))
                .row(
                        "runs",
                        measurement.runs().size() + " of " + measurement.runsAsked()
                                + (measurement.interrupted() ? " (interrupted)" : ""))
                .row(
                        "received",
                        Headline.count(stats.stream()
                                .mapToLong(SupervisorStats::received)
                                .sum()))
                .row(
                        "answered",
                        Headline.count(stats.stream()
                                .mapToLong(SupervisorStats::answered)
                                .sum()))
                .row("last call", lastOutcome)
                .row("policy failure", policyFailure == null ? "none" : policyFailure)
                .row("under", floor())
                .table();
    }

    /** The supervisor's decisions, one row a run ({@link #decisions()}). */
    @Override
    public Table detail() {
        return decisions();
    }

    /** The round trips' ECDF ({@link #plot()}). */
    @Override
    public XYChart chart() {
        return plot();
    }

    /** The headline, one figure a line, and the decisions a run. */
    @Override
    public String toString() {
        return text();
    }
}
