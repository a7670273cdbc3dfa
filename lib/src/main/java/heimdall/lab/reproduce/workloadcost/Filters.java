package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Program;
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
import java.util.Map;
import java.util.TreeMap;

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
    private final Path dockerProfile;
    private final Path userProfile;
    private final SyscallNames names = SyscallNames.x86_64();
    private int written;

    /**
     * @param dir our scratch folder for the compiled programs
     * @param dockerProfile a file of Docker's default profile the user named, or null: looked for in {@link #DOCKER}
     * @param userProfile the profile of {@code --profile}, or null
     */
    Filters(Path dir, Path dockerProfile, Path userProfile) {
        this.dir = dir;
        this.dockerProfile = dockerProfile;
        this.userProfile = userProfile;
    }

    /** A mechanism's filter: its raw program's file, the program, the profile it came from. */
    record Compiled(Path file, Program program, Profile profile) {}

    /**
     * A workload's recorded runs: its generated profile, and the calls a run makes (all tasks, mean over the
     * runs), or why it could not be recorded.
     */
    record Recorded(Profile profile, long callsMade, Map<Integer, Long> mix, String refusal) {}

    /** Records {@code runs} runs of {@code w} under ptrace and generates its profile from them. */
    Recorded record(Workload w, int runs) throws IOException, InterruptedException {
        Probe.Result r;
        try {
            r = new Probe(Tracer.standard(), names).probe(w.command(), runs, w.command(), w.dir());
        } catch (Refusal e) {
            return new Recorded(null, 0, Map.of(), "its runs could not be recorded: " + e.getMessage());
        }
        Observations o = r.observations();
        if (o.statuses().stream().anyMatch(s -> s != 0)) {
            return new Recorded(null, 0, Map.of(), "a recorded run failed (statuses " + o.statuses() + ")");
        }
        Map<Integer, Long> mix = new TreeMap<>();
        for (Observations.Call c : o.calls()) {
            mix.merge(c.nr(), Math.round((double) c.total() / Math.max(1, o.runs())), Long::sum);
        }
        long calls = mix.values().stream().mapToLong(Long::longValue).sum();
        String json = ProfileGen.generate(o, "workload-cost " + w.name());
        Profile p = ProfileJson.parse(
                        json, "generated profile of " + w.name(), HostConditions.thisHost(), SyscallTable.x86_64())
                .profile();
        return new Recorded(p, calls, mix, null);
    }

    /** The raw program {@code m} installs for {@code w}; null for none; a refusal saying why it cannot run. */
    Compiled program(Mechanism m, Workload w, Recorded recorded) throws IOException {
        return switch (m) {
            case NONE, LANDLOCK, FOLLOWER -> null; // no filter: their set-up is Enforcers'
            case OWN_PROFILE -> {
                if (recorded.refusal() != null) {
                    throw new Refusal(recorded.refusal());
                }
                yield write(recorded.profile(), "own-" + w.name());
            }
            case PROFILE -> write(ProfileJson.load(userProfile).profile(), "profile");
            case PODMAN -> {
                if (!Files.isRegularFile(PODMAN)) {
                    throw new Refusal(PODMAN + " is absent (Debian package golang-github-containers-common)");
                }
                yield write(ProfileJson.load(PODMAN).profile(), "podman");
            }
            case DOCKER -> {
                Path found = dockerProfile != null
                        ? dockerProfile
                        : DOCKER.stream()
                                .filter(Files::isRegularFile)
                                .findFirst()
                                .orElseThrow(() -> new Refusal(
                                        "no file of Docker's default profile here (looked for " + DOCKER + "; Debian's "
                                                + "docker.io builds it into dockerd, golang-github-docker-docker-dev ships "
                                                + "it; or name one with --docker-profile)"));
                yield write(ProfileJson.load(found).profile(), "docker");
            }
            case BROKER_CONTINUE_NATIVE, BROKER_CONTINUE_JAVA, BROKER_BROKER_JAVA, BROKER_BROKER_NATIVE -> {
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

    private Compiled write(Profile p, String name) throws IOException {
        Path file = dir.resolve(String.format(Locale.ROOT, "%02d-%s.bpf", written++, name));
        Program program = Compiler.compile(p);
        Files.write(file, program.toBytes(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new Compiled(file, program, p);
    }
}
