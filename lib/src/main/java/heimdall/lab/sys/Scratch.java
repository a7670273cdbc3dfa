package heimdall.lab.sys;

import heimdall.lab.Refusal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A run's private scratch folder: a random name made by {@link Files#createTempDirectory} (mode 0700,
 * owned by us) under {@code java.io.tmpdir}, {@code <prefix><pid>-<start>-<random>} (see {@link CreatorMark#tag}),
 * removed when the run closes it, and by a shutdown hook
 * when the JVM ends first (Ctrl-C, SIGTERM). Nothing in it has a name another user can predict, and
 * no one else can create, rename or replace anything inside it.
 *
 * <p>A run killed outright (SIGKILL) runs no hook: its folders carry a {@link CreatorMark}, and the
 * next run's first scratch folder removes every folder a dead run of ours left in the same place
 * (and nothing else: not another user's, not a live run's, not a look-alike without the mark).
 *
 * <p>Use with try-with-resources; files inside are made with {@link #newDirectory} and
 * {@link SafeFiles}. A run that has its own graceful stop (it goes on writing results for a while
 * after Ctrl-C) gives a grace period: the shutdown hook then waits that long for the run to close the
 * folder itself before removing it, so the measurement in flight does not lose its files.
 */
public final class Scratch implements AutoCloseable {
    private static final Set<Scratch> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile boolean shuttingDown;
    private static final Set<Path> SWEPT = new HashSet<>();

    /** What every scratch folder's name starts with (the next run sweeps only such names). */
    public static final String PREFIX = "heimdall-";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Scratch::reapAll, "heimdall-scratch-reaper"));
    }

    private final Path path;
    private final Duration grace;
    private final CountDownLatch closed = new CountDownLatch(1);

    private Scratch(Path path, Duration grace) {
        this.path = path;
        this.grace = grace;
    }

    /**
     * A fresh private folder named {@code <prefix><random>} ({@value #PREFIX} put in front of a prefix
     * without it), marked as this run's ({@link CreatorMark}); removed at once when the JVM ends first.
     */
    public static Scratch create(String prefix) {
        return create(prefix, Duration.ZERO);
    }

    /**
     * As {@link #create(String)}; when the JVM ends first, the shutdown hook waits up to {@code grace}
     * for the owner's {@link #close} before removing the folder.
     */
    public static Scratch create(String prefix, Duration grace) {
        if (!prefix.startsWith(PREFIX)) {
            prefix = PREFIX + prefix; // every scratch folder is one the next run's sweep looks at
        }
        if (shuttingDown) {
            throw new IllegalStateException("the JVM is shutting down: no new scratch folder");
        }
        Path parent = Path.of(System.getProperty("java.io.tmpdir"));
        checkParent(parent);
        try {
            sweepOnce(parent);
            // <prefix><pid>-<start>-<random>: the name says whose it is from the first moment, before its mark
            Path dir = Files.createTempDirectory(
                    parent,
                    prefix + CreatorMark.tag() + "-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Scratch s = new Scratch(dir, grace);
            LIVE.add(s);
            try {
                CreatorMark.mark(dir);
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
            if (shuttingDown) {
                // the reaper may have passed already: do not leave it behind
                s.close();
                throw new IllegalStateException("the JVM is shutting down: no new scratch folder");
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch folder in " + parent, e);
        }
    }

    /**
     * The first scratch folder of this JVM first removes those a killed run left in {@code parent}:
     * named {@value #PREFIX}..., ours, mode 0700 and marked by a run that is dead ({@link CreatorMark}).
     */
    private static void sweepOnce(Path parent) {
        synchronized (SWEPT) {
            if (SWEPT.add(parent.toAbsolutePath().normalize())) {
                CreatorMark.sweep(parent, n -> n.startsWith(PREFIX));
            }
        }
    }

    /**
     * The folder a scratch directory goes into must not let others rename or replace our entries:
     * owned by root or us, and either writable by no one else or sticky (like {@code /tmp}).
     */
    static void checkParent(Path parent) {
        try {
            String why = SafeFiles.othersCanWrite(parent, true);
            if (why != null) {
                throw new Refusal("java.io.tmpdir " + parent + " is not a safe place for scratch folders: " + why);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot inspect java.io.tmpdir " + parent, e);
        }
    }

    /** The folder. */
    public Path path() {
        return path;
    }

    /** A new sub-folder {@code name} (mode 0700); an existing entry is an error. */
    public Path newDirectory(String name) {
        Path d = path.resolve(name);
        try {
            return Files.createDirectory(
                    d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + d, e);
        }
    }

    /** Whether the folder still exists (for tests and diagnostics). */
    public boolean exists() {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Removes the folder and everything in it (links removed, never followed), its mark last, so that a kill
     * midway leaves a folder the next run's sweep still knows for ours; idempotent.
     */
    @Override
    public void close() {
        try {
            CreatorMark.removeMarked(path);
        } finally {
            LIVE.remove(this);
            closed.countDown();
        }
    }

    private static void reapAll() {
        shuttingDown = true;
        for (Scratch s : LIVE.toArray(new Scratch[0])) {
            try {
                if (!s.grace.isZero()) {
                    s.closed.await(s.grace.toMillis(), TimeUnit.MILLISECONDS);
                }
                s.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                s.close();
            } catch (RuntimeException e) {
                System.err.println("heimdall-lab: scratch folder " + s.path + " not removed: " + e.getMessage());
            }
        }
    }
}
