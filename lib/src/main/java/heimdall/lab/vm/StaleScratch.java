package heimdall.lab.vm;

import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A {@code ./lab vm run} killed with SIGKILL takes QEMU with it (its parent-death signal) but cannot remove its
 * scratch folder (the kernel unpacked, the initramfs: hundreds of MB). Each run marks its folder with its owner
 * ({@code owner}: pid and start time) and removes, before it starts, the folders of owners that are gone.
 */
final class StaleScratch {
    static final String PREFIX = "heimdall-vm-";
    static final String OWNER = "owner";

    private StaleScratch() {}

    /** Marks {@code scratch} as this process's. */
    static void mark(Path scratch) throws IOException {
        SafeFiles.writeNew(scratch.resolve(OWNER), self().getBytes(StandardCharsets.US_ASCII));
    }

    /** Removes the marked {@code heimdall-vm-*} folders in {@code parent} whose owner process has ended; the count. */
    static int reap(Path parent) {
        int removed = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path d : dirs) {
                if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) || SafeFiles.othersCanWrite(d, false) != null) {
                    continue; // not a folder of ours: never touched
                }
                Path owner = d.resolve(OWNER);
                if (!Files.isRegularFile(owner, LinkOption.NOFOLLOW_LINKS) || Files.size(owner) > 64) {
                    continue; // not marked (yet): its owner may be starting
                }
                String mark = Files.readString(owner, StandardCharsets.US_ASCII).strip();
                if (!alive(mark)) {
                    SafeFiles.removeTree(d);
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: a folder we cannot judge is left as it is
        }
        return removed;
    }

    private static String self() {
        ProcessHandle me = ProcessHandle.current();
        return me.pid() + " "
                + me.info()
                        .startInstant()
                        .map(i -> Long.toString(i.toEpochMilli()))
                        .orElse("?");
    }

    /** Whether the process a mark names still runs (the same pid and start time). */
    static boolean alive(String mark) {
        String[] w = mark.split(" ");
        if (w.length != 2 || !w[0].matches("[0-9]{1,10}")) {
            return true; // unreadable: assume alive, never remove what we cannot judge
        }
        Optional<ProcessHandle> p = ProcessHandle.of(Long.parseLong(w[0]));
        if (p.isEmpty() || !p.get().isAlive()) {
            return false;
        }
        String start = p.get()
                .info()
                .startInstant()
                .map(i -> Long.toString(i.toEpochMilli()))
                .orElse("?");
        return start.equals(w[1]) || w[1].equals("?");
    }
}
