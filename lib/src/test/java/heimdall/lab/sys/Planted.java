package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What an attacker plants at the names a run used to predict, and the check that a run touched none
 * of it: a canary file and a canary folder outside, symlinks to both and FIFOs (opening one for
 * writing would block), and a snapshot of everything under the folders watched.
 */
public final class Planted {
    public static final String CANARY_TEXT = "canary: must never change\n";

    private final Path canaryFile;
    private final Path canaryDir;
    private final List<Path> watched;
    private final List<Path> planted = new ArrayList<>();
    private final Map<String, String> before;

    private Planted(Path outside, List<Path> watched) throws IOException {
        this.canaryDir = Files.createDirectories(outside.resolve("canary-dir"));
        this.canaryFile = Files.writeString(outside.resolve("canary.txt"), CANARY_TEXT);
        this.watched = new ArrayList<>(watched);
        this.watched.add(outside);
        this.before = null;
    }

    private Planted(Planted p) throws IOException {
        this.canaryFile = p.canaryFile;
        this.canaryDir = p.canaryDir;
        this.watched = p.watched;
        this.planted.addAll(p.planted);
        this.before = snapshot(watched);
    }

    /** Canaries in {@code outside}; {@link #watch} then snapshots {@code outside} and every folder given. */
    public static Builder in(Path outside, Path... watched) throws IOException {
        return new Builder(new Planted(outside, List.of(watched)));
    }

    /** Plants, then {@link #watch}. */
    public static final class Builder {
        private final Planted p;

        Builder(Planted p) {
            this.p = p;
        }

        /** A symlink at {@code name} to the canary file. */
        public Builder linkToFile(Path name) throws IOException {
            p.planted.add(Files.createSymbolicLink(name, p.canaryFile));
            return this;
        }

        /** A symlink at {@code name} to the canary folder. */
        public Builder linkToDir(Path name) throws IOException {
            p.planted.add(Files.createSymbolicLink(name, p.canaryDir));
            return this;
        }

        /** A FIFO at {@code name}. */
        public Builder fifo(Path name) throws IOException, InterruptedException {
            mkfifo(name);
            p.planted.add(name);
            return this;
        }

        /** Everything planted; the state to compare against from now on. */
        public Planted watch() throws IOException {
            return new Planted(p);
        }
    }

    /** Makes a FIFO (coreutils' mkfifo). */
    public static void mkfifo(Path name) throws IOException, InterruptedException {
        Process m = new ProcessBuilder("mkfifo", "-m", "0666", name.toString())
                .inheritIO()
                .start();
        if (m.waitFor() != 0) {
            throw new IOException("mkfifo " + name + " failed");
        }
    }

    /** The canary folder (a planted link to it must not gain entries). */
    public Path canaryDir() {
        return canaryDir;
    }

    /**
     * Asserts nothing changed: the canary's bytes, the canary folder empty, every planted entry still
     * the same kind, and exactly the same names (with the same sizes) under every watched folder.
     */
    public void assertUntouched(String what) throws IOException {
        assertEquals(CANARY_TEXT, Files.readString(canaryFile, StandardCharsets.UTF_8), what + ": canary file changed");
        try (Stream<Path> s = Files.list(canaryDir)) {
            assertEquals(List.of(), s.toList(), what + ": something was created in the canary folder");
        }
        for (Path x : planted) {
            assertEquals(true, Files.exists(x, LinkOption.NOFOLLOW_LINKS), what + ": planted " + x + " removed");
        }
        assertEquals(before, snapshot(watched), what + ": entries created, removed or changed under " + watched);
    }

    /** Points {@code java.io.tmpdir} at {@code dir} (a private folder of the test) until closed. */
    public static AutoCloseable tmpdir(Path dir) {
        String old = System.getProperty("java.io.tmpdir");
        System.setProperty("java.io.tmpdir", dir.toString());
        return () -> System.setProperty("java.io.tmpdir", old);
    }

    /** Waits (up to a few seconds) for {@code done}, for checks after an asynchronous end. */
    public static boolean eventually(Supplier<Boolean> done) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (done.get()) {
                return true;
            }
            Thread.sleep(50);
        }
        return done.get();
    }

    private static Map<String, String> snapshot(List<Path> roots) throws IOException {
        Map<String, String> m = new TreeMap<>();
        for (Path root : roots) {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.toList()) {
                    String kind = Files.isSymbolicLink(p)
                            ? "link->" + Files.readSymbolicLink(p)
                            : Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                                    ? "file " + Files.size(p)
                                    : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir" : "other";
                    m.put(p.toString(), kind);
                }
            }
        }
        return m;
    }
}
