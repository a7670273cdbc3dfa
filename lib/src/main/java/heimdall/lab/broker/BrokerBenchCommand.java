package heimdall.lab.broker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import heimdall.lab.BadInput;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Scratch;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab broker bench}: the broker's round trip through each supervisor, before the full reproduction. */
public final class BrokerBenchCommand implements Command {
    /** Runs are fresh children, each with its samples kept: past this many a run count is a typo. */
    private static final int MAX_RUNS = 10_000;

    private static final CommandOptions OPTIONS = CommandOptions.of(
            Set.of("--sync-wakeup", "--json", "--poll-wait-too", "--as-supervisor-too"),
            Set.of(
                    "--calls",
                    "--warmup",
                    "--runs",
                    "--answer",
                    "--supervisor",
                    "--sup-cpu",
                    "--child-cpu",
                    "--stacked"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "broker bench";
    }

    @Override
    public String summary() {
        return "time openat through the native/Java supervisor (CONTINUE or broker)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab broker bench [--calls N] [--warmup N] [--runs N] [--answer continue|broker]
                                          [--supervisor native|java|both] [--sync-wakeup]
                                          [--sup-cpu C|same|any] [--child-cpu C] [--stacked before|after] [--poll-wait-too]
                                          [--as-supervisor-too] [--json]

                Times openat in the notify-child test fixture (each call alone, clock_gettime(CLOCK_MONOTONIC)),
                with no filter and through each supervisor, in fresh children per run, runs interleaved.
                Prints median and p99 over all samples, the added cost against no filter, each run's median,
                and with --supervisor both the java/native median ratio.

                  --calls N        timed calls per run (default 20000)
                  --warmup N       untimed calls first (default 2000)
                  --runs N         runs per row (default 3)
                  --answer A       continue (the bare round trip) or broker (open beneath in/, inject the fd)
                  --supervisor S   native, java or both (default both)
                  --sync-wakeup    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on the listener (Linux 6.6); it only
                                   helps when the supervisor may run on the child's CPU (--sup-cpu same|any)
                  --sup-cpu C      the supervisor's CPU; 'same' = the child's, 'any' = unpinned
                                   (default: the last CPU this process may use)
                  --child-cpu C    the child's CPU (default: the first CPU this process may use)
                  --stacked P      a second, allow-all program installed before or after the notifying one
                  --poll-wait-too  also the native supervisor waiting in poll() before each receive (row
                                   native-poll), interleaved: its default blocks in the receive itself
                                   with continue (one system call fewer a round trip)
                  --as-supervisor-too
                                   with --answer broker, also each supervisor opening with its own
                                   credentials (Policy.asSupervisor(); rows <supervisor>-as-supervisor),
                                   interleaved: the cost of opening as the caller, in one run
                  --json           print the report as JSON instead of a table
                """;
    }

    @Override
    public int run(List<String> argv) throws Exception {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        BrokerBench.Config d = BrokerBench.Config.defaults();
        List<Integer> cpus = Cpus.allowed();
        int childCpu = a.cpu("--child-cpu", d.childCpu());
        String supText = a.value("--sup-cpu").orElse(null);
        int supCpu;
        if (supText == null) {
            // the last CPU that is not the child's; the child's own only on a one-CPU machine
            supCpu =
                    cpus.stream().filter(x -> x != childCpu).reduce((x, y) -> y).orElse(childCpu);
        } else if (supText.equals("same")) {
            supCpu = childCpu;
        } else if (supText.equals("any")) {
            supCpu = -1;
        } else {
            supCpu = a.cpu("--sup-cpu", -1);
        }
        String which = a.value("--supervisor").orElse("both");
        List<Supervisor.Kind> kinds = which.equals("both")
                ? List.of(Supervisor.Kind.NATIVE, Supervisor.Kind.JAVA)
                : List.of(Supervisor.Kind.parse(which, "--supervisor"));
        String stacked = a.value("--stacked").orElse(null);
        if (stacked != null && !stacked.equals("before") && !stacked.equals("after")) {
            throw new BadInput("--stacked: '" + stacked + "' must be before or after");
        }
        BrokerBench.Config c = new BrokerBench.Config(
                (int) a.count("--calls", d.calls(), ChildSpec.MAX_COUNT),
                (int) a.longValue("--warmup", d.warmup(), 0, ChildSpec.MAX_COUNT),
                (int) a.count("--runs", d.runs(), MAX_RUNS),
                Answer.parse(a.value("--answer").orElse("continue"), "--answer"),
                kinds,
                a.flag("--sync-wakeup"),
                childCpu,
                supCpu,
                stacked,
                a.flag("--poll-wait-too"),
                a.flag("--as-supervisor-too"));
        if (c.supCpu() == c.childCpu() && cpus.size() > 1) {
            System.err.println("broker bench: the supervisor shares the child's CPU " + childCpu);
        }
        try (Scratch work = Scratch.create("heimdall-broker-bench-")) {
            BrokerBench.Report r = BrokerBench.run(c, work.path(), line -> System.err.println("broker bench: " + line));
            if (a.flag("--json")) {
                System.out.println(new ObjectMapper()
                        .enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(r));
            } else {
                System.out.print(BrokerBench.format(r));
            }
        }
        return 0;
    }
}
