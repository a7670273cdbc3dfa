package heimdall.lab.probe;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.SafeFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab profile probe [--runs N] [--out FILE] [--any-status] -- CMD...} */
public final class ProfileProbeCommand implements Command {
    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of("--any-status"), Set.of("--runs", "--out"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "profile probe";
    }

    @Override
    public String summary() {
        return "trace a command (ptrace, all threads) N times and write its observed syscalls";
    }

    @Override
    public String help() {
        return """
                usage: ./lab profile probe [--runs N] [--out OBSERVATIONS.json] [--any-status] -- CMD [ARGS...]

                Runs CMD under heimdall-trace (ptrace: every thread and child followed) N times (default 3)
                and writes the observations: per syscall its number and count in each run, and for the
                argument-sensitive calls (mmap prot+flags, mprotect/pkey_mprotect prot, open/openat flags,
                prctl option; see ArgumentSensitive) the distinct argument values.
                Written to --out, or to stdout. CMD's output is captured, not shown.
                A run that exits nonzero is refused (exit 1) unless --any-status is given.
                Needs ptrace permission (root here).

                  ./lab profile probe --runs 3 --out obs.json -- /bin/true
                  ./lab profile gen obs.json -o profile.json
                """;
    }

    @Override
    public int run(List<String> argv) throws Exception {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        List<String> cmd = a.afterDashes();
        if (cmd.isEmpty()) {
            throw new BadInput("no command to probe: give it after -- (./lab profile probe --help)");
        }
        int runs = a.intValue("--runs", 3, 1, 1000);
        Probe.Result r = new Probe(Tracer.standard(), SyscallNames.x86_64()).probe(cmd, runs, cmd);
        for (int i = 0; i < r.runs().size(); i++) {
            Tracer.Run run = r.runs().get(i);
            System.err.printf(
                    Locale.ROOT,
                    "lab profile probe: run %d: status %d, %d syscalls, %d tasks%n",
                    i + 1,
                    run.status(),
                    run.syscalls().size(),
                    run.events().stream()
                            .filter(e -> e instanceof TraceEvent.Start)
                            .count());
            if (run.status() != 0 && !a.flag("--any-status")) {
                throw new Refusal("run " + (i + 1) + " of " + String.join(" ", cmd) + " exited with status "
                        + run.status() + " (use --any-status to keep it); its stderr: "
                        + run.stderr().strip());
            }
        }
        String text = ObservationsJson.write(r.observations());
        if (a.value("--out").isPresent()) {
            Path out = Path.of(a.value("--out").get());
            SafeFiles.writeOutput("-o", out, text.getBytes(StandardCharsets.UTF_8));
            System.err.printf(
                    Locale.ROOT,
                    "lab profile probe: %d distinct syscalls; observations in %s%n",
                    r.observations().calls().size(),
                    out);
        } else {
            System.out.print(text);
        }
        return 0;
    }
}
