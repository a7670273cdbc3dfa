package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Disassembler;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.ProgramStats;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.bpf.Verdict;
import heimdall.lab.child.Call;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A floor as a child installs it, with what the emulator and the cache predictor say about it:
 * length, instructions a call runs, which calls the kernel answers from its action cache, and the
 * disassembly. Immutable; {@link #threeAnswers} and {@link #stacked} give the broker variants.
 */
public final class FloorView implements Displayable {
    private final Profile profile;
    private final Floor floor;
    private final List<String> warnings;
    private final String source;

    private FloorView(Profile profile, Floor floor, List<String> warnings, String source) {
        this.profile = profile;
        this.floor = floor;
        this.warnings = List.copyOf(warnings);
        this.source = source;
    }

    /** The static floor of {@code profile}; {@code source} names it in errors (the file, or where it was built). */
    static FloorView of(String name, Profile profile, List<String> warnings, String source) {
        Program p = Compiler.compile(profile, SyscallTable.x86_64(), source);
        return new FloorView(profile, new Floor(name, List.of(p), -1), warnings, source);
    }

    /** A one-program floor that notifies for {@code brokered} (its listener is program 0). */
    static FloorView brokered(String name, Profile profile, List<String> brokered) {
        for (String b : brokered) {
            if (SyscallTable.x86_64().number(b).isEmpty()) {
                throw BadInput.at("broker filter", "brokered", "'" + b + "' is not an x86_64 system call");
            }
        }
        Program p = Compiler.compile(profile, SyscallTable.x86_64(), name);
        return new FloorView(profile, new Floor(name, List.of(p), 0), List.of(), name);
    }

    /** The floor's name (the profile file's name, or the name given). */
    public String name() {
        return floor.name();
    }

    /** The floor as the measuring code takes it. */
    public Floor floor() {
        return floor;
    }

    /** The profile it was compiled from. */
    public Profile profile() {
        return profile;
    }

    /** What loading the profile could not apply or dropped (unknown names, conditions). */
    public List<String> warnings() {
        return warnings;
    }

    /** Whether a program of this floor notifies a supervisor. */
    public boolean brokered() {
        return floor.brokered();
    }

    /** Instructions of every program together. */
    public int length() {
        return floor.programs().stream().mapToInt(Program::length).sum();
    }

    /** How many programs a child installs for it. */
    public int programs() {
        return floor.programs().size();
    }

    /**
     * The profile with {@code brokered} calls notifying a supervisor instead of allowed, as one program
     * (floor-cost's "three answers").
     */
    public FloorView threeAnswers(String... brokered) {
        Set<String> b = brokeredSet(brokered);
        Profile p;
        try {
            p = Floors.withBrokered(profile, b);
        } catch (IllegalArgumentException e) {
            throw BadInput.at(source, "brokered", e.getMessage());
        }
        Program prog = Compiler.compile(p, SyscallTable.x86_64(), source);
        return new FloorView(p, new Floor("three answers, " + name(), List.of(prog), 0), warnings, source);
    }

    /**
     * The broker filter for {@code brokered} under this floor: two programs, as a container job runs today
     * (floor-cost's "stacked"). For measuring: a call this floor allows and {@code brokered} does not name
     * ({@code open} beside {@code openat}) runs unbrokered; {@link #overBrokerFloor()} is the sandbox.
     */
    public FloorView stacked(String... brokered) {
        Floor f = Floors.stacked("stacked, " + name(), profile, brokeredSet(brokered));
        return new FloorView(profile, f, warnings, source);
    }

    /**
     * This floor on top of the broker filter alone ({@link Lab#brokerFloor()}): the sandbox for a brokered
     * job. Every open by name this floor allows is brokered ({@code open}, {@code openat}, {@code openat2},
     * {@code creat}), the opens without a name are killed whatever this floor says, and the rest is this
     * floor's to answer. ({@link #stacked} brokers only the calls named, for measuring.)
     */
    public FloorView overBrokerFloor() {
        Floor f = Floors.overBrokerFloor(name() + " over the broker filter", profile);
        return new FloorView(profile, f, warnings, source);
    }

    private Set<String> brokeredSet(String... brokered) {
        if (brokered.length == 0) {
            throw BadInput.at(source, "brokered", "name at least one call to broker");
        }
        for (String b : brokered) {
            if (SyscallTable.x86_64().number(b).isEmpty()) {
                throw BadInput.at(source, "brokered", "'" + b + "' is not an x86_64 system call");
            }
        }
        return new LinkedHashSet<>(List.of(brokered));
    }

    /** The call as the filter sees it: by x86_64 name (any system call), zero arguments. */
    private SeccompData data(String call) {
        if (call == null) {
            throw BadInput.at("floor " + name(), "call", "no call named");
        }
        int nr = SyscallTable.x86_64()
                .number(call.trim())
                .orElseThrow(
                        () -> BadInput.at("floor " + name(), "call", "'" + call + "' is not an x86_64 system call"));
        return SeccompData.x86_64(nr);
    }

    /** The call as the runner makes it (its fixed arguments), as {@code floor-cost} counts it. */
    private SeccompData data(Call call) {
        return new FloorRow(name(), floor, call, null, null).data();
    }

    /** The stacked answer for a call as the measured child makes it. */
    Verdict verdict(Call call) {
        return floor.verdict(data(call));
    }

    /** Instructions run for one call (by name, zero arguments), summed over every program. */
    public long insnsPerCall(String call) {
        return floor.insns(data(call));
    }

    /** Instructions run for one call as the measured child makes it. */
    public long insnsPerCall(Call call) {
        return floor.insns(data(call));
    }

    /** The stacked answer for a call by name: {@code ALLOW}, {@code ERRNO(1)}, ... */
    public String answer(String call) {
        return Action.describe(floor.verdict(data(call)).action());
    }

    /** Whether the kernel answers the call from its action cache, without running any program. */
    public boolean cacheable(String call) {
        return floor.cacheable(data(call).nr());
    }

    /** How many of the x86_64 table's calls the kernel answers from its action cache. */
    public int cacheableCount() {
        int n = 0;
        for (int nr : SyscallTable.x86_64().numbers()) {
            if (CachePredictor.cacheable(floor.programs(), nr)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The action-cache prediction for every x86_64 call: number, name, the answer, instructions run
     * (zero arguments) and whether the cache answers it.
     */
    public Table cachePrediction() {
        SyscallTable t = SyscallTable.x86_64();
        IntColumn nr = IntColumn.create("nr");
        StringColumn name = StringColumn.create("call");
        StringColumn answer = StringColumn.create("answer");
        LongColumn insns = LongColumn.create("insns");
        BooleanColumn cached = BooleanColumn.create("cacheable");
        for (int n : t.numbers()) {
            Verdict v = floor.verdict(SeccompData.x86_64(n));
            nr.append(n);
            name.append(t.name(n).orElse("?"));
            answer.append(Action.describe(v.action()));
            insns.append(v.insnsExecuted());
            cached.append(CachePredictor.cacheable(floor.programs(), n));
        }
        return Table.create("action cache: " + name(), nr, name, answer, insns, cached);
    }

    /** Every program, one instruction a line, syscall numbers named. */
    public String disassembly() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < floor.programs().size(); i++) {
            if (floor.programs().size() > 1) {
                b.append("; program ")
                        .append(i)
                        .append(i == floor.listenerProgram() ? " (listener)" : "")
                        .append('\n');
            }
            b.append(Disassembler.disassemble(floor.programs().get(i), SyscallTable.x86_64()));
        }
        return b.toString();
    }

    /** One row a program: length, instructions run over allowed and denied numbers, cacheable numbers. */
    public Table table() {
        IntColumn prog = IntColumn.create("program");
        IntColumn len = IntColumn.create("length");
        DoubleColumn allowedMedian = DoubleColumn.create("allowed_insns_median");
        LongColumn allowedMax = LongColumn.create("allowed_insns_max");
        DoubleColumn deniedMedian = DoubleColumn.create("denied_insns_median");
        IntColumn cacheable = IntColumn.create("cacheable");
        IntColumn numbers = IntColumn.create("numbers");
        for (int i = 0; i < floor.programs().size(); i++) {
            ProgramStats s = ProgramStats.of(floor.programs().get(i), SyscallTable.x86_64());
            prog.append(i);
            len.append(s.length());
            allowedMedian.append(s.allowed().median());
            allowedMax.append(s.allowed().max());
            deniedMedian.append(s.denied().median());
            cacheable.append(s.cacheable());
            numbers.append(s.numbers());
        }
        return Table.create("floor: " + name(), prog, len, allowedMedian, allowedMax, deniedMedian, cacheable, numbers);
    }

    /** One row a call (by name): number, answer, instructions run, cacheable. */
    public Table calls(String... calls) {
        StringColumn name = StringColumn.create("call");
        IntColumn nr = IntColumn.create("nr");
        StringColumn answer = StringColumn.create("answer");
        LongColumn insns = LongColumn.create("insns");
        BooleanColumn cached = BooleanColumn.create("cacheable");
        for (String c : calls) {
            SeccompData d = data(c);
            name.append(c);
            nr.append(d.nr());
            answer.append(Action.describe(floor.verdict(d).action()));
            insns.append(floor.insns(d));
            cached.append(floor.cacheable(d.nr()));
        }
        return Table.create("calls under " + name(), name, nr, answer, insns, cached);
    }

    /** Instructions run per call (by name), a bar each; cacheable calls run none in the kernel. */
    public CategoryChart plot(String... calls) {
        if (calls.length == 0) {
            throw BadInput.at("floor " + name(), "calls", "name at least one call to plot");
        }
        List<String> names = new ArrayList<>();
        List<Long> insns = new ArrayList<>();
        for (String c : calls) {
            names.add(c + (cacheable(c) ? " (cached)" : ""));
            insns.add(insnsPerCall(c));
        }
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("BPF instructions run per call (count): " + name())
                .xAxisTitle("call")
                .yAxisTitle("instructions")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        // past a few bars the upright names run into each other: turned, each sits under its own bar
        chart.getStyler().setXAxisLabelRotation(calls.length > 4 ? 90 : 0);
        chart.addSeries("insns", names, insns);
        return chart;
    }

    /**
     * How many x86_64 calls the floor answers ALLOW with zero arguments (a call allowed for some
     * arguments only counts when 0 is among them).
     */
    public int allowedCount() {
        int n = 0;
        for (int nr : SyscallTable.x86_64().numbers()) {
            if (floor.verdict(SeccompData.x86_64(nr)).allows()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Every call this floor allows, measured under it and with no filter, ranked by the cost it adds
     * ({@link Sweep}): quick counts (one run of 5,000 calls after 1,000 untimed, each way).
     */
    public Sweep sweep() {
        return sweep(1, 5_000);
    }

    /** {@link #sweep()} with {@code runs} interleaved runs of {@code calls} timed calls each way. */
    public Sweep sweep(int runs, long calls) {
        if (runs < 1 || runs > 100) {
            throw BadInput.at("sweep", "runs", "must be 1..100, got " + runs);
        }
        if (calls < 1 || calls > 10_000_000) {
            throw BadInput.at("sweep", "calls", "must be 1..10,000,000, got " + calls);
        }
        return Sweep.run(this, runs, Math.min(1_000, calls), calls, line -> {});
    }

    /** The headline: programs, length, allowed and cacheable calls, warnings, where it came from. */
    @Override
    public Table headline() {
        return Headline.of("floor: " + name())
                .row("programs", programs() + (brokered() ? " (notifies a supervisor)" : ""))
                .row("length", length() + " instructions")
                .row(
                        "allowed",
                        allowedCount() + " of "
                                + SyscallTable.x86_64().numbers().size() + " x86_64 calls")
                .row("cacheable", cacheableCount() + " calls answered from the action cache")
                .row("warnings", warnings.size())
                .row("source", source)
                .table();
    }

    /** One row a program ({@link #table()}). */
    @Override
    public Table detail() {
        return table();
    }

    /** The instructions a call runs (zero arguments) over every x86_64 call, allowed and not: an ECDF each. */
    @Override
    public XYChart chart() {
        List<Double> allowed = new ArrayList<>();
        List<Double> other = new ArrayList<>();
        for (int nr : SyscallTable.x86_64().numbers()) {
            Verdict v = floor.verdict(SeccompData.x86_64(nr));
            (v.allows() ? allowed : other).add((double) v.insnsExecuted());
        }
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put(
                "allowed (" + allowed.size() + ")",
                allowed.stream().mapToDouble(Double::doubleValue).toArray());
        series.put(
                "not allowed (" + other.size() + ")",
                other.stream().mapToDouble(Double::doubleValue).toArray());
        return Plots.ecdf("BPF instructions a call runs: " + name(), "instructions run", "insns", series);
    }

    /** The headline, one figure a line, and one line a program. */
    @Override
    public String toString() {
        return text();
    }
}
