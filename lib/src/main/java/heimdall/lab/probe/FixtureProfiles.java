package heimdall.lab.probe;

import heimdall.lab.Refusal;
import heimdall.lab.sys.SafeFiles;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The two fixture programs whose profiles are checked in under {@code fixtures/profiles/}, and how to
 * regenerate them: probe (3 runs) then gen, writing {@code observations.json} and
 * {@code x86_64-glibc.json} into each fixture's folder.
 */
public final class FixtureProfiles {
    /** Loop count of the probed abcdf runs (the fixture's default). */
    public static final String ABCDF_LOOPS = "3";

    public static final String WASM_HOST_SCRIPT = "fixtures/programs/wasm-host/host.js";

    /**
     * One fixture.
     *
     * @param name the folder under fixtures/profiles/
     * @param command what is run
     * @param recorded the command as written into the observations (portable, no absolute paths)
     */
    public record Fixture(String name, List<String> command, List<String> recorded) {}

    private FixtureProfiles() {}

    /** The fixtures, resolved against the checkout at {@code home}. */
    public static List<Fixture> fixtures(Path home) {
        Path host = home.resolve(WASM_HOST_SCRIPT);
        return List.of(
                new Fixture(
                        "abcdf",
                        List.of(NativeExecutables.abcdf().toString(), ABCDF_LOOPS),
                        List.of("abcdf", ABCDF_LOOPS)),
                new Fixture(
                        "heimdall-wasm-host",
                        List.of(node().toString(), host.toString()),
                        List.of("node", WASM_HOST_SCRIPT)));
    }

    /** The folder of one fixture's profile and observations. */
    public static Path folder(Path home, String name) {
        return home.resolve("fixtures/profiles").resolve(name);
    }

    /** {@code node} on PATH; a refusal naming the Debian package when missing. */
    public static Path node() {
        String path = System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "node");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new Refusal("node is not on PATH (the wasm host worker needs Node 20: apt-get install nodejs)");
    }

    /** Probes and generates one fixture's files; returns the observations written. */
    public static Observations regenerate(Fixture f, Path home, Probe probe, int runs)
            throws IOException, InterruptedException {
        Probe.Result r = probe.probe(f.command(), runs, f.recorded());
        for (int i = 0; i < r.runs().size(); i++) {
            Tracer.Run run = r.runs().get(i);
            if (run.status() != 0) {
                throw new Refusal(f.name() + ": probe run " + (i + 1) + " exited with status " + run.status()
                        + "; a profile of a failing run would be wrong. stderr: "
                        + run.stderr().strip());
            }
        }
        Path dir = folder(home, f.name());
        Files.createDirectories(dir);
        ObservationsJson.write(r.observations(), dir.resolve("observations.json"));
        SafeFiles.replace(
                dir.resolve("x86_64-glibc.json"),
                ProfileGen.generate(
                        r.observations(), dir.resolve("observations.json").toString()));
        return r.observations();
    }
}
