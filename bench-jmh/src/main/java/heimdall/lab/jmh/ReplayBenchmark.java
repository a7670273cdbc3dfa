package heimdall.lab.jmh;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The graph-lookup step loop under JMH: the same checked-in graph, the same prepared table and the
 * same walked trace ({@link GraphLookup#walkTrace}) as {@code ./lab reproduce graph-lookup}, replayed
 * with {@link Cursor#replay} from a reset cursor per invocation. The score (µs per replay) divided by the
 * trace's events reads in ns/event like the harness's figure. Sample-time mode: every invocation (one
 * whole-trace replay, like one harness batch) is timed, so JMH reports the distribution's median
 * beside its mean; the median is comparable with the harness's median of batches on a shared host,
 * where a mean over whole seconds also counts the time slices other processes take from the CPU. The benchmark thread
 * pins itself to
 * {@code -Dgraph.cpu} (default: the harness's default CPU).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReplayBenchmark {
    /**
     * Events per trace. The score is µs per invocation (one whole-trace replay); the runner divides by
     * this number for ns/event. (Not @OperationsPerInvocation: sample-time percentiles would then be
     * rounded to whole ns/op, too coarse for a figure of a few ns.)
     */
    public static final int EVENTS = 2_000_000;

    @Param({"broker"})
    public String graph;

    @Param({"main"})
    public String entry;

    @Param({"dfa-offsets"})
    public String layout;

    private Cursor cursor;
    private int[] events;

    @Setup(Level.Trial)
    public void prepare(BenchmarkParams params) {
        int cpu = Integer.getInteger("graph.cpu", Cpus.measuring());
        Cpus.pinCurrentThread(cpu);
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        Graph g = GraphFiles.readPinned(
                        dir.resolve(graph + GraphFiles.NODES_SUFFIX), dir.resolve(graph + GraphFiles.EDGES_SUFFIX))
                .graph();
        Layout l = Layout.parse(layout);
        PreparedGraph pg =
                PreparedGraph.prepare(g, PreparedGraph.Options.defaults().withLayouts(List.of(l)));
        cursor = pg.layout(l).cursor(entry);
        events = GraphLookup.walkTrace(g, entry, EVENTS);
    }

    @Benchmark
    public int replay() {
        cursor.reset();
        return cursor.replay(events);
    }
}
