package heimdall.lab.vm;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The guest kernel's own modules that the guest needs before it can see the host's files (virtio over PCI, 9p
 * over virtio), with their dependencies, in the order {@code insmod} must load them. Each module's
 * {@code .modinfo} (an ELF section) gives its {@code depends=} and its {@code vermagic=}, whose first word must be
 * the kernel's release: a modules folder of another kernel is refused. Modules the kernel builds in
 * ({@code modules.builtin}) are skipped. Compressed modules ({@code .ko.xz}, {@code .ko.zst}) are unpacked with
 * {@code xz}/{@code zstd} into the initramfs, since busybox's insmod takes plain ones.
 */
final class KernelModules {
    /** The modules the guest's /init loads (with what they depend on). */
    static final List<String> NEEDED = List.of("virtio_pci", "9pnet_virtio", "9p");

    private static final long MAX_MODULE = 64L << 20;

    /** A module ready for the initramfs: its name and its plain ELF bytes. */
    record Module(String name, byte[] elf) {}

    private KernelModules() {}

    /**
     * The modules of {@link #NEEDED} and their dependencies from {@code dir} (a {@code lib/modules/RELEASE}
     * folder), dependencies first; bad input naming {@code field} when the folder does not hold them or belongs
     * to another kernel than {@code release}.
     */
    static List<Module> load(Path dir, String release, String field) {
        if (!Files.isDirectory(dir)) {
            throw new BadInput(field + " " + dir + ": not a folder (give the kernel's lib/modules/" + release + ")");
        }
        Set<String> builtin = builtin(dir);
        Map<String, Path> files = index(dir, field);
        Map<String, Module> ordered = new LinkedHashMap<>();
        for (String m : NEEDED) {
            add(m, dir, release, field, builtin, files, ordered, new HashSet<>());
        }
        return List.copyOf(ordered.values());
    }

    private static void add(
            String name,
            Path dir,
            String release,
            String field,
            Set<String> builtin,
            Map<String, Path> files,
            Map<String, Module> ordered,
            Set<String> visiting) {
        if (builtin.contains(name) || ordered.containsKey(name)) {
            return;
        }
        if (!visiting.add(name)) {
            throw new BadInput(field + " " + dir + ": modules depend on each other in a cycle through " + name);
        }
        Path file = files.get(name);
        if (file == null) {
            throw new BadInput(field + " " + dir + ": has no module " + name
                    + " (the guest needs it to reach the host's files)"
                    + " and its modules.builtin does not name it");
        }
        byte[] elf = plain(file, field);
        Map<String, String> info = modinfo(elf, field + " " + file);
        String vermagic = info.getOrDefault("vermagic", "");
        String theirs = vermagic.split(" ", 2)[0];
        if (!theirs.equals(release)) {
            throw new BadInput(field + " " + dir + ": module " + name + " is for kernel "
                    + (theirs.isEmpty() ? "(no vermagic)" : theirs)
                    + ", not for this kernel's " + release + ": the modules folder does not match the kernel");
        }
        String depends = info.getOrDefault("depends", "");
        for (String d : depends.isEmpty() ? new String[0] : depends.split(",")) {
            add(normal(d), dir, release, field, builtin, files, ordered, visiting);
        }
        ordered.put(name, new Module(name, elf));
    }

    /** Module names as the kernel compares them: {@code -} and {@code _} alike. */
    static String normal(String name) {
        return name.strip().replace('-', '_');
    }

    private static Set<String> builtin(Path dir) {
        Path f = dir.resolve("modules.builtin");
        Set<String> names = new HashSet<>();
        if (Files.isRegularFile(f)) {
            for (String line : Io.readString(f, 16 << 20).lines().toList()) {
                String base = line.substring(line.lastIndexOf('/') + 1);
                names.add(normal(base.replaceAll("\\.ko.*$", "")));
            }
        }
        return names;
    }

    /** Every module file under {@code dir/kernel} by its name; links are not followed. */
    private static Map<String, Path> index(Path dir, String field) {
        Map<String, Path> files = new HashMap<>();
        Path kernel = dir.resolve("kernel");
        if (!Files.isDirectory(kernel, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(
                    field + " " + dir + ": has no kernel/ folder of modules (give the kernel's lib/modules/RELEASE)");
        }
        try (Stream<Path> walk = Files.walk(kernel)) {
            walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).forEach(p -> {
                String n = p.getFileName().toString();
                if (n.matches(".*\\.ko(\\.xz|\\.zst|\\.gz)?")) {
                    files.putIfAbsent(normal(n.replaceAll("\\.ko.*$", "")), p);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new BadInput(field + " " + dir + ": cannot read its modules: " + e.getMessage(), e);
        }
        return files;
    }

    /** The module's plain ELF bytes, decompressed by the system's xz, zstd or gzip when it is compressed. */
    private static byte[] plain(Path file, String field) {
        String n = file.getFileName().toString();
        if (n.endsWith(".ko")) {
            return Io.read(file, MAX_MODULE);
        }
        String tool = n.endsWith(".xz") ? "xz" : n.endsWith(".zst") ? "zstd" : "gzip";
        try {
            Process p = new ProcessBuilder(tool, "-dc", "--", file.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            byte[] bytes;
            try (var in = p.getInputStream()) {
                bytes = in.readNBytes((int) MAX_MODULE);
            }
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new BadInput(field + " " + file + ": cannot decompress the module with " + tool);
            }
            return bytes;
        } catch (IOException e) {
            throw new BadInput(
                    field + " " + file + ": cannot decompress the module with " + tool + ": " + Io.reason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The {@code key=value} strings of an ELF64 module's {@code .modinfo} section. */
    static Map<String, String> modinfo(byte[] elf, String where) {
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (elf.length < 64 || b.getInt(0) != 0x464c457f || elf[4] != 2 || elf[5] != 1) {
                throw new BadInput(where + ": not a 64-bit little-endian ELF kernel module");
            }
            long shoff = b.getLong(0x28);
            int shentsize = Short.toUnsignedInt(b.getShort(0x3A));
            int shnum = Short.toUnsignedInt(b.getShort(0x3C));
            int shstrndx = Short.toUnsignedInt(b.getShort(0x3E));
            if (shentsize < 64 || shstrndx >= shnum || shoff < 0 || shoff + (long) shnum * shentsize > elf.length) {
                throw new BadInput(where + ": its ELF section headers lie outside the file");
            }
            long strOff = b.getLong((int) (shoff + (long) shstrndx * shentsize) + 0x18);
            for (int i = 0; i < shnum; i++) {
                int h = (int) (shoff + (long) i * shentsize);
                int nameAt = b.getInt(h);
                long off = b.getLong(h + 0x18);
                long size = b.getLong(h + 0x20);
                if (".modinfo".equals(cString(elf, strOff + Integer.toUnsignedLong(nameAt)))) {
                    if (off < 0 || size < 0 || off + size > elf.length) {
                        throw new BadInput(where + ": its .modinfo section lies outside the file");
                    }
                    Map<String, String> info = new HashMap<>();
                    for (String s : new String(elf, (int) off, (int) size, StandardCharsets.UTF_8).split("\0")) {
                        int eq = s.indexOf('=');
                        if (eq > 0) {
                            info.putIfAbsent(s.substring(0, eq), s.substring(eq + 1));
                        }
                    }
                    return info;
                }
            }
        } catch (IndexOutOfBoundsException e) {
            throw new BadInput(where + ": a truncated or malformed ELF file", e);
        }
        throw new BadInput(where + ": has no .modinfo section: not a kernel module");
    }

    private static String cString(byte[] b, long at) {
        if (at < 0 || at >= b.length) {
            return null;
        }
        int end = (int) at;
        while (end < b.length && b[end] != 0) {
            end++;
        }
        return new String(b, (int) at, end - (int) at, StandardCharsets.US_ASCII);
    }

    /** The names in load order, for messages and the init script. */
    static List<String> names(List<Module> modules) {
        List<String> n = new ArrayList<>();
        modules.forEach(m -> n.add(m.name()));
        return n;
    }
}
