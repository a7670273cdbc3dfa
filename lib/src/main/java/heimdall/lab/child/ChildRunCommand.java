package heimdall.lab.child;

import heimdall.lab.BadInput;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab child run}: one measured child with no filter, to try the mechanism by hand. */
public final class ChildRunCommand implements Command {
    private static final CommandOptions OPTIONS =
            CommandOptions.of(Set.of("--batch"), Set.of("--call", "--count", "--warmup", "--cpu", "--path"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "child run";
    }

    @Override
    public String summary() {
        return "run one measured child (no filter) and print median/min/max and its fate";
    }

    @Override
    public String help() {
        return String.join(
                "\n",
                "usage: ./lab child run --call CALL [--count N] [--warmup W] [--cpu C] [--batch] [--path FILE]",
                "",
                "Spawns one heimdall-runner that pins itself to CPU C, makes W warm-up calls and then N calls,",
                "each timed alone with clock_gettime(CLOCK_MONOTONIC) (or, with --batch, one timer pair around",
                "all N), installs no filter, and prints the median, min and max per call in ns, the timer's own",
                "cost on the same CPU, the CPU granted and how the child ended.",
                "",
                "  --call CALL   getppid, gettid, getpid, sched_yield, prctl, mprotect, openat, or a syscall number",
                "  --count N     measured calls (default 100000)",
                "  --warmup W    warm-up calls (default N/10)",
                "  --cpu C       CPU to pin to (default: the measuring CPU, " + "the highest allowed)",
                "  --batch       one timer pair around the N calls; prints the mean per call",
                "  --path FILE   the file openat opens (default /etc/hostname)",
                "",
                "Exit status: 0 when the child completed (it reached the end of its measuring and left every sample),",
                "1 when it did not (its fate is printed, e.g. a measured call that ended it), 2 bad input.");
    }

    @Override
    public int run(List<String> argv) {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        Call call = Call.parse(
                a.value("--call")
                        .orElseThrow(() -> BadInput.at("command line", "--call", "missing (./lab child run --help)")),
                Path.of(a.value("--path").orElse("/etc/hostname")));
        long count = a.count("--count", 100_000, ChildSpec.MAX_COUNT);
        long warmup = a.longValue("--warmup", count / 10, 0, ChildSpec.MAX_WARMUP);
        int cpu = a.cpu("--cpu", Cpus.measuring());
        ChildSpec spec = ChildSpec.of(call, warmup, count)
                .withCpu(cpu)
                .withMode(a.flag("--batch") ? ChildSpec.Mode.BATCH : ChildSpec.Mode.PER_CALL);
        ChildResult r = MeasuredChild.run(spec);
        ChildResult timer = MeasuredChild.timerCost(cpu, Math.min(count, 100_000));
        System.out.printf(Locale.ROOT, "call         %s%n", call.label());
        System.out.printf(Locale.ROOT, "cpu          requested %d, granted %d%n", cpu, r.cpuGranted());
        System.out.printf(
                Locale.ROOT,
                "calls        %,d warm-up, %,d measured%s%n",
                warmup,
                count,
                a.flag("--batch") ? " (batch)" : "");
        if (r.completed()) {
            if (spec.mode() == ChildSpec.Mode.BATCH) {
                System.out.printf(
                        Locale.ROOT,
                        "batch        %,d ns in all, %.1f ns a call%n",
                        r.batchTotalNs(),
                        r.batchTotalNs() / (double) count);
            } else {
                System.out.printf(
                        Locale.ROOT,
                        "per call     median %,d ns, min %,d ns, max %,d ns (%,d samples)%n",
                        r.median(),
                        r.min(),
                        r.max(),
                        r.samples().length);
            }
            System.out.printf(Locale.ROOT, "last return  %s%n", r.lastOutcome());
        }
        System.out.printf(
                Locale.ROOT,
                "timer        median %,d ns, min %,d ns (back-to-back reads, %,d samples)%n",
                timer.median(),
                timer.min(),
                timer.samples().length);
        System.out.printf(Locale.ROOT, "fate         %s%n", r.outcome());
        return r.completed() ? 0 : 1;
    }
}
