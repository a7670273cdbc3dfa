package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A graph prepared in every layout, one of them chosen: replay traces through them, or step a cursor
 * by hand ({@link #cursor}).
 */
public final class PreparedView implements Displayable {
    private final GraphView graph;
    private final PreparedGraph prepared;
    private final Layout layout;
    private final String reason;

    PreparedView(GraphView graph, PreparedGraph prepared, Layout layout, String reason) {
        this.graph = graph;
        this.prepared = prepared;
        this.layout = layout;
        this.reason = reason;
        prepared.layout(layout); // a refused layout is refused now, with its reason
    }

    /** The layout used by {@link #replay} and {@link #cursor}. */
    public Layout layout() {
        return layout;
    }

    /** Why that layout: {@code auto}'s one-line reason, or {@code asked for}. */
    public String reason() {
        return reason;
    }

    /** Everything prepared: the machine, the minimized one, every layout. */
    public PreparedGraph prepared() {
        return prepared;
    }

    /** A cursor at thread entry {@code entry}, recording each decision. */
    public Stepper cursor(String entry) {
        graph.requireThreadEntry(entry);
        Prepared p = prepared.layout(layout);
        return new Stepper(graph.graph(), p.signals(), p.cursor(entry), layout.wire() + " @ " + entry);
    }

    /**
     * Replays {@code trace} from {@code entry} in the chosen layout, {@code repeats} times after as
     * many untimed ones (this JVM's loop, for a rough figure; {@code ./lab reproduce graph-lookup}
     * measures properly).
     */
    public Replay replay(String entry, int[] trace, int repeats) {
        return replay(layout, entry, trace, repeats);
    }

    private Replay replay(Layout l, String entry, int[] trace, int repeats) {
        graph.requireThreadEntry(entry);
        if (repeats < 1 || repeats > 1_000_000) {
            throw BadInput.at("replay", "repeats", "must be 1..1,000,000, got " + repeats);
        }
        Prepared p = prepared.layout(l);
        int rejections = 0;
        for (int i = 0; i < repeats; i++) {
            rejections = p.cursor(entry).replay(trace);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < repeats; i++) {
            rejections = p.cursor(entry).replay(trace);
        }
        long nanos = System.nanoTime() - t0;
        return new Replay(l.wire(), trace.length, rejections, repeats, nanos, p.payloadBytes());
    }

    /** {@link #replay} in every layout that was prepared: the rejections must agree. */
    public List<Replay> replayEach(String entry, int[] trace, int repeats) {
        List<Replay> out = new ArrayList<>();
        for (Layout l : prepared.layouts().keySet()) {
            out.add(replay(l, entry, trace, repeats));
        }
        return out;
    }

    /** One row a replay. */
    public static Table table(List<Replay> replays) {
        StringColumn layout = StringColumn.create("layout");
        IntColumn events = IntColumn.create("events");
        IntColumn rejections = IntColumn.create("rejections");
        DoubleColumn ns = DoubleColumn.create("ns_per_event");
        LongColumn bytes = LongColumn.create("payload_bytes");
        for (Replay r : replays) {
            layout.append(r.layout());
            events.append(r.events());
            rejections.append(r.rejections());
            ns.append(Math.round(r.nsPerEvent() * 100) / 100.0);
            bytes.append(r.payloadBytes());
        }
        return Table.create("replays", layout, events, rejections, ns, bytes);
    }

    /** ns an event, a bar per layout. */
    public static CategoryChart plot(List<Replay> replays) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("replay: ns per event by layout (this JVM, rough)")
                .xAxisTitle("layout")
                .yAxisTitle("ns per event")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.addSeries(
                "ns/event",
                replays.stream().map(Replay::layout).toList(),
                replays.stream().map(Replay::nsPerEvent).toList());
        return chart;
    }

    /** One row a layout: payload bytes, or why it was refused. */
    public Table layouts() {
        StringColumn name = StringColumn.create("layout");
        LongColumn bytes = LongColumn.create("payload_bytes");
        StringColumn note = StringColumn.create("note");
        for (Map.Entry<Layout, Prepared> e : prepared.layouts().entrySet()) {
            name.append(e.getKey().wire());
            bytes.append(e.getValue().payloadBytes());
            note.append(e.getKey() == layout ? "used (" + reason + ")" : "");
        }
        for (Map.Entry<Layout, String> e : prepared.refusals().entrySet()) {
            name.append(e.getKey().wire());
            bytes.appendMissing();
            note.append("refused: " + e.getValue());
        }
        return Table.create(
                "layouts: " + prepared.machine().states() + " states, "
                        + prepared.minimized().states() + " minimized",
                name,
                bytes,
                note);
    }

    /** The machine's state count (the minimized one's for {@code dfa-min-*} layouts). */
    public int states() {
        return layout.minimized()
                ? prepared.minimized().states()
                : prepared.machine().states();
    }

    /** The headline: the layout used and why, its payload, the machine's states, the layouts refused. */
    @Override
    public Table headline() {
        return Headline.of("prepared " + layout.wire())
                .row("layout", layout.wire())
                .row("why", reason)
                .row("payload", Headline.count(prepared.layout(layout).payloadBytes()) + " bytes")
                .row(
                        "states",
                        prepared.machine().states() + " ("
                                + prepared.minimized().states() + " minimized)")
                .row(
                        "layouts",
                        prepared.layouts().size() + " prepared, "
                                + prepared.refusals().size() + " refused")
                .table();
    }

    /** One row a layout ({@link #layouts()}). */
    @Override
    public Table detail() {
        return layouts();
    }

    /** Payload bytes by layout, a bar each (refused layouts absent). */
    @Override
    public CategoryChart chart() {
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("payload bytes by layout (" + layout.wire() + " used)")
                .xAxisTitle("layout")
                .yAxisTitle("payload bytes")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(30);
        List<String> names = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        for (Map.Entry<Layout, Prepared> e : prepared.layouts().entrySet()) {
            names.add(e.getKey().wire());
            bytes.add(e.getValue().payloadBytes());
        }
        chart.addSeries("payload bytes", names, bytes);
        return chart;
    }

    /** The headline, one figure a line, and one line a layout. */
    @Override
    public String toString() {
        return text();
    }

    /** The layout's own cursor at {@code entry}, recording nothing (for loops of your own). */
    public Cursor bareCursor(String entry) {
        graph.requireThreadEntry(entry);
        return prepared.layout(layout).cursor(entry);
    }
}
