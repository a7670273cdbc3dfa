package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import heimdall.lab.analysis.CompareCommand;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.display.Display;
import heimdall.lab.display.Displayable;
import heimdall.lab.profile.SyscallTable;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * {@code ./lab explore ab}: two profiles' floors A/B in one run, call by call, through
 * {@link Lab#compare} (the same runner and verdicts as the fluent API).
 */
public final class ExploreAbCommand implements Command {
    private static final String NAME = "explore ab";
    private static final CommandOptions OPTIONS =
            CommandOptions.of(Set.of("--quick"), Set.of("--a", "--b", "--calls", "--runs", "--count", "--threshold"));
    /** Default turns: twice what the U test needs at 95%, so a real change of a few percent can be called. */
    static final int RUNS = 8;

    static final int QUICK_RUNS = 6;
    static final long COUNT = 20_000;
    static final long QUICK_COUNT = 5_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String summary() {
        return "two profiles A/B in one run, call by call: B/A with its interval and a verdict (faster, slower, "
                + "no difference beyond noise)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab explore ab --a PROFILE --b PROFILE --calls CALL[,CALL...] [--runs N] [--count N]
                                        [--threshold 5%] [--quick]

                Measures each call (x86_64 names, zero arguments) under A's static floor, under B's and with no
                filter, one run of each in turn: turn t starts with member t mod 3 (A B none, B none A, none A B),
                and each turn moves the runner's timed loop to its next code placement, so neither drift nor
                order falls on one side. Every run is a fresh heimdall-runner child on the measuring CPU (the
                child's CPU is not alternated: two CPUs of a shared machine differ more than most changes).

                Per call, B against A as ./lab compare judges a row: B/A of the medians with its 95% interval
                (Hodges-Lehmann on the logarithms of the run medians), the Mann-Whitney U test over run medians
                at p < 0.05, and a verdict: slower (B/A > 1 + threshold), faster (< 1 - threshold), else no
                difference beyond noise. With fewer than 4 runs a side the test cannot call a change: a warning
                says so. Also the instructions each floor runs for the call and what each adds over no filter.

                  --a PROFILE     A's OCI/Docker/Podman seccomp profile file (such as
                                  /usr/share/containers/seccomp.json), or fixture:NAME for one of fixtures/profiles
                                  (a file whose name starts so: ./fixture:...)
                  --b PROFILE     B's, likewise
                  --calls LIST    the calls, comma-separated (both floors must allow each)
                  --runs N        interleaved turns, 1..100 (default 8; --quick 6)
                  --count N       timed calls a run, 1..10,000,000 (default 20,000; --quick 5,000)
                  --threshold T   the smallest change called slower or faster, a percentage from 0% to below
                                  100% (default 5%)
                  --quick         the smaller defaults, for trying (not for quoting)

                Exit status: 0 measured (whatever the verdicts); 1 a call a floor does not allow, or one the sweep
                does not make, or a refused run; 2 bad input (an unknown profile file or call, a value out of
                range, a threshold that is not a percentage); 130/143 stopped.
                """;
    }

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public int run(List<String> argv) {
        Args args = Args.parse(NAME, argv, OPTIONS).atMost(0);
        boolean quick = args.flag("--quick");
        // every value is checked before any floor is read or any child runs
        int runs = args.intValue("--runs", quick ? QUICK_RUNS : RUNS, 1, 100);
        long count = args.count("--count", quick ? QUICK_COUNT : COUNT, 10_000_000);
        double threshold = CompareCommand.threshold(args.value("--threshold").orElse(null));
        List<String> calls = calls(args.value("--calls")
                .orElseThrow(
                        () -> new BadInput("option --calls: name the calls to compare, such as --calls getppid,getpid "
                                + "(./lab explore ab --help)")));
        FloorView a = floor("--a", args);
        FloorView b = floor("--b", args);
        FloorCompare.Result r =
                Lab.compare(a, b).runs(runs).count(count).threshold(threshold).calls(calls.toArray(String[]::new));
        System.out.println(report(r, quick));
        return 0;
    }

    /** The headline, then every call's row (not cut as a notebook's text is). */
    static String report(FloorCompare.Result r, boolean quick) {
        Displayable headlineOnly = new Displayable() {
            @Override
            public Table headline() {
                return r.headline();
            }

            @Override
            public Chart<?, ?> chart() {
                return null;
            }
        };
        return (quick ? "quick run: for trying, not for quoting\n" : "") + Display.text(headlineOnly) + "\n\n"
                + r.table().printAll();
    }

    /** The names of {@code --calls}, each an x86_64 system call, in the order given, no repeats. */
    static List<String> calls(String list) {
        List<String> out = new ArrayList<>();
        for (String raw : list.split(",", -1)) {
            String n = raw.strip();
            if (n.isEmpty()) {
                throw new BadInput("option --calls: an empty name in '" + Printable.of(list)
                        + "' (comma-separated names, such as getppid,getpid)");
            }
            if (SyscallTable.x86_64().number(n).isEmpty()) {
                throw new BadInput("option --calls: '" + Printable.of(n) + "' is not an x86_64 system call");
            }
            if (out.contains(n)) {
                throw new BadInput("option --calls: '" + Printable.of(n) + "' is named twice");
            }
            out.add(n);
        }
        return out;
    }

    /** {@code --a}/{@code --b}: a profile file, or {@code fixture:NAME}; bad input names the option. */
    static FloorView floor(String option, Args args) {
        String v = args.value(option)
                .orElseThrow(() -> new BadInput("option " + option
                        + ": name a seccomp profile file, or fixture:NAME (./lab explore ab --help)"));
        try {
            return v.startsWith("fixture:")
                    ? Lab.fixtureFloor(v.substring("fixture:".length()))
                    : Lab.floor(Path.of(v));
        } catch (InvalidPathException e) {
            throw new BadInput("option " + option + ": '" + Printable.of(v) + "' is not a file name");
        } catch (BadInput e) {
            throw new BadInput("option " + option + ": " + e.getMessage(), e);
        }
    }
}
