package heimdall.lab.probe;

import heimdall.lab.Io;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.SafeFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab profile gen OBSERVATIONS.json [-o PROFILE.json]} */
public final class ProfileGenCommand implements Command {
    private static final CommandOptions OPTIONS =
            CommandOptions.of(Set.of(), Set.of("--out")).withShortOut();

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "profile gen";
    }

    @Override
    public String summary() {
        return "turn probe observations into an OCI seccomp profile (kill by default)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab profile gen OBSERVATIONS.json [-o|--out PROFILE.json]

                Writes an OCI LinuxSeccomp profile: defaultAction SCMP_ACT_KILL_PROCESS, architectures
                [SCMP_ARCH_X86_64], one SCMP_ACT_ALLOW entry naming every observed call whose arguments do not
                matter, and for each argument-sensitive call one SCMP_ACT_ALLOW entry per observed value
                (tuple), compared with SCMP_CMP_EQ. Sorted: the same observations give the same bytes.
                To stdout without -o.
                """;
    }

    @Override
    public int run(List<String> argv) throws Exception {
        List<String> mapped = new ArrayList<>();
        for (String s : argv) {
            mapped.add(s.equals("-o") ? "--out" : s);
        }
        Args a = Args.parse(name(), mapped, OPTIONS).atMost(1);
        Path in = Path.of(a.positional(0, "OBSERVATIONS.json"));
        Io.requireReadable(in);
        String profile = ProfileGen.generate(ObservationsJson.read(in), in.toString());
        if (a.value("--out").isPresent()) {
            SafeFiles.writeOutput("-o", Path.of(a.value("--out").get()), profile.getBytes(StandardCharsets.UTF_8));
        } else {
            System.out.print(profile);
        }
        return 0;
    }
}
