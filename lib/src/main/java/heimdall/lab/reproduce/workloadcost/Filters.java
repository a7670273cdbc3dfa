package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.floor.Floors;
import heimdall.lab.probe.Observations;
import heimdall.lab.probe.Probe;
import heimdall.lab.probe.ProfileGen;
import heimdall.lab.probe.SyscallNames;
import heimdall.lab.probe.Tracer;
import heimdall.lab.profile.HostConditions;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * The filter each mechanism installs, compiled to raw BPF in the run's private scratch folder: the program's
 * own profile (generated from its recorded runs), the container defaults, the broker floor.
 */
final class Filters {
    /** Podman's default profile: Debian's golang-github-containers-common. */
    static final Path PODMAN = Path.of("/usr/share/containers/seccomp.json");

    /**
     * Where a file of Docker's default profile is looked for: Debian's docker.io builds it into dockerd and
     * ships no file of it; golang-github-docker-docker-dev carries the source tree's {@code default.json}.
     */
    static final List<Path> DOCKER = List.of(
            Path.of("/usr/share/gocode/src/github.com/docker/docker/profiles/seccomp/default.json"),
            Path.of("/etc/docker/seccomp.json"));

    private final Path dir;
    private final SyscallNames names = SyscallNames.x86_64();
    private int written;

    Filters(Path dir) {
        this.dir = dir;
    }

    /**
     * A workload's recorded runs: its generated profile, and the calls a run makes (all tasks, mean over the
     * runs), or why it could not be recorded.
     */
    record Recorded(Profile profile, long callsMade, String refusal) {}

    /** Records {@code runs} runs of {@code w} under ptrace and generates its profile from them. */
    Recorded record(Workload w, int runs) throws IOException, InterruptedException {
        Probe.Result r;
        try {
            r = new Probe(Tracer.standard(), names).probe(w.command(), runs, w.command(), w.dir());
        } catch (Refusal e) {
            return new Recorded(null, 0, "its runs could not be recorded: " + e.getMessage());
        }
        Observations o = r.observations();
        if (o.statuses().stream().anyMatch(s -> s != 0)) {
            return new Recorded(null, 0, "a recorded run failed (statuses " + o.statuses() + ")");
        }
        long calls = o.calls().stream().mapToLong(Observations.Call::total).sum() / Math.max(1, o.runs());
        String json = ProfileGen.generate(o, "workload-cost " + w.name());
        Profile p = ProfileJson.parse(json, "generated profile of " + w.name(), HostConditions.thisHost(),
                        SyscallTable.x86_64())
                .profile();
        return new Recorded(p, calls, null);
    }

    /** The raw program {@code m} installs for {@code w}; null for none; a refusal saying why it cannot run. */
    Path program(Mechanism m, Workload w, Recorded recorded) throws IOException {
        return switch (m) {
            case NONE -> null;
            case OWN_PROFILE -> {
                if (recorded.refusal() != null) {
                    throw new Refusal(recorded.refusal());
                }
                yield write(recorded.profile(), "own-" + w.name());
            }
            case PODMAN -> {
                if (!Files.isRegularFile(PODMAN)) {
                    throw new Refusal(PODMAN + " is absent (Debian package golang-github-containers-common)");
                }
                yield write(ProfileJson.load(PODMAN).profile(), "podman");
            }
            case DOCKER -> {
                Path found = DOCKER.stream().filter(Files::isRegularFile).findFirst().orElseThrow(() -> new Refusal(
                        "no file of Docker's default profile here (looked for " + DOCKER + "; Debian's docker.io "
                                + "builds it into dockerd)"));
                yield write(ProfileJson.load(found).profile(), "docker");
            }
            case BROKER_CONTINUE_NATIVE, BROKER_CONTINUE_JAVA, BROKER_BROKER_JAVA -> {
                String why = Supervisor.unsupportedReason();
                if (why != null) {
                    throw new Refusal(why);
                }
                yield write(Floors.brokerFloor(), "broker-floor");
            }
        };
    }

    /** The name of call {@code nr} on x86_64. */
    String callName(int nr) {
        return names.name(nr);
    }

    private Path write(Profile p, String name) throws IOException {
        Path file = dir.resolve(String.format(Locale.ROOT, "%02d-%s.bpf", written++, name));
        Files.write(file, Compiler.compile(p).toBytes(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return file;
    }
}
