package heimdall.lab.sys;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mark a folder we make for one run carries, so that a later run can tell a folder left by a
 * killed run from everything else: a file {@value #NAME} inside it naming the creating process (its
 * pid and its start time from {@code /proc/PID/stat}, so a reused pid is not taken for the creator),
 * the boot and the pid namespace it ran in. {@link #sweep} removes a folder only when all of these
 * hold: a real directory (not a link) owned by us with mode 0700 exactly, holding a regular marker file
 * of ours that parses, whose creator is certainly dead (another boot, or the same boot and pid
 * namespace with no process of that pid and start time). Anything else, a planted look-alike included,
 * is left alone; a creator in another pid namespace cannot be checked, so its folder is kept too, and so,
 * in a {@code ./lab vm} guest, is a folder of another boot (the host's, or another guest's, running now in
 * the checkout they share).
 */
public final class CreatorMark {
    private CreatorMark() {}

    /** The marker file's name inside a marked folder. */
    public static final String NAME = ".heimdall-creator";

    private static final String MAGIC = "heimdall-lab creator";

    /** This process as a marker names it. */
    private record Creator(long pid, long start, String boot, String pidns) {
        String text() {
            return MAGIC + "\npid " + pid + "\nstart " + start + "\nboot " + boot + "\npidns " + pidns + "\n";
        }

        static Creator parse(String text) {
            String[] l = text.split("\n", -1);
            if (l.length != 6
                    || !l[0].equals(MAGIC)
                    || !l[1].startsWith("pid ")
                    || !l[2].startsWith("start ")
                    || !l[3].startsWith("boot ")
                    || !l[4].startsWith("pidns ")
                    || !l[5].isEmpty()) {
                return null;
            }
            try {
                return new Creator(
                        Long.parseLong(l[1].substring(4)),
                        Long.parseLong(l[2].substring(6)),
                        l[3].substring(5),
                        l[4].substring(6));
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    private static volatile Creator self;

    private static Creator self() throws IOException {
        Creator c = self;
        if (c == null) {
            long pid = ProcessHandle.current().pid();
            c = new Creator(pid, startTime(pid), boot(), pidns());
            self = c;
        }
        return c;
    }

    /** Writes the marker naming this process into {@code dir} (a folder we just made, mode 0700). */
    public static void mark(Path dir) throws IOException {
        SafeFiles.writeNew(dir.resolve(NAME), self().text().getBytes(StandardCharsets.UTF_8));
    }

    /** Removes the marker from {@code dir}, so that the folder is never swept (done before it is published). */
    public static void unmark(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(NAME));
    }

    /**
     * Removes every folder in {@code parent} whose name {@code names} accepts and that a dead run of ours
     * made (see the class comment); returns how many. Failures are skipped: sweeping is housekeeping.
     */
    public static int sweep(Path parent, Predicate<String> names) {
        int removed = 0;
        try (DirectoryStream<Path> entries =
                Files.newDirectoryStream(parent, p -> names.test(p.getFileName().toString()))) {
            for (Path dir : entries) {
                try {
                    if (leftByDeadRun(dir)) {
                        removeMarked(dir);
                        removed++;
                    }
                } catch (IOException | RuntimeException skipped) {
                    // not ours to judge, or gone already: left as it is
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return removed;
        }
        return removed;
    }

    /** Whether {@code dir} is a marked folder of ours whose creator is certainly dead. */
    static boolean leftByDeadRun(Path dir) throws IOException {
        return leftByDeadRun(dir, VmFacts.isGuest());
    }

    /** As above, {@code guest} saying whether this process runs in a {@code ./lab vm} guest. */
    static boolean leftByDeadRun(Path dir, boolean guest) throws IOException {
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isDirectory()
                || (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS) != SafeFiles.ourUid()
                || ((Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777) != 0700) {
            return false;
        }
        Path marker = dir.resolve(NAME);
        if (!Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
            return cutBeforeItsMark(dir, a, guest);
        }
        PosixFileAttributes m = Files.readAttributes(marker, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!m.isRegularFile()
                || m.size() > 4096
                || (Integer) Files.getAttribute(marker, "unix:uid", LinkOption.NOFOLLOW_LINKS) != SafeFiles.ourUid()) {
            return false;
        }
        byte[] text;
        try (InputStream in = Files.newInputStream(marker, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            text = in.readNBytes(4096);
        }
        Creator c = Creator.parse(new String(text, StandardCharsets.UTF_8));
        if (c == null) {
            return false;
        }
        Creator me = self();
        if (!c.boot().equals(me.boot())) {
            // Made before this boot, so its creator is gone; but a ./lab vm guest shares the checkout with its
            // host (and other guests) running now, whose boots are other boots: there, it cannot be judged.
            return !guest;
        }
        if (!c.pidns().equals(me.pidns())) {
            return false; // its pids are not ours to look up
        }
        if (c.pid() == me.pid()) {
            return c.start() != me.start();
        }
        try {
            return startTime(c.pid()) != c.start();
        } catch (IOException noSuchProcess) {
            return true;
        }
    }

    /**
     * A folder of ours (checked by the caller: a real directory, ours, 0700) with no mark, holding nothing but
     * the mark's own temporaries ({@link SafeFiles#writeNew} makes the mark in a temporary, syncs it, then links
     * it): a run killed between making the folder and finishing its mark, the one moment a folder has no mark.
     * It is reaped when the process its name carries ({@link #tag}) is certainly dead, or, for a name without
     * one or in a {@code ./lab vm} guest (whose pids are not the host's), once last changed over
     * {@link #UNMARKED_GRACE} ago. The name's pid is read in this pid namespace: a run of another namespace sharing
     * this folder, caught in those milliseconds, can lose its folder (it then fails writing its mark, saying so).
     * A live run spends milliseconds there; one stopped there longer finds its folder
     * gone when it writes the mark, and fails saying so, rather than leaving it behind.
     */
    private static boolean cutBeforeItsMark(Path dir, PosixFileAttributes a, boolean guest) throws IOException {
        String markTemporary = "." + NAME + ".tmp-";
        try (var entries = Files.list(dir)) {
            for (Path e : (Iterable<Path>) entries::iterator) {
                if (!e.getFileName().toString().startsWith(markTemporary)
                        || !Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS)
                        || Files.size(e) > 4096) {
                    return false;
                }
            }
        }
        Matcher tagged = TAGGED.matcher(dir.getFileName().toString());
        if (!guest && tagged.matches()) {
            try {
                return startTime(Long.parseLong(tagged.group(1))) != Long.parseLong(tagged.group(2));
            } catch (IOException noSuchProcess) {
                return true;
            } catch (NumberFormatException notATag) {
                // too long to be a pid or start time: judged by age
            }
        }
        return a.lastModifiedTime().toInstant().isBefore(java.time.Instant.now().minus(UNMARKED_GRACE));
    }

    /** A name ending {@code -<pid>-<start>-<random digits>}, as {@link Scratch} makes them. */
    private static final Pattern TAGGED = Pattern.compile(".*-(\\d{1,18})-(\\d{1,18})-\\d+");

    /**
     * Removes a marked folder and everything in it (links removed, never followed), the mark last: a kill midway
     * leaves a marked folder, or an empty unmarked one, and a later sweep takes either; never a folder with
     * files and no mark, which no sweep may judge.
     */
    public static void removeMarked(Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            SafeFiles.removeTree(dir);
            return;
        }
        try (DirectoryStream<Path> entries =
                Files.newDirectoryStream(dir, p -> !p.getFileName().toString().equals(NAME))) {
            for (Path e : entries) {
                SafeFiles.removeTree(e);
            }
        } catch (NoSuchFileException gone) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove scratch folder " + dir, e);
        }
        SafeFiles.removeTree(dir);
    }

    /** How long a folder may sit with no mark before a sweep takes it for one cut before its mark. */
    static final java.time.Duration UNMARKED_GRACE = java.time.Duration.ofSeconds(2);

    /**
     * This process as a file name can carry it, {@code <pid>-<start>}: for files too small to hold a
     * marker (a temporary beside an output), so that a later writer can tell one a killed run left.
     */
    public static String tag() throws IOException {
        Creator me = self();
        return me.pid() + "-" + me.start();
    }

    /**
     * Removes the regular files of ours in {@code dir} named {@code prefix<pid>-<start>-...} whose
     * process is gone (no such pid, or another start time); a file of anyone else, a link, or a name
     * that does not parse is left alone. Failures are skipped.
     */
    public static void sweepFiles(Path dir, String prefix) {
        try (DirectoryStream<Path> entries =
                Files.newDirectoryStream(dir, p -> p.getFileName().toString().startsWith(prefix))) {
            for (Path f : entries) {
                try {
                    String[] tag = f.getFileName()
                            .toString()
                            .substring(prefix.length())
                            .split("-", 3);
                    if (tag.length < 3) {
                        continue;
                    }
                    long pid = Long.parseLong(tag[0]);
                    long start = Long.parseLong(tag[1]);
                    PosixFileAttributes a =
                            Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (!a.isRegularFile()
                            || (Integer) Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                                    != SafeFiles.ourUid()) {
                        continue;
                    }
                    boolean dead;
                    try {
                        dead = startTime(pid) != start;
                    } catch (IOException noSuchProcess) {
                        dead = true;
                    }
                    if (dead) {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException | RuntimeException skipped) {
                    // not ours to judge, or gone already
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // housekeeping only
        }
    }

    /** Field 22 of {@code /proc/PID/stat}: the process's start time in clock ticks since boot. */
    static long startTime(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(after[19]); // fields from 3 (state) on: 22 is the 20th
    }

    private static String boot() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    }

    private static String pidns() throws IOException {
        return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    }
}
