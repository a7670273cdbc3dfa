package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Policy;
import heimdall.lab.child.Call;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floors;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.reproduce.workloadcost.WorkloadRequest;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The entry points of the exploring API: each returns a block to look at or a builder to run.
 *
 * <pre>{@code
 * FloorView podman = Lab.floor(Path.of("/usr/share/containers/seccomp.json"));
 * Measurement none = Lab.measure("getppid").runs(3).run();
 * Measurement under = Lab.measure("getppid").under(podman).runs(3).run();
 * under.addedOver(none).table();
 * RoundTrip rt = Lab.broker(n -> Answer.error(13)).javaSupervisor().roundTrip();
 * GraphView g = Lab.record("/bin/true");
 * g.prepare().cursor("main").step("execve");
 * }</pre>
 */
public final class Lab {
    private Lab() {}

    /**
     * The static floor of an OCI, Docker or Podman seccomp profile file, as a launch installs it.
     *
     * @throws BadInput naming the file and the JSON field when it does not parse or does not compile
     */
    public static FloorView floor(Path profileFile) {
        if (profileFile == null) {
            throw BadInput.at("floor", "profile", "no file given");
        }
        Io.requireReadable(profileFile); // then read as every profile is: no link, FIFO or device at the name
        ProfileJson.Loaded loaded = ProfileJson.load(profileFile);
        return FloorView.of(
                profileFile.getFileName().toString(), loaded.profile(), loaded.warnings(), profileFile.toString());
    }

    /** The static floor of a profile built in code ({@link Profile#builder}). */
    public static FloorView floor(String name, Profile profile) {
        if (profile == null) {
            throw BadInput.at("floor", "profile", "no profile given");
        }
        return FloorView.of(name == null || name.isBlank() ? "profile" : name, profile, List.of(), "floor " + name);
    }

    /** The static floor of one of the project's fixture profiles ({@code abcdf}, {@code heimdall-wasm-host}). */
    public static FloorView fixtureFloor(String fixture) {
        Path file = fixtureProfile(fixture);
        ProfileJson.Loaded loaded = ProfileJson.load(file);
        return FloorView.of(
                "static floor, " + (fixture.equals("heimdall-wasm-host") ? "wasm host" : fixture),
                loaded.profile(),
                loaded.warnings(),
                file.toString());
    }

    /** A fixture profile's file, {@code fixtures/profiles/<name>/x86_64-glibc.json}. */
    static Path fixtureProfile(String fixture) {
        if (fixture == null || !fixture.matches("[A-Za-z0-9._-]+") || fixture.startsWith(".")) {
            throw BadInput.at("fixture floor", "name", "'" + fixture + "' is not a fixture name");
        }
        Path file =
                Fixtures.home().resolve("fixtures/profiles").resolve(fixture).resolve("x86_64-glibc.json");
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw BadInput.at("fixture floor", "name", "no fixture profile '" + fixture + "' (" + file + ")");
        }
        return file;
    }

    /**
     * The broker filter alone, as a brokered job runs without a static floor ({@link Floors#brokerFloor()}):
     * every call that opens a file by name ({@code open}, {@code openat}, {@code openat2},
     * {@code creat}) notifies the supervisor, the calls that open without a name it could check
     * ({@code open_by_handle_at}, {@code io_uring_setup}, {@code open_tree}, the mount API, ...) kill
     * the process, and so do other architectures, the x32 numbers and numbers the table does not know;
     * the rest runs. A broker, not a sandbox: what the child does to files without opening them is a
     * floor's to judge ({@link FloorView#stacked}).
     */
    public static FloorView brokerFloor() {
        return FloorView.brokered(BROKER_FLOOR, Floors.brokerFloor(), Floors.OPEN_BY_NAME);
    }

    /** The name {@link #brokerFloor()} goes by in results. */
    public static final String BROKER_FLOOR = "broker filter alone: a broker, not a sandbox";

    /**
     * A broker filter for measuring: everything allowed, {@code brokered} calls notify a supervisor.
     * Not a floor: any call it does not name runs unchecked; a job's default is {@link #brokerFloor()}.
     */
    public static FloorView brokerFilter(String... brokered) {
        if (brokered.length == 0) {
            throw BadInput.at("broker filter", "brokered", "name at least one call to broker");
        }
        Profile p = Floors.brokerFilter(Set.of(brokered));
        return FloorView.brokered("broker filter " + String.join(",", brokered), p, List.of(brokered));
    }

    /**
     * Measures a call by name: {@code getppid}, {@code gettid}, {@code getpid}, {@code sched_yield},
     * {@code prctl}, {@code mprotect} (the runner's named calls); {@code openat} goes through
     * {@link #measure(Call)} with {@link Call#openat}.
     *
     * @throws BadInput naming the field {@code call} for a name the runner does not know
     */
    public static Measure measure(String call) {
        return new Measure(Calls.named(call));
    }

    /** Measures any call by number with up to six arguments (missing ones are 0). */
    public static Measure measure(int nr, long... args) {
        return new Measure(Calls.numbered(nr, args));
    }

    /** Measures a call built with {@link Call}'s factories ({@link Call#openat}, {@link Call#syscall}). */
    public static Measure measure(Call call) {
        if (call == null) {
            throw BadInput.at("measure", "call", "no call given");
        }
        // These need more than a floor: a program to attach, or a partner thread; their reproductions measure them.
        if (call.kind() == Call.Kind.NONE
                || call.kind() == Call.Kind.PINGPONG
                || call.kind().attaches()) {
            throw BadInput.at(
                    "measure",
                    "call",
                    call.label() + " is not measured this way (see ./lab reproduce attach-cost, "
                            + "floor-cost's round-trip floor)");
        }
        return new Measure(call);
    }

    /**
     * A brokered round trip whose notified {@code openat} is answered by {@code policy}, a Java lambda
     * run by the Java supervisor ({@link Broker#javaSupervisor()}). Without {@link Broker#under} the
     * child runs under {@link #brokerFloor()}, so the policy answers every call that opens by name
     * (see {@link Policy}'s example).
     */
    public static Broker broker(Policy policy) {
        if (policy == null) {
            throw BadInput.at("broker", "policy", "no policy given");
        }
        return new Broker(policy, null);
    }

    /** A brokered round trip with one fixed answer, which either supervisor can give. */
    public static Broker broker(Answer answer) {
        if (answer == null) {
            throw BadInput.at("broker", "answer", "no answer given");
        }
        return new Broker(Policy.always(answer), answer);
    }

    /**
     * A Landlock ruleset for a measured child, every file access denied until a rule allows it:
     * {@code Lab.landlock().readBeneath(in)} is the broker's policy in the kernel's terms. Give it to a child
     * with {@code ChildSpec.withLandlock}; the child builds and enforces it on itself (the JVM never does).
     * See {@link Landlock} for what it confines and what it does not, and {@link Landlock#plan} for a kernel
     * whose ABI lacks a right (refused unless {@link Landlock#withBestEffort()}).
     */
    public static Landlock landlock() {
        return Landlock.create();
    }

    /**
     * A graph from its Arrow pair, which must be pinned in the {@code SHA256SUMS} beside the files.
     *
     * @throws BadInput naming the file and column (or {@code sha256}) that is wrong
     */
    public static GraphView graph(Path nodes, Path edges) {
        if (nodes == null || edges == null) {
            throw BadInput.at("graph", nodes == null ? "nodes" : "edges", "no file given");
        }
        return new GraphView(GraphFiles.readPinned(nodes, edges), "files");
    }

    /** A checked-in graph of {@code fixtures/graphs} ({@code abcdf}, {@code broker}), pinned. */
    public static GraphView fixtureGraph(String name) {
        if (name == null || !name.matches("[A-Za-z0-9._-]+") || name.startsWith(".")) {
            throw BadInput.at("fixture graph", "name", "'" + name + "' is not a fixture name");
        }
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        return graph(dir.resolve(name + GraphFiles.NODES_SUFFIX), dir.resolve(name + GraphFiles.EDGES_SUFFIX));
    }

    /** This JVM's measurements, to save as a results folder ({@link Session#save()}). */
    public static Session session() {
        return Session.current();
    }

    /**
     * Two floors call by call, interleaved run by run: {@code Lab.compare(mine, podman).calls("getppid")}
     * ({@link FloorCompare}).
     */
    public static FloorCompare compare(FloorView floorA, FloorView floorB) {
        return new FloorCompare(floorA, floorB);
    }

    /**
     * Two measurements A/B in one run, interleaved run by run, B against A judged as {@code ./lab compare}
     * judges a row: {@code Lab.ab(Lab.measure("getppid").under(mine), Lab.measure("getppid").under(podman)).run()}
     * ({@link AB}). For a list of calls under two floors, {@link #compare}.
     */
    public static AB ab(Measure a, Measure b) {
        return new AB(a, b);
    }

    /**
     * A program run whole under every mechanism ({@code ./lab reproduce workload-cost --workload -- CMD}):
     * {@code Lab.workload("gcc", "-c", "x.c").runs(10).profile(mine).run()} writes a results folder and
     * returns its path; {@code WorkloadRequest.rows(path)} reads its rows back.
     */
    public static WorkloadRequest workload(String... command) {
        return WorkloadRequest.of(List.of(command));
    }

    /**
     * Records the graph of a command run under ptrace; the files are written into a private scratch
     * folder, imported with their pins and removed.
     */
    public static GraphView record(String... command) {
        return Recording.record(List.of(command));
    }
}
