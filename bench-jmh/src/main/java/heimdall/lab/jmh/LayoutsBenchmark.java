package heimdall.lab.jmh;

import heimdall.lab.BadInput;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.SyntheticGraph;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.prepared.AutoLayout;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.graphlookup.GraphLookup;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Auto's pick against every other DFA layout: each case of {@code ./lab reproduce graph-lookup} (the
 * checked-in fixtures' walks, the synthetic graphs' hot and broad traces, the same seeds) or a recorded
 * graph, replayed through each layout with {@link Cursor#replay}, one whole trace per invocation. The
 * trial of the layout {@link AutoLayout} picks for the case prints auto's reason, so JMH's table shows
 * auto's figure beside the best one. This is where the speed of auto's rule is shown; the unit test
 * ({@code AutoLayoutTest}) asserts the rule itself, since a timed assertion on a shared host fails on
 * noise.
 *
 * <p>A case is {@code GRAPH@TRACE}: a fixture ({@code abcdf}, {@code broker}) or a recorded graph's
 * path without {@link GraphFiles#NODES_SUFFIX} (its pins beside it, as {@code ./lab graph record}
 * writes them) with the thread entry whose walk is replayed ({@link GraphLookup#walkTrace}); or
 * {@code synthetic-N@hot} / {@code synthetic-N@broad}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LayoutsBenchmark {
    /** Events per trace, as {@link ReplayBenchmark#EVENTS}: the score (µs per replay) / 2,000 is ns/event. */
    public static final int EVENTS = ReplayBenchmark.EVENTS;

    @Param({
        "abcdf@main",
        "broker@main",
        "broker@thread:loop",
        "synthetic-64@hot",
        "synthetic-64@broad",
        "synthetic-4096@hot",
        "synthetic-4096@broad",
        "synthetic-32768@hot",
        "synthetic-32768@broad"
    })
    public String graphCase;

    @Param({
        "dfa-words",
        "dfa-offsets",
        "dfa-compact",
        "dfa-min-words",
        "dfa-min-offsets",
        "dfa-min-compact",
        "dfa-min-narrow"
    })
    public String layout;

    private Cursor cursor;
    private int[] events;

    @Setup(Level.Trial)
    public void prepare() {
        Cpus.pinCurrentThread(Integer.getInteger("graph.cpu", Cpus.measuring()));
        Layout l = Layout.parse(layout);
        int at = graphCase.lastIndexOf('@');
        if (l == null || l.reference() || at <= 0) {
            throw new BadInput("LayoutsBenchmark: layout '" + layout + "' and case '" + graphCase
                    + "' must be a dfa-* layout and GRAPH@TRACE");
        }
        String name = graphCase.substring(0, at);
        String trace = graphCase.substring(at + 1);
        Graph g;
        if (name.startsWith("synthetic-")) {
            int states = Integer.parseInt(name.substring("synthetic-".length()));
            SyntheticGraph sg = SyntheticGraph.build(states, 0x5eed_0000L + states);
            g = sg.graph();
            Traces.Spec spec = switch (trace) {
                case "hot" -> sg.hotSpec(EVENTS, 0x40 + states);
                case "broad" -> sg.broadSpec(EVENTS, 0xb0 + states);
                default ->
                    throw new BadInput("LayoutsBenchmark: case '" + graphCase + "': a synthetic trace is hot or broad");
            };
            events = Traces.walk(g, spec.withInvalidRate(0.01));
            trace = SyntheticGraph.MAIN;
        } else {
            Path prefix = name.contains("/")
                    ? Path.of(name)
                    : Fixtures.home().resolve("fixtures/graphs").resolve(name);
            g = GraphFiles.readPinned(
                            Path.of(prefix + GraphFiles.NODES_SUFFIX), Path.of(prefix + GraphFiles.EDGES_SUFFIX))
                    .graph();
            events = GraphLookup.walkTrace(g, trace, EVENTS);
        }
        PreparedGraph pg =
                PreparedGraph.prepare(g, PreparedGraph.Options.defaults().withLayouts(List.of(l)));
        AutoLayout auto = pg.auto();
        if (auto.layout() == l) {
            System.out.println("LayoutsBenchmark " + graphCase + ": " + l + " is auto's pick: " + auto.reason());
        }
        cursor = pg.layout(l).cursor(trace);
    }

    @Benchmark
    public int replay() {
        cursor.reset();
        return cursor.replay(events);
    }
}
