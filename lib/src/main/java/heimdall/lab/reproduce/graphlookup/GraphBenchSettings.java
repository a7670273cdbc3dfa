package heimdall.lab.reproduce.graphlookup;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.BadInput;
import heimdall.lab.WholeNumbers;
import heimdall.lab.command.Args;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.prepared.DfaLayouts;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The graph benchmarks' settings, from the seed's environment variables (seed 002), with its defaults
 * except where this machine needs others:
 *
 * <pre>
 * GRAPH_BENCH_CPU          replay CPU; default: the highest CPU this process may use (Cpus.measuring();
 *                          the seed's default, CPU 4, does not exist on a 2-CPU machine)
 * GRAPH_BENCH_CALLS        events per replay batch (2,000,000)
 * GRAPH_BENCH_SAMPLES      measured batches after the warm-up batch (7)
 * GRAPH_WORKLOAD_ITERS     lanes: iterations per worker and for the collector (50,000)
 * GRAPH_WORKLOAD_THREADS   lanes: foreground worker counts, comma separated (1,4,16)
 * GRAPH_WORKLOAD_CPUS      lanes: the CPUs every workload thread may run on, a kernel CPU list such as
 *                          0-1; default: every CPU this process may use (the seed's 4-21 does not exist here)
 * GRAPH_BENCH_COALESCE     1: merge equivalent sites before compiling (off)
 * GRAPH_BENCH_MAX_ENTRIES  construction budget in transitions (1,048,576)
 * GRAPH_BENCH_BYTES        preparation payload budget per layout, bytes (268,435,456)
 * </pre>
 *
 * Each is also an option of {@code ./lab reproduce graph-lookup} and {@code lanes} ({@link #OPTIONS}), like every
 * kind's settings; the variables stay as the seed's documented fallback. An option given wins over a variable set,
 * which wins over the defaults; {@code --quick} shortens the defaults (200,000 events, 3 batches, 5,000
 * iterations). A malformed value is bad input naming the option or the variable it came from.
 */
public record GraphBenchSettings(
        int cpu,
        boolean cpuFromEnv,
        int calls,
        int samples,
        int workloadIters,
        List<Integer> workloadThreads,
        List<Integer> workloadCpus,
        boolean coalesce,
        CompileBudget budget,
        long bytes,
        String cpuSetBy) {

    /** Each option and the variable it stands for (the option wins when both are given). */
    public static final Map<String, String> OPTIONS = optionsInOrder();

    private static Map<String, String> optionsInOrder() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("--cpu", "GRAPH_BENCH_CPU");
        m.put("--calls", "GRAPH_BENCH_CALLS");
        m.put("--samples", "GRAPH_BENCH_SAMPLES");
        m.put("--iters", "GRAPH_WORKLOAD_ITERS");
        m.put("--threads", "GRAPH_WORKLOAD_THREADS");
        m.put("--workload-cpus", "GRAPH_WORKLOAD_CPUS");
        m.put("--coalesce", "GRAPH_BENCH_COALESCE");
        m.put("--max-entries", "GRAPH_BENCH_MAX_ENTRIES");
        m.put("--bytes", "GRAPH_BENCH_BYTES");
        return Collections.unmodifiableMap(m);
    }

    public static final List<String> VARIABLES = List.of(
            "GRAPH_BENCH_CPU",
            "GRAPH_BENCH_CALLS",
            "GRAPH_BENCH_SAMPLES",
            "GRAPH_WORKLOAD_ITERS",
            "GRAPH_WORKLOAD_THREADS",
            "GRAPH_WORKLOAD_CPUS",
            "GRAPH_BENCH_COALESCE",
            "GRAPH_BENCH_MAX_ENTRIES",
            "GRAPH_BENCH_BYTES");

    /**
     * The options {@code names} (keys of {@link #OPTIONS}) as a kind declares them, each naming its variable; the
     * values are checked here, when the settings are read, so a message names the option as given.
     */
    public static List<ReproductionOption> options(String... names) {
        List<ReproductionOption> out = new ArrayList<>();
        for (String name : names) {
            out.add(
                    switch (name) {
                        case "--cpu" ->
                            ReproductionOption.text(
                                    "--cpu",
                                    "C",
                                    "the replay CPU (GRAPH_BENCH_CPU)",
                                    "the highest allowed",
                                    "the highest allowed");
                        case "--calls" ->
                            ReproductionOption.text(
                                    "--calls",
                                    "N",
                                    "events per replay batch (GRAPH_BENCH_CALLS)",
                                    "200,000",
                                    "2,000,000");
                        case "--samples" ->
                            ReproductionOption.text(
                                    "--samples",
                                    "N",
                                    "measured batches after the warm-up batch (GRAPH_BENCH_SAMPLES)",
                                    "3",
                                    "7");
                        case "--iters" ->
                            ReproductionOption.text(
                                    "--iters",
                                    "N",
                                    "iterations per worker and for the collector (GRAPH_WORKLOAD_ITERS)",
                                    "5,000",
                                    "50,000");
                        case "--threads" ->
                            ReproductionOption.text(
                                    "--threads",
                                    "N,..",
                                    "foreground worker counts, comma separated (GRAPH_WORKLOAD_THREADS)",
                                    "1,4,16",
                                    "1,4,16");
                        case "--workload-cpus" ->
                            ReproductionOption.text(
                                    "--workload-cpus",
                                    "LIST",
                                    "the CPUs every workload thread may run on, e.g. 0-1 (GRAPH_WORKLOAD_CPUS)",
                                    "every allowed CPU",
                                    "every allowed CPU");
                        case "--coalesce" ->
                            ReproductionOption.flag(
                                    "--coalesce", "merge equivalent sites before compiling (GRAPH_BENCH_COALESCE=1)");
                        case "--max-entries" ->
                            ReproductionOption.text(
                                    "--max-entries",
                                    "N",
                                    "construction budget in transitions (GRAPH_BENCH_MAX_ENTRIES)",
                                    "1,048,576",
                                    "1,048,576");
                        case "--bytes" ->
                            ReproductionOption.text(
                                    "--bytes",
                                    "N",
                                    "preparation payload budget per layout, bytes (GRAPH_BENCH_BYTES)",
                                    "268,435,456",
                                    "268,435,456");
                        default -> throw new IllegalArgumentException("not a graph benchmark option: " + name);
                    });
        }
        return List.copyOf(out);
    }

    /** The settings for a run of a kind that declared {@code declared}: the options given, the variables, the defaults. */
    public static GraphBenchSettings of(Args args, List<ReproductionOption> declared) {
        Map<String, String> given = new LinkedHashMap<>();
        for (ReproductionOption o : declared) {
            if (!OPTIONS.containsKey(o.name())) {
                continue;
            }
            if (o.valued()) {
                o.text(args).ifPresent(text -> given.put(o.name(), text));
            } else if (o.given(args)) {
                given.put(o.name(), "1");
            }
        }
        return of(System.getenv(), given, args.flag("--quick"));
    }

    /** Settings from this process's environment. */
    public static GraphBenchSettings fromEnvironment(boolean quick) {
        return of(System.getenv(), quick);
    }

    /** Settings from {@code env} (the variables above; others ignored). */
    public static GraphBenchSettings of(Map<String, String> env, boolean quick) {
        return of(env, Map.of(), quick);
    }

    /**
     * Settings from {@code options} given (keys of {@link #OPTIONS}, e.g. {@code --calls}, with their text) over
     * {@code env}'s variables, over the defaults.
     */
    public static GraphBenchSettings of(Map<String, String> env, Map<String, String> options, boolean quick) {
        Map<String, String> values = new HashMap<>();
        Map<String, String> setBy = new HashMap<>();
        for (String v : VARIABLES) {
            if (env.get(v) != null) {
                values.put(v, env.get(v));
                setBy.put(v, v);
            }
        }
        options.forEach((option, text) -> {
            String v = OPTIONS.get(option);
            if (v == null) {
                throw new IllegalArgumentException("not a graph benchmark option: " + option);
            }
            values.put(v, text);
            setBy.put(v, option);
        });
        return read(values, setBy, quick);
    }

    /** The settings from {@code env}, values keyed by variable, each named in messages as {@code setBy} says. */
    private static GraphBenchSettings read(Map<String, String> env, Map<String, String> setBy, boolean quick) {
        String cpuText = env.get("GRAPH_BENCH_CPU");
        int cpu = cpuText == null ? Cpus.measuring() : (int) number(env, setBy, "GRAPH_BENCH_CPU", 0, 0, 4095);
        if (!Cpus.allowed().contains(cpu)) {
            throw new BadInput(
                    setBy.get("GRAPH_BENCH_CPU") + "=" + cpu + ": not a CPU this process may use " + Cpus.allowed());
        }
        int calls = (int) number(env, setBy, "GRAPH_BENCH_CALLS", quick ? 200_000 : 2_000_000, 1, 200_000_000);
        int samples = (int) number(env, setBy, "GRAPH_BENCH_SAMPLES", quick ? 3 : 7, 1, 1000);
        int iters = (int) number(env, setBy, "GRAPH_WORKLOAD_ITERS", quick ? 5_000 : 50_000, 1, 100_000_000);
        List<Integer> threads = new ArrayList<>();
        String t = env.getOrDefault("GRAPH_WORKLOAD_THREADS", "1,4,16");
        for (String part : t.split(",")) {
            try {
                int n = Integer.parseInt(part.strip());
                if (n < 1 || n > 1024) {
                    throw new NumberFormatException();
                }
                threads.add(n);
            } catch (NumberFormatException e) {
                throw new BadInput(name(setBy, "GRAPH_WORKLOAD_THREADS") + "='" + t
                        + "': comma-separated worker counts 1..1024 expected");
            }
        }
        List<Integer> workloadCpus = Cpus.allowed();
        String wc = env.get("GRAPH_WORKLOAD_CPUS");
        if (wc != null && !wc.isBlank()) {
            try {
                workloadCpus = Cpus.parseList(wc);
            } catch (NumberFormatException e) {
                throw new BadInput(
                        name(setBy, "GRAPH_WORKLOAD_CPUS") + "='" + wc + "': a CPU list such as 0-1 or 0,1 expected");
            }
            if (workloadCpus.isEmpty() || !Cpus.allowed().containsAll(workloadCpus)) {
                throw new BadInput(name(setBy, "GRAPH_WORKLOAD_CPUS") + "='" + wc
                        + "': must be CPUs this process may use " + Cpus.allowed());
            }
        }
        String co = env.getOrDefault("GRAPH_BENCH_COALESCE", "0");
        if (!co.equals("0") && !co.equals("1")) {
            throw new BadInput(name(setBy, "GRAPH_BENCH_COALESCE") + "='" + co + "': 0 or 1 expected");
        }
        long maxEntries =
                number(env, setBy, "GRAPH_BENCH_MAX_ENTRIES", CompileBudget.DEFAULT_MAX_TRANSITIONS, 1, Long.MAX_VALUE);
        long bytes = number(env, setBy, "GRAPH_BENCH_BYTES", DfaLayouts.DEFAULT_LIMIT, 0, Long.MAX_VALUE);
        return new GraphBenchSettings(
                cpu,
                cpuText != null,
                calls,
                samples,
                iters,
                List.copyOf(threads),
                workloadCpus,
                co.equals("1"),
                CompileBudget.defaults().withMaxTransitions(maxEntries),
                bytes,
                setBy.get("GRAPH_BENCH_CPU"));
    }

    private static long number(
            Map<String, String> env, Map<String, String> setBy, String name, long fallback, long min, long max) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        // digits only: GRAPH_WORKLOAD_THREADS and GRAPH_WORKLOAD_CPUS are comma lists, so a comma is never grouping
        return WholeNumbers.parse(name(setBy, name), v, min, max);
    }

    /** What set {@code variable}, for a message: the option or the variable itself. */
    private static String name(Map<String, String> setBy, String variable) {
        return setBy.getOrDefault(variable, variable);
    }

    /** The settings as recorded in environment.json ({@code settings}), named by their variables. */
    public Recorded recorded() {
        return new Recorded(
                cpu,
                cpuFromEnv ? cpuSetBy : "default: highest allowed CPU " + Cpus.allowed(),
                calls,
                samples,
                workloadIters,
                workloadThreads,
                workloadCpus,
                coalesce ? 1 : 0,
                budget.maxTransitions(),
                bytes);
    }

    /**
     * environment.json's {@code settings}: each value under the variable that sets it, and where the CPU came from.
     *
     * @param coalesce 1 or 0, as the variable is given
     */
    @JsonPropertyOrder({
        "GRAPH_BENCH_CPU",
        "cpu_source",
        "GRAPH_BENCH_CALLS",
        "GRAPH_BENCH_SAMPLES",
        "GRAPH_WORKLOAD_ITERS",
        "GRAPH_WORKLOAD_THREADS",
        "GRAPH_WORKLOAD_CPUS",
        "GRAPH_BENCH_COALESCE",
        "GRAPH_BENCH_MAX_ENTRIES",
        "GRAPH_BENCH_BYTES"
    })
    public record Recorded(
            @JsonProperty("GRAPH_BENCH_CPU") int cpu,
            @JsonProperty("cpu_source") String cpuSource,
            @JsonProperty("GRAPH_BENCH_CALLS") int calls,
            @JsonProperty("GRAPH_BENCH_SAMPLES") int samples,
            @JsonProperty("GRAPH_WORKLOAD_ITERS") int workloadIters,
            @JsonProperty("GRAPH_WORKLOAD_THREADS") List<Integer> workloadThreads,
            @JsonProperty("GRAPH_WORKLOAD_CPUS") List<Integer> workloadCpus,
            @JsonProperty("GRAPH_BENCH_COALESCE") int coalesce,
            @JsonProperty("GRAPH_BENCH_MAX_ENTRIES") long maxEntries,
            @JsonProperty("GRAPH_BENCH_BYTES") long bytes) {}
}
