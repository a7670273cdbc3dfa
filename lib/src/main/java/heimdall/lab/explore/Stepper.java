package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.Trace;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A cursor stepped by hand, keeping each decision: {@code step("getppid")}, {@code deliver("signal:SIGUSR1")},
 * {@code reset()}, or a whole trace with {@link #run(int[])}. Owned by one thread, as a cursor is.
 */
public final class Stepper implements Displayable {
    private final Graph graph;
    private final List<String> signals;
    private final Cursor cursor;
    private final String label;
    private final List<Decision> decisions = new ArrayList<>();

    Stepper(Graph graph, List<String> signals, Cursor cursor, String label) {
        this.graph = graph;
        this.signals = List.copyOf(signals);
        this.cursor = cursor;
        this.label = label;
    }

    /** Judges call {@code nr} (0..); a number beyond the graph's calls is denied, not refused. */
    public Decision step(int nr) {
        if (nr < 0) {
            throw BadInput.at("cursor", "nr", "a call number is 0 or more, got " + nr);
        }
        int before = cursor.state();
        boolean ok = cursor.step(nr);
        return record(SyscallTable.x86_64().name(nr).orElse("#" + nr), nr, ok, before);
    }

    /** Judges a call by its x86_64 name. */
    public Decision step(String call) {
        int nr = SyscallTable.x86_64()
                .number(call == null ? "" : call.trim())
                .orElseThrow(() -> BadInput.at("cursor", "call", "'" + call + "' is not an x86_64 system call"));
        return step(nr);
    }

    /** Judges calls one after another. */
    public List<Decision> steps(String... calls) {
        List<Decision> out = new ArrayList<>();
        for (String c : calls) {
            out.add(step(c));
        }
        return out;
    }

    /** Delivers a signal entry ({@code signal:SIGUSR1}); refused (not allowed) when too deep. */
    public Decision deliver(String signal) {
        int k = signals.indexOf(signal);
        if (k < 0) {
            throw BadInput.at("cursor", "signal", "'" + signal + "' is not a signal entry of this graph " + signals);
        }
        int before = cursor.state();
        boolean ok = cursor.deliver(k);
        return record(signal, Trace.signal(k), ok, before);
    }

    /** Back to the entry's start (a thread ended, a new one begins). */
    public Decision reset() {
        int before = cursor.state();
        cursor.reset();
        return record("reset", Trace.RESET, true, before);
    }

    /** Applies a trace event by event ({@link Trace}'s encoding), keeping each decision; returns the denials. */
    public int run(int[] trace) {
        int denied = 0;
        for (int e : trace) {
            Decision d = e == Trace.RESET ? reset() : Trace.isSignal(e) ? deliverIndex(Trace.signalOf(e)) : step(e);
            if (!d.allowed()) {
                denied++;
            }
        }
        return denied;
    }

    private Decision deliverIndex(int k) {
        if (k >= signals.size()) {
            int before = cursor.state();
            return record("signal #" + k, Trace.signal(k), cursor.deliver(k), before);
        }
        return deliver(signals.get(k));
    }

    private Decision record(String event, int nr, boolean ok, int before) {
        Decision d = new Decision(decisions.size() + 1, event, nr, ok, before, cursor.state(), cursor.depth());
        decisions.add(d);
        return d;
    }

    /** Every decision so far. */
    public List<Decision> decisions() {
        return List.copyOf(decisions);
    }

    /** How many decisions denied. */
    public long denied() {
        return decisions.stream().filter(d -> !d.allowed()).count();
    }

    /** One row a decision. */
    public Table table() {
        IntColumn step = IntColumn.create("step");
        StringColumn event = StringColumn.create("event");
        BooleanColumn allowed = BooleanColumn.create("allowed");
        IntColumn before = IntColumn.create("state_before");
        IntColumn after = IntColumn.create("state_after");
        IntColumn depth = IntColumn.create("depth");
        for (Decision d : decisions) {
            step.append(d.step());
            event.append(d.event());
            allowed.append(d.allowed());
            before.append(d.stateBefore());
            after.append(d.stateAfter());
            depth.append(d.depth());
        }
        return Table.create("cursor " + label, step, event, allowed, before, after, depth);
    }

    /** The state after each step; denied steps marked. */
    public XYChart plot() {
        XYChart chart = new XYChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("cursor " + label + ": state by step")
                .xAxisTitle("step")
                .yAxisTitle("state")
                .build();
        List<Integer> x = new ArrayList<>();
        List<Integer> y = new ArrayList<>();
        List<Integer> dx = new ArrayList<>();
        List<Integer> dy = new ArrayList<>();
        for (Decision d : decisions) {
            x.add(d.step());
            y.add(d.stateAfter());
            if (!d.allowed()) {
                dx.add(d.step());
                dy.add(d.stateAfter());
            }
        }
        if (x.isEmpty()) {
            x.add(0);
            y.add(cursor.state());
        }
        chart.addSeries("state", x, y).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        if (!dx.isEmpty()) {
            chart.addSeries("denied", dx, dy).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
        return chart;
    }

    /** The graph the cursor follows. */
    public Graph graph() {
        return graph;
    }

    /** The headline: decisions, denials, the state and depth now. */
    @Override
    public Table headline() {
        return Headline.of("cursor " + label)
                .row("decisions", decisions.size())
                .row("denied", denied())
                .row("state", cursor.state())
                .row("depth", cursor.depth())
                .table();
    }

    /** One row a decision ({@link #table()}). */
    @Override
    public Table detail() {
        return table();
    }

    /** The state by step ({@link #plot()}). */
    @Override
    public XYChart chart() {
        return plot();
    }

    /** The headline, one figure a line, and the first decisions. */
    @Override
    public String toString() {
        return text();
    }
}
