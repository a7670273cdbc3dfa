package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep removes a folder a dead run of ours left, and nothing else: not a live run's, not one whose
 * creator it cannot check, not a look-alike with another owner, mode, no mark, a bad mark or a link.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CreatorMarkTest {
    @TempDir
    Path tmp;

    static String boot() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    }

    static String pidns() throws IOException {
        return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    }

    /** A pid that was a process a moment ago and is now reaped (not reused within the test's second). */
    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    Path folder(String name, String mark) throws IOException {
        Path d = Files.createDirectory(
                tmp.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
        if (mark != null) {
            Files.writeString(d.resolve(CreatorMark.NAME), mark);
        }
        Files.writeString(d.resolve("lanes-input.bin"), "left by the run");
        return d;
    }

    static String mark(long pid, long start, String boot, String pidns) {
        return "heimdall-lab creator\npid " + pid + "\nstart " + start + "\nboot " + boot + "\npidns " + pidns + "\n";
    }

    @Test
    void aDeadRunsFoldersGoEverythingElseStays() throws Exception {
        long me = ProcessHandle.current().pid();
        long myStart = CreatorMark.startTime(me);
        Path dead = folder("heimdall-dead", mark(deadPid(), 12345, boot(), pidns()));
        Path reused = folder("heimdall-reused", mark(me, myStart - 1, boot(), pidns())); // our pid, another start: dead
        Path otherBoot = folder("heimdall-boot", mark(me, myStart, "00000000-0000-0000-0000-000000000000", pidns()));
        Path live = folder("heimdall-live", mark(me, myStart, boot(), pidns()));
        Path otherNs = folder("heimdall-ns", mark(deadPid(), 1, boot(), "pid:[1]"));
        Path noMark = folder("heimdall-nomark", null);
        Path badMark = folder("heimdall-badmark", "heimdall-lab creator\npid x\n");
        Path openMode = folder("heimdall-mode", mark(deadPid(), 1, boot(), pidns()));
        Files.setPosixFilePermissions(openMode, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path otherName = folder("not-ours", mark(deadPid(), 1, boot(), pidns()));
        Path linkedMark = folder("heimdall-linkedmark", null);
        Path markOutside = Files.writeString(tmp.resolve("mark-outside"), mark(deadPid(), 1, boot(), pidns()));
        Files.createSymbolicLink(linkedMark.resolve(CreatorMark.NAME), markOutside);
        Path target = folder("target-of-link", mark(deadPid(), 1, boot(), pidns()));
        Path link = Files.createSymbolicLink(tmp.resolve("heimdall-link"), target);
        Path otherOwner = folder("heimdall-owner", mark(deadPid(), 1, boot(), pidns()));
        boolean chowned = SafeFiles.ourUid() == 0;
        if (chowned) {
            Files.setAttribute(otherOwner, "unix:uid", 65534);
        }

        int removed = CreatorMark.sweep(tmp, n -> n.startsWith("heimdall-"));

        assertFalse(Files.exists(dead, LinkOption.NOFOLLOW_LINKS), "a dead creator's folder goes");
        assertFalse(
                Files.exists(reused, LinkOption.NOFOLLOW_LINKS),
                "a reused pid with another start time is not the creator");
        assertFalse(Files.exists(otherBoot, LinkOption.NOFOLLOW_LINKS), "a folder from an earlier boot goes");
        for (Path kept : new Path[] {live, otherNs, noMark, badMark, openMode, otherName, linkedMark, target}) {
            assertTrue(
                    Files.isRegularFile(kept.resolve("lanes-input.bin"), LinkOption.NOFOLLOW_LINKS),
                    kept + " is left alone");
        }
        assertTrue(Files.isSymbolicLink(link), "a link is left alone, and what it points to");
        assertTrue(Files.isRegularFile(markOutside));
        if (chowned) {
            assertTrue(Files.exists(otherOwner.resolve("lanes-input.bin")), "another user's folder is left alone");
        }
        assertEquals(chowned ? 3 : 4, removed);
    }

    @Test
    void inAGuestAFolderOfAnotherBootIsKeptSinceItsHostOrAnotherGuestMayRunNow() throws Exception {
        long me = ProcessHandle.current().pid();
        Path host = folder("heimdall-hostrun", mark(me, 1, "00000000-0000-0000-0000-000000000000", pidns()));
        Path dead = folder("heimdall-dead", mark(deadPid(), 1, boot(), pidns()));
        assertFalse(CreatorMark.leftByDeadRun(host, true), "a guest cannot judge another boot's run");
        assertTrue(CreatorMark.leftByDeadRun(host, false), "a host can: an earlier boot of its own");
        assertTrue(CreatorMark.leftByDeadRun(dead, true), "a dead run of the guest's own boot is judged as anywhere");
        assertTrue(VmFacts.isGuest(Files.writeString(tmp.resolve("cmdline"), "quiet heimdall.vm=1 rdinit=/init\n")));
        assertFalse(VmFacts.isGuest(Files.writeString(tmp.resolve("cmdline2"), "quiet heimdall.vm=10\n")));
    }

    @Test
    void aScratchFolderIsMarkedByThisLiveRun() throws Exception {
        try (Scratch s = Scratch.create("heimdall-lab-marktest-")) {
            assertEquals(
                    mark(
                            ProcessHandle.current().pid(),
                            CreatorMark.startTime(ProcessHandle.current().pid()),
                            boot(),
                            pidns()),
                    Files.readString(s.path().resolve(CreatorMark.NAME)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(s.path())));
            assertFalse(CreatorMark.leftByDeadRun(s.path()), "a live run's folder is never swept");
        }
    }

    /** A run SIGKILLed between making its folder and writing the mark leaves an empty unmarked one: reaped once old. */
    @Test
    void anEmptyFolderCutBeforeItsMarkIsReapedOnceOldAndNothingElseUnmarked() throws IOException {
        var mode = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
        Path cut = Files.createDirectory(tmp.resolve("heimdall-cut"), mode);
        Path fresh = Files.createDirectory(tmp.resolve("heimdall-fresh"), mode);
        Path full = Files.createDirectory(tmp.resolve("heimdall-full"), mode);
        Files.writeString(full.resolve("data"), "x");
        var old = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(60));
        Files.setLastModifiedTime(cut, old);
        Files.setLastModifiedTime(full, old);
        assertEquals(1, CreatorMark.sweep(tmp, n -> n.startsWith("heimdall-")));
        assertFalse(Files.exists(cut), "the folder cut before its mark is reaped");
        assertTrue(Files.isDirectory(fresh), "a folder made a moment ago (a live run about to mark it) is kept");
        assertTrue(Files.isRegularFile(full.resolve("data")), "an unmarked folder with something in it is kept");
    }

    /**
     * A run SIGKILLed while its mark was being written leaves the mark's temporary and no mark; the folder's name
     * carries its creator ({@code -<pid>-<start>-<random>}), so a dead creator's folder goes at once, not after a
     * grace the next run may not wait (the leftover {@code KilledJvmLeavesNothingTest} once found).
     */
    @Test
    void aFolderCutWhileItsMarkWasWrittenGoesAtOnceWhenTheCreatorItsNameCarriesIsDead() throws Exception {
        var mode = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
        long me = ProcessHandle.current().pid();
        long myStart = CreatorMark.startTime(me);
        String temporary = "." + CreatorMark.NAME + ".tmp-1-2-abc";
        Path dead = Files.createDirectory(tmp.resolve("heimdall-trace-" + deadPid() + "-77-123456"), mode);
        Files.writeString(dead.resolve(temporary), "heimdall-lab creator\npid");
        Path emptyDead = Files.createDirectory(tmp.resolve("heimdall-trace-" + deadPid() + "-77-654321"), mode);
        Path live = Files.createDirectory(tmp.resolve("heimdall-trace-" + me + "-" + myStart + "-1"), mode);
        Files.writeString(live.resolve(temporary), "x");
        Path deadWithData = Files.createDirectory(tmp.resolve("heimdall-trace-" + deadPid() + "-77-42"), mode);
        Files.writeString(deadWithData.resolve("trace.out"), "x");
        Path linkedTemporary = Files.createDirectory(tmp.resolve("heimdall-trace-" + deadPid() + "-77-43"), mode);
        Files.createSymbolicLink(linkedTemporary.resolve(temporary), Files.writeString(tmp.resolve("outside"), "x"));

        assertFalse(CreatorMark.leftByDeadRun(emptyDead, true), "in a guest a fresh unmarked folder waits its grace");
        assertEquals(2, CreatorMark.sweep(tmp, n -> n.startsWith("heimdall-")));
        assertFalse(Files.exists(dead, LinkOption.NOFOLLOW_LINKS), "only the mark's temporary in it: reaped at once");
        assertFalse(Files.exists(emptyDead, LinkOption.NOFOLLOW_LINKS), "empty, its creator dead: reaped at once");
        assertTrue(Files.isDirectory(live), "the live creator's folder is kept");
        assertTrue(Files.isRegularFile(deadWithData.resolve("trace.out")), "unmarked with data: never judged");
        assertTrue(Files.isSymbolicLink(linkedTemporary.resolve(temporary)), "a link is not the mark's temporary");
        assertTrue(Files.isRegularFile(tmp.resolve("outside")));
    }

    /** Closing a scratch folder removes its mark last: whatever a kill midway leaves, the sweep still knows. */
    @Test
    void aScratchFolderIsNamedForItsCreatorAndRemovedMarkLast() throws Exception {
        Path p;
        try (Scratch s = Scratch.create("heimdall-lab-marktest-")) {
            p = s.path();
            assertTrue(
                    p.getFileName().toString().startsWith("heimdall-lab-marktest-" + CreatorMark.tag() + "-"),
                    p + " carries its creator in its name");
            Files.createDirectories(s.path().resolve("a/b"));
            Files.writeString(s.path().resolve("a/b/c"), "x");
        }
        assertFalse(Files.exists(p, LinkOption.NOFOLLOW_LINKS));
    }
}
