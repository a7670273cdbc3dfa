package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Site;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * An imported syscall graph (checked against its pins): its sites and entries, walks over it, and
 * its preparation into the follower's layouts ({@link #prepare()}).
 */
public final class GraphView implements Displayable {
    private final GraphFiles.Imported imported;
    private final String origin;

    GraphView(GraphFiles.Imported imported, String origin) {
        this.imported = imported;
        this.origin = origin;
    }

    /** The graph. */
    public Graph graph() {
        return imported.graph();
    }

    /** How it was imported: files, digests, pinned. */
    public GraphFiles.Imported imported() {
        return imported;
    }

    /** Where it came from: {@code files}, or {@code recorded from CMD}. */
    public String origin() {
        return origin;
    }

    /** Thread entries ({@code main}, {@code thread:...}) and signal entries ({@code signal:SIGUSR1}). */
    public List<String> entries() {
        return graph().entries();
    }

    /** One row a site: id, syscall number and name, call site, terminal, the entries it starts. */
    public Table table() {
        LongColumn id = LongColumn.create("site");
        IntColumn nr = IntColumn.create("syscall");
        StringColumn name = StringColumn.create("name");
        StringColumn function = StringColumn.create("function");
        BooleanColumn terminal = BooleanColumn.create("terminal");
        StringColumn first = StringColumn.create("first_of");
        for (Site s : graph().sites()) {
            id.append(s.id());
            nr.append(s.syscall());
            name.append(s.name());
            function.append(s.function());
            terminal.append(s.terminal());
            first.append(String.join(" ", s.firstOf()));
        }
        return Table.create(
                "graph (" + origin + "): " + graph().siteCount() + " sites", id, nr, name, function, terminal, first);
    }

    /**
     * A random walk of {@code length} events from thread entry {@code entry} (seeded, every call the
     * graph allows), for {@link PreparedView#replay}.
     */
    public int[] walk(String entry, int length, long seed) {
        requireThreadEntry(entry);
        if (length < 0 || length > 100_000_000) {
            throw BadInput.at("graph walk", "length", "must be 0..100,000,000, got " + length);
        }
        return Traces.walk(graph(), Traces.Spec.of(entry, length, seed));
    }

    /** As {@link #walk}, with a share of calls the graph does not allow mixed in ({@code invalidRate} 0..1). */
    public int[] walk(String entry, int length, long seed, double invalidRate) {
        requireThreadEntry(entry);
        if (!(invalidRate >= 0 && invalidRate <= 1)) {
            throw BadInput.at("graph walk", "invalidRate", "must be 0..1, got " + invalidRate);
        }
        return Traces.walk(graph(), Traces.Spec.of(entry, length, seed).withInvalidRate(invalidRate));
    }

    void requireThreadEntry(String entry) {
        if (entry == null || !graph().threadEntries().contains(entry)) {
            throw BadInput.at(
                    "graph", "entry", "'" + entry + "' is not a thread entry of this graph " + graph().threadEntries());
        }
    }

    /** Prepared in every layout; the follower's choice for this host ({@code auto}) is the one used. */
    public PreparedView prepare() {
        PreparedGraph pg = PreparedGraph.prepare(graph(), PreparedGraph.Options.defaults());
        return new PreparedView(this, pg, pg.auto().layout(), pg.auto().reason());
    }

    /** Prepared in every layout, {@code layout} ({@code hash}, {@code dfa-words}, ...) the one used. */
    public PreparedView prepare(String layout) {
        Layout l = Layout.parse(layout);
        if (l == null) {
            throw BadInput.at(
                    "graph prepare",
                    "layout",
                    "'" + layout + "' is not a layout "
                            + Arrays.stream(Layout.values()).map(Layout::wire).toList());
        }
        PreparedGraph pg = PreparedGraph.prepare(graph(), PreparedGraph.Options.defaults());
        return new PreparedView(this, pg, l, "asked for");
    }

    /** The headline: sites, calls, entries, whether pinned, where from. */
    @Override
    public Table headline() {
        return Headline.of("graph (" + origin + ")")
                .row("sites", graph().siteCount())
                .row(
                        "calls",
                        graph().sites().stream()
                                .mapToInt(Site::syscall)
                                .distinct()
                                .count())
                .row("entries", String.join(" ", entries()))
                .row("pinned", imported.pinned() ? "yes (sha256 checked)" : "no")
                .row("nodes", imported.nodes())
                .table();
    }

    /** One row a site ({@link #table()}). */
    @Override
    public Table detail() {
        return table();
    }

    /** Sites by system call, the 20 most frequent, a bar each. */
    @Override
    public CategoryChart chart() {
        Map<String, Long> bySyscall = new TreeMap<>();
        for (Site s : graph().sites()) {
            bySyscall.merge(s.name(), 1L, Long::sum);
        }
        List<Map.Entry<String, Long>> top = bySyscall.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(20)
                .toList();
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("sites by system call: graph (" + origin + ")")
                .xAxisTitle("call")
                .yAxisTitle("sites")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(45);
        if (top.isEmpty()) {
            chart.addSeries("sites", List.of("none"), List.of(0));
        } else {
            chart.addSeries(
                    "sites",
                    top.stream().map(Map.Entry::getKey).toList(),
                    top.stream().map(Map.Entry::getValue).toList());
        }
        return chart;
    }

    /** The headline, one figure a line, and the first sites. */
    @Override
    public String toString() {
        return text();
    }
}
