package heimdall.lab.vm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Files shaped like a kernel's, for tests that must not need a real one: a bzImage boot header with a version
 * string, and ELF64 modules with a {@code .modinfo} section (nothing else: they are only read, never loaded).
 */
final class FakeKernel {
    private FakeKernel() {}

    /** A file with a bzImage boot header whose version string starts with {@code release}. */
    static Path bzImage(Path file, String release) throws IOException {
        byte[] b = new byte[0x1000];
        ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0x202, 0x53726448); // "HdrS"
        h.putShort(0x206, (short) 0x020f);
        h.putShort(0x20E, (short) (0x400 - 0x200));
        byte[] v = (release + " (test@example) #1 SMP PREEMPT_DYNAMIC").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(v, 0, b, 0x400, v.length);
        Files.write(file, b);
        return file;
    }

    /** An ELF64 file whose only sections are {@code .modinfo} (these strings) and {@code .shstrtab}. */
    static byte[] module(String... modinfo) throws IOException {
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        for (String s : modinfo) {
            info.write(s.getBytes(StandardCharsets.UTF_8));
            info.write(0);
        }
        byte[] infoBytes = info.toByteArray();
        byte[] shstr = "\0.modinfo\0.shstrtab\0".getBytes(StandardCharsets.US_ASCII);
        int infoAt = 64;
        int strAt = infoAt + infoBytes.length;
        int shoff = (strAt + shstr.length + 7) & ~7;
        byte[] elf = new byte[shoff + 3 * 64];
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, 0x464c457f);
        elf[4] = 2; // 64-bit
        elf[5] = 1; // little-endian
        elf[6] = 1;
        b.putShort(0x10, (short) 1); // ET_REL
        b.putShort(0x12, (short) 62); // x86-64
        b.putLong(0x28, shoff);
        b.putShort(0x34, (short) 64);
        b.putShort(0x3A, (short) 64);
        b.putShort(0x3C, (short) 3);
        b.putShort(0x3E, (short) 2);
        System.arraycopy(infoBytes, 0, elf, infoAt, infoBytes.length);
        System.arraycopy(shstr, 0, elf, strAt, shstr.length);
        section(b, shoff + 64, 1, infoAt, infoBytes.length);
        section(b, shoff + 128, 10, strAt, shstr.length);
        return elf;
    }

    private static void section(ByteBuffer b, int at, int name, long offset, long size) {
        b.putInt(at, name);
        b.putInt(at + 4, 1); // SHT_PROGBITS (shstrtab would be 3; only offsets are read)
        b.putLong(at + 0x18, offset);
        b.putLong(at + 0x20, size);
    }

    /** A modules folder with the modules the guest needs, each with {@code vermagic=release ...}. */
    static Path modules(Path dir, String release) throws IOException {
        Files.createDirectories(dir.resolve("kernel/drivers/virtio"));
        Files.createDirectories(dir.resolve("kernel/net/9p"));
        Files.createDirectories(dir.resolve("kernel/fs/9p"));
        String vm = "vermagic=" + release + " SMP preempt mod_unload modversions ";
        Files.write(dir.resolve("kernel/drivers/virtio/virtio_ring.ko"), module(vm, "depends="));
        Files.write(dir.resolve("kernel/drivers/virtio/virtio.ko"), module(vm, "depends=virtio_ring"));
        Files.write(dir.resolve("kernel/drivers/virtio/virtio_pci.ko"), module(vm, "depends=virtio,virtio_ring"));
        Files.write(dir.resolve("kernel/net/9p/9pnet.ko"), module(vm, "depends="));
        Files.write(dir.resolve("kernel/net/9p/9pnet_virtio.ko"), module(vm, "depends=virtio,9pnet,virtio_ring"));
        Files.write(dir.resolve("kernel/fs/9p/9p.ko"), module(vm, "depends=9pnet"));
        Files.writeString(dir.resolve("modules.builtin"), "kernel/fs/netfs/netfs.ko\n");
        return dir;
    }
}
