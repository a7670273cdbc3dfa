package heimdall.lab.vm;

import heimdall.lab.Io;
import heimdall.lab.Refusal;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The guest's initramfs: {@code /init} ({@link InitScript}), a static busybox (Debian's busybox-static) and the
 * guest kernel's modules from {@link KernelModules}, staged in the run's scratch folder and packed by {@code cpio}
 * ({@code newc}, every file root's) into {@code initramfs.cpio} beside it. Both go when the scratch folder does.
 */
final class Initramfs {
    /** Debian's busybox-static installs a statically linked busybox here. */
    static final Path BUSYBOX = Path.of("/bin/busybox");

    private Initramfs() {}

    /** Builds the archive in {@code scratch} and returns its path. */
    static Path build(Path scratch, String init, List<KernelModules.Module> modules) {
        requireStaticBusybox();
        Path stage = scratch.resolve("initramfs");
        Path cpio = scratch.resolve("initramfs.cpio");
        try {
            Files.createDirectory(
                    stage, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectories(stage.resolve("bin"));
            Files.createDirectories(stage.resolve("lib/modules"));
            Files.copy(BUSYBOX, stage.resolve("bin/busybox"));
            Files.setPosixFilePermissions(stage.resolve("bin/busybox"), PosixFilePermissions.fromString("rwxr-xr-x"));
            SafeFiles.writeNew(stage.resolve("init"), init.getBytes(StandardCharsets.UTF_8));
            Files.setPosixFilePermissions(stage.resolve("init"), PosixFilePermissions.fromString("rwxr-xr-x"));
            for (KernelModules.Module m : modules) {
                SafeFiles.writeNew(stage.resolve("lib/modules/" + m.name() + ".ko"), m.elf());
            }
            List<String> names = new ArrayList<>();
            try (Stream<Path> walk = Files.walk(stage)) {
                walk.sorted()
                        .forEach(p -> names.add(
                                stage.relativize(p).toString().isEmpty()
                                        ? "."
                                        : stage.relativize(p).toString()));
            }
            Path list = scratch.resolve("initramfs.list");
            SafeFiles.writeNew(list, (String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8));
            Process p = new ProcessBuilder("cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet")
                    .directory(stage.toFile())
                    .redirectInput(list.toFile())
                    .redirectOutput(cpio.toFile())
                    .redirectError(ProcessBuilder.Redirect.PIPE)
                    .start();
            String err = new String(p.getErrorStream().readNBytes(1 << 16), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new Refusal("building the initramfs: cpio failed" + (err.isEmpty() ? "" : ": " + err));
            }
            SafeFiles.removeTree(stage);
            Files.delete(list);
            return cpio;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the initramfs in " + scratch + ": " + Io.reason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the initramfs", e);
        }
    }

    /** The guest has no C library of its own before it mounts the host's: busybox must be static. */
    static void requireStaticBusybox() {
        if (!Files.isRegularFile(BUSYBOX)) {
            throw new Refusal("building the initramfs: " + BUSYBOX + " is missing (apt-get install busybox-static)");
        }
        byte[] head = Io.read(BUSYBOX, 64L << 20);
        if (Elf.hasInterpreter(head)) {
            throw new Refusal("building the initramfs: " + BUSYBOX
                    + " is dynamically linked; the guest needs a static one"
                    + " (apt-get install busybox-static)");
        }
    }
}
