package heimdall.lab.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A small tmpfs mounted for a test ({@code mount -t tmpfs -o size=64k}): a real full disk (ENOSPC from
 * the kernel) without filling the machine's. Mounting needs CAP_SYS_ADMIN: when the kernel refuses the
 * mount, the test skips loudly through {@link Requires} (and fails under {@code LAB_REQUIRE_KERNEL=1}).
 */
public final class SmallTmpfs implements AutoCloseable {
    private final Path dir;
    private final Path filler;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler");
    }

    /** Mounts a tmpfs of {@code kib} KiB at the (empty, existing) folder {@code dir}. */
    public static SmallTmpfs mount(Path dir, int kib) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "mount", "-t", "tmpfs", "-o", "size=" + kib + "k,mode=0755", "tmpfs", dir.toString())
                .redirectErrorStream(true)
                .start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        boolean done = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        Requires.that(
                done
                        ? Fact.present("mount a tmpfs", "mounted at " + dir)
                        : Fact.absent("mount a tmpfs (CAP_SYS_ADMIN)", "mount -t tmpfs refused: " + said));
        return new SmallTmpfs(dir);
    }

    /** The mount point. */
    public Path path() {
        return dir;
    }

    /**
     * Fills the file system with a file named {@code filler} until the kernel says ENOSPC, then gives
     * back {@code roomBytes} (rounded by the kernel to pages).
     */
    public void fill(long roomBytes) throws IOException {
        try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer page = ByteBuffer.allocate(4096);
            try {
                while (true) {
                    page.clear();
                    ch.write(page, ch.size());
                }
            } catch (IOException full) {
                // ENOSPC: the disk is full
            }
            ch.truncate(Math.max(0, ch.size() - roomBytes));
        }
    }

    /** Every path beneath the mount, relative, sorted: what a writer left is compared with this. */
    public TreeSet<String> listing() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.equals(dir))
                    .map(p -> dir.relativize(p).toString())
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    /** Unmounts it (lazily, so a descriptor a failed test still holds cannot keep it mounted). */
    @Override
    public void close() throws IOException, InterruptedException {
        new ProcessBuilder(List.of("umount", "-l", dir.toString()))
                .inheritIO()
                .start()
                .waitFor(30, TimeUnit.SECONDS);
    }
}
