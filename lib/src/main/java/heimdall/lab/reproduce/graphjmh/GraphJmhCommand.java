package heimdall.lab.reproduce.graphjmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.prepared.AutoLayout;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.RunOutcome;
import heimdall.lab.reproduce.Stoppable;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.reproduce.graphlookup.GraphLookup;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.DieWithJvm;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./lab graph jmh}: the JMH cross-check of the replay harness. Replays the broker graph's
 * {@code walk main} trace through the layout {@code auto} picks (or {@code --layout}) the way {@code ./lab reproduce
 * graph-lookup} does
 * (pinned thread, JIT warm-up, warm-up batch, {@code GRAPH_BENCH_SAMPLES} batches; median; three runs,
 * the middle median compared), then runs
 * {@code heimdall.lab.jmh.ReplayBenchmark} (module {@code bench-jmh}) on the same graph, table and trace
 * in a forked JMH JVM pinned to the same CPU, and prints both figures and their ratio.
 */
public final class GraphJmhCommand implements Command {
    /** The ratio band issue 6 asks the two figures to agree within. */
    public static final double AGREEMENT = 0.15;

    static final String BENCHMARK = "heimdall.lab.jmh.ReplayBenchmark";

    private static final CommandOptions OPTIONS =
            CommandOptions.of(Set.of("--quick"), Set.of("--layout", "--entry", "--out"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "graph jmh";
    }

    @Override
    public String summary() {
        return "cross-check the graph-lookup replay harness with JMH (the auto layout on the broker graph)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab graph jmh [--layout L|auto] [--entry E] [--quick]

                Measures the broker graph's walked trace (2,000,000 events, the graph-lookup trace for entry E,
                default main) through layout L (default auto: the layout auto picks for the broker graph here) twice: with the replay harness of
                ./lab reproduce graph-lookup (pinned, JIT warm-up, 1 warm-up + GRAPH_BENCH_SAMPLES batches, median;
                three such runs, the middle median compared),
                and with JMH 1.37 (module bench-jmh: 1 fork, 5 x 1 s warm-up, 7 x 1 s measurement, sample time: each
                whole-trace replay timed; the benchmark thread pinned to the same CPU). Prints the harness median, JMH's
                median and mean in ns/event, and JMH median / harness median (and mean / harness), and writes
                them to a results folder (summary.json, environment.json, jmh.json, table.md).
                Builds bench-jmh with Maven first when it has not been built.

                  --quick   JMH 3 x 1 s warm-up and 3 x 1 s measurement; 3 harness batches
                  --out DIR the results folder (absent or empty); default results/<date>-<host>-graph-jmh[-N]/

                Environment: GRAPH_BENCH_CPU (default: the highest allowed CPU), GRAPH_BENCH_SAMPLES (7).
                Exit status: 0 both measured (agreement is printed, not enforced); 1 refused (bench-jmh cannot be
                built or JMH failed); 2 bad input.
                """;
    }

    @Override
    public int run(List<String> argv) throws Exception {
        Args args = Args.parse("graph jmh", argv, OPTIONS).atMost(0);
        ResultsFolder folder = args.value("--out")
                .map(o -> ResultsFolder.chosen(Path.of(o)))
                .orElseGet(() -> ResultsFolder.defaultFolder("graph-jmh"));
        boolean quick = args.flag("--quick");
        String layoutName = args.value("--layout").orElse("auto");
        Layout layout = layoutName.equals("auto") ? autoForBroker() : Layout.parse(layoutName);
        if (layout == null) {
            throw new BadInput(
                    "option --layout: unknown layout '" + layoutName + "'; one of auto, " + List.of(Layout.values()));
        }
        String entry = args.value("--entry").orElse("main");
        // Ctrl-C/SIGTERM stop it like every reproduction (Stoppable): JMH's JVM is ended, nothing is kept.
        RunOutcome<Integer> outcome = Stoppable.run(
                "graph jmh",
                folder,
                System.err::println,
                session -> {
                    try {
                        return measure(session, quick, layout, entry);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                status -> Optional.empty(),
                status -> true); // a stop throws: it keeps nothing partial
        if (outcome instanceof RunOutcome.Failed<Integer> f) {
            throw f.error();
        }
        return outcome instanceof RunOutcome.Nothing<Integer> n
                ? n.cause().exitStatus()
                : ((RunOutcome.Complete<Integer>) outcome).result();
    }

    private static int measure(Session session, boolean quick, Layout layout, String entry)
            throws IOException, InterruptedException {
        ResultsFolder folder = session.folder();
        GraphBenchSettings s = GraphBenchSettings.fromEnvironment(false);
        int samples = quick && System.getenv("GRAPH_BENCH_SAMPLES") == null ? 3 : s.samples();
        PrintStream out = System.out;
        Path home = Fixtures.home();
        Host host = Host.capture();
        Instant started = Instant.now();

        // The harness's protocol three times over (a 7-batch run lasts tens of milliseconds, so one burst of
        // load on a shared host can move it); the middle of the three medians is compared.
        double[] runs = new double[HARNESS_RUNS];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = harness(home, layout, entry, samples, s.cpu(), session);
        }
        JsonNode result = jmh(home, layout, entry, s.cpu(), quick, session);
        GraphJmhRow row = row(entry, layout, runs, result);
        out.printf(
                Locale.ROOT,
                "replay harness: %s on broker (walk %s), %,d events: %.3f ns/event (middle of %d runs' medians %s; "
                        + "each run 1 warm-up + %d batches, CPU %d)%n",
                layout,
                entry,
                EVENTS,
                row.harnessNsPerEvent(),
                runs.length,
                Arrays.stream(runs)
                        .mapToObj(r -> String.format(Locale.ROOT, "%.3f", r))
                        .toList(),
                samples,
                s.cpu());
        JsonNode metric = result.path("primaryMetric");
        out.printf(
                Locale.ROOT,
                "JMH %s: %s on broker (walk %s): median %.3f ns/event, mean %.3f ± %.3f ns/event "
                        + "(sample time of whole-trace replays in %s / %,d events, %d fork x %d iterations of 1 s, "
                        + "%d invocations timed)%n",
                result.path("jmhVersion").asText(),
                layout,
                entry,
                row.jmhMedianNsPerEvent(),
                row.jmhMeanNsPerEvent(),
                row.jmhErrorNsPerEvent(),
                metric.path("scoreUnit").asText(),
                EVENTS,
                result.path("forks").asInt(),
                result.path("measurementIterations").asInt(),
                countSamples(metric));
        out.printf(
                Locale.ROOT,
                "JMH median / harness median = %.3f (issue 6 asks for agreement within %.0f%%: %s); "
                        + "JMH mean / harness median = %.3f%n",
                row.jmhOverHarness(),
                AGREEMENT * 100,
                row.agreesWithin15Percent() ? "agrees" : "does NOT agree",
                row.jmhMeanNsPerEvent() / row.harnessNsPerEvent());
        GraphJmhSettings settings = new GraphJmhSettings(
                s.cpu(),
                quick,
                HARNESS_RUNS,
                samples,
                result.path("jmhVersion").asText(),
                result.path("mode").asText(),
                result.path("forks").asInt(),
                result.path("warmupIterations").asInt(),
                result.path("measurementIterations").asInt(),
                countSamples(metric));
        out.println(keep(folder, quick, new Recorded<>(List.of(row), settings, host, started, Instant.now()), result));
        return 0;
    }

    /**
     * The row of a measurement: the harness runs' medians (the middle one compared) beside JMH's result
     * ({@code jmh.json}'s first benchmark, its times in us per whole-trace replay), in ns per event, with
     * JMH's own interval of its mean ({@code scoreConfidence}, at JMH's 99.9%; none when JMH gives no
     * finite one). A refusal when JMH's unit is not us/op.
     */
    static GraphJmhRow row(String entry, Layout layout, double[] runs, JsonNode result) {
        JsonNode metric = result.path("primaryMetric");
        if (!metric.path("scoreUnit").asText().equals("us/op")) {
            throw new Refusal("JMH reported " + metric.path("scoreUnit").asText() + ", expected us/op");
        }
        double[] sorted = runs.clone();
        Arrays.sort(sorted);
        double harness = sorted[sorted.length / 2];
        double perEvent = 1000.0 / EVENTS; // us per replay -> ns per event
        double mean = metric.path("score").asDouble() * perEvent;
        double error = metric.path("scoreError").asDouble(Double.NaN) * perEvent;
        double p50 = metric.path("scorePercentiles").path("50.0").asDouble(Double.NaN) * perEvent;
        JsonNode confidence = metric.path("scoreConfidence");
        double low = confidence.path(0).asDouble(Double.NaN) * perEvent;
        double high = confidence.path(1).asDouble(Double.NaN) * perEvent;
        double ratio = p50 / harness;
        return new GraphJmhRow(
                "broker",
                "walk " + entry,
                layout.wire(),
                (long) EVENTS,
                harness,
                Arrays.stream(runs).boxed().toList(),
                p50,
                mean,
                error,
                ratio,
                Math.abs(ratio - 1) <= AGREEMENT,
                Double.isFinite(low) && Double.isFinite(high) && low <= high
                        ? new GraphJmhRow.ScoreInterval(low, high, GraphJmhRow.JMH_LEVEL)
                        : null);
    }

    /**
     * Writes the run into {@code folder} as the framework writes a reproduction's (summary.json,
     * environment.json and the kind's table.md from the one recorded copy, a quick run's table saying
     * so at its top), then JMH's own result as {@code jmh.json}, and publishes it: this command is its
     * own framework. Returns where the folder is.
     */
    static Path keep(ResultsFolder folder, boolean quick, Recorded<GraphJmhRow, GraphJmhSettings> run, JsonNode result)
            throws IOException {
        if (quick) {
            folder.markQuick(); // its table says so at the top, as every reproduction's
        }
        folder.write(ReproductionKind.of(GraphJmhRow.class, GraphJmhSettings.class), run, Optional.empty());
        folder.writeJson("jmh.json", new ObjectMapper().treeToValue(result, Object.class));
        return folder.publish(); // complete: only now does it appear at its name
    }

    private static long countSamples(JsonNode metric) {
        long n = 0;
        for (JsonNode fork : metric.path("rawDataHistogram")) {
            for (JsonNode iteration : fork) {
                for (JsonNode bin : iteration) {
                    n += bin.path(1).asLong();
                }
            }
        }
        return n;
    }

    /** Runs of the harness protocol whose middle median is compared with JMH. */
    static final int HARNESS_RUNS = 3;

    /** Events of the cross-checked trace (fixed: JMH's operations per invocation must be a constant). */
    static final int EVENTS = 2_000_000;

    /** The layout {@code auto} picks for the broker graph on this host; its reason is printed. */
    private static Layout autoForBroker() {
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        GraphFiles.Imported imp = GraphFiles.readPinned(
                dir.resolve("broker" + GraphFiles.NODES_SUFFIX), dir.resolve("broker" + GraphFiles.EDGES_SUFFIX));
        AutoLayout auto = PreparedGraph.prepare(
                        imp.graph(), PreparedGraph.Options.defaults().withLayouts(List.of()))
                .auto();
        System.out.println("broker: " + auto.reason());
        return auto.layout();
    }

    static double harness(Path home, Layout layout, String entry, int samples, int cpu, Session session)
            throws InterruptedException {
        Path dir = home.resolve("fixtures/graphs");
        GraphFiles.Imported imp = GraphFiles.readPinned(
                dir.resolve("broker" + GraphFiles.NODES_SUFFIX), dir.resolve("broker" + GraphFiles.EDGES_SUFFIX));
        PreparedGraph pg = PreparedGraph.prepare(
                imp.graph(), PreparedGraph.Options.defaults().withLayouts(List.of(layout)));
        GraphLookup.Case k = new GraphLookup.Case(
                "broker", "walk " + entry, pg, entry, GraphLookup.walkTrace(imp.graph(), entry, EVENTS), -1);
        int batches = samples + 1;
        long[][] nanos = new long[1][batches];
        int[][] rejections = new int[1][batches];
        RuntimeException[] failure = {null};
        Thread t = new Thread(
                () -> {
                    try {
                        Cpus.pinCurrentThread(cpu);
                        GraphLookup.replayCase(k, List.of(layout), batches, nanos, rejections, session);
                    } catch (RuntimeException e) {
                        failure[0] = e;
                    }
                },
                "graph-jmh-harness");
        t.start();
        t.join();
        if (failure[0] != null) {
            throw failure[0];
        }
        double[] measured = new double[samples];
        for (int b = 1; b < batches; b++) {
            measured[b - 1] = (double) nanos[0][b] / EVENTS;
        }
        return BatchSamples.Summary.of(measured).median();
    }

    static JsonNode jmh(Path home, Layout layout, String entry, int cpu, boolean quick, Session session)
            throws IOException, InterruptedException {
        Path module = home.resolve("bench-jmh");
        Path classes = module.resolve("target/classes");
        Path cpFile = module.resolve("target/runtime-classpath.txt");
        if (!Files.exists(classes.resolve("META-INF/BenchmarkList")) || !Files.exists(cpFile) || stale(module)) {
            System.err.println("graph jmh: building bench-jmh (mvn -B -q -DskipTests -pl bench-jmh -am package)...");
            // dies with this JVM (PR_SET_PDEATHSIG); this thread waits for it
            Process mvn = new ProcessBuilder(
                            DieWithJvm.command("mvn", "-B", "-q", "-DskipTests", "-pl", "bench-jmh", "-am", "package"))
                    .directory(home.toFile())
                    .inheritIO()
                    .start();
            if (mvn.waitFor() != 0 || !Files.exists(cpFile)) {
                throw new Refusal("bench-jmh could not be built (mvn exited " + mvn.exitValue() + ")");
            }
        }
        String cp = classes + ":" + home.resolve("lib/target/classes") + ":"
                + Files.readString(cpFile).strip();
        try (Scratch scratch = Scratch.create("heimdall-jmh-")) {
            return runJmh(home, cp, scratch.path().resolve("result.json"), entry, layout, cpu, quick, session);
        }
    }

    /** Runs JMH, its JSON result written to {@code json} (a name in our private scratch folder, not yet made). */
    private static JsonNode runJmh(
            Path home, String cp, Path json, String entry, Layout layout, int cpu, boolean quick, Session session)
            throws IOException, InterruptedException {
        String opens = "--add-opens=java.base/java.nio=ALL-UNNAMED";
        String props = "-Dheimdall.lab.home=" + home + " -Dgraph.cpu=" + cpu;
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                opens,
                "-cp",
                cp,
                "org.openjdk.jmh.Main",
                BENCHMARK,
                "-f",
                "1",
                "-wi",
                quick ? "3" : "5",
                "-w",
                "1s",
                "-i",
                quick ? "3" : "7",
                "-r",
                "1s",
                "-p",
                "graph=broker",
                "-p",
                "entry=" + entry,
                "-p",
                "layout=" + layout.wire(),
                "-jvmArgsAppend",
                opens + " " + props,
                "-rf",
                "json",
                "-rff",
                json.toString()));
        // JMH's JVM dies with this one (PR_SET_PDEATHSIG; this thread waits for it)
        Process p = new ProcessBuilder(DieWithJvm.command(cmd)).inheritIO().start();
        while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
            if (session.stopRequested()) {
                // A SIGTERM reaches only us: JMH and the JVM it forked are ended here.
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
                session.checkpoint();
            }
        }
        int status = p.exitValue();
        if (status != 0 || !Files.isRegularFile(json, LinkOption.NOFOLLOW_LINKS) || Files.size(json) == 0) {
            throw new Refusal("JMH exited with status " + status);
        }
        JsonNode all = new ObjectMapper().readTree(json.toFile());
        if (!all.isArray() || all.isEmpty()) {
            throw new Refusal("JMH wrote no result");
        }
        return all.get(0);
    }

    private static boolean stale(Path module) throws IOException {
        Path stamp = module.resolve("target/classes/META-INF/BenchmarkList");
        long built = Files.getLastModifiedTime(stamp).toMillis();
        try (var files = Files.walk(module.resolve("src"))) {
            return files.anyMatch(f -> {
                try {
                    return Files.getLastModifiedTime(f).toMillis() > built;
                } catch (IOException e) {
                    return true;
                }
            });
        }
    }
}
