package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The project's checked-in inputs: fixture profiles and the results root (published tables are read typed, in
 * {@code heimdall.lab.results}). Found under the
 * project's home: the system property {@code heimdall.lab.home} (set by {@code ./lab}), else the
 * first folder upwards from the working directory that holds {@code fixtures/profiles}.
 */
public final class Fixtures {
    private Fixtures() {}

    /** The project's home folder. */
    public static Path home() {
        String property = System.getProperty("heimdall.lab.home");
        if (property != null) {
            return Path.of(property);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("fixtures/profiles"))) {
                return p;
            }
        }
        throw new BadInput("cannot find the heimdall-lab folder (fixtures/profiles) above "
                + Path.of("").toAbsolutePath() + "; set -Dheimdall.lab.home");
    }

    /** A fixture's checked-in profile, {@code fixtures/profiles/<name>/x86_64-glibc.json}. */
    public static Profile profile(String name) {
        Path file = home().resolve("fixtures/profiles").resolve(name).resolve("x86_64-glibc.json");
        ProfileJson.Loaded loaded = ProfileJson.load(file);
        loaded.warnings().forEach(w -> System.err.println(file + ": warning: " + w));
        return loaded.profile();
    }

    /** The default root of results folders, {@code <home>/results}. */
    public static Path resultsRoot() {
        return home().resolve("results");
    }
}
