package heimdall.lab.probe;

import heimdall.lab.BadInput;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab profile regen-fixtures [--runs N] [--only NAME]} */
public final class ProfileRegenCommand implements Command {
    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of(), Set.of("--runs", "--only"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "profile regen-fixtures";
    }

    @Override
    public String summary() {
        return "re-probe the fixture programs and rewrite fixtures/profiles/*/";
    }

    @Override
    public String help() {
        return """
                usage: ./lab profile regen-fixtures [--runs N] [--only abcdf|heimdall-wasm-host]

                Probes each fixture program N times (default 3) and rewrites, in this checkout,
                fixtures/profiles/<name>/observations.json and fixtures/profiles/<name>/x86_64-glibc.json:
                  abcdf               the native fixture, `abcdf 3`
                  heimdall-wasm-host  `node fixtures/programs/wasm-host/host.js`
                Counts differ from run to run; the profile changes only when the set of calls or argument
                values does. Needs ptrace permission and node.
                """;
    }

    @Override
    public int run(List<String> argv) throws Exception {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        int runs = a.intValue("--runs", 3, 1, 100);
        Path home = Path.of(System.getProperty("heimdall.lab.home", "."))
                .toAbsolutePath()
                .normalize();
        Probe probe = new Probe(Tracer.standard(), SyscallNames.x86_64());
        boolean any = false;
        for (FixtureProfiles.Fixture f : FixtureProfiles.fixtures(home)) {
            if (a.value("--only").isPresent() && !a.value("--only").get().equals(f.name())) {
                continue;
            }
            any = true;
            Observations o = FixtureProfiles.regenerate(f, home, probe, runs);
            System.out.printf(
                    Locale.ROOT,
                    "%s: %d syscalls over %d runs -> %s%n",
                    f.name(),
                    o.calls().size(),
                    runs,
                    home.relativize(FixtureProfiles.folder(home, f.name())));
        }
        if (!any) {
            throw new BadInput(
                    "option --only: unknown fixture '" + a.value("--only").get() + "'");
        }
        return 0;
    }
}
