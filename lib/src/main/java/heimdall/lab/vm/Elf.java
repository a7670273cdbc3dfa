package heimdall.lab.vm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The one ELF fact {@link Initramfs} needs: whether an executable asks for a dynamic loader (PT_INTERP). */
final class Elf {
    private static final int PT_INTERP = 3;

    private Elf() {}

    /** Whether the ELF64 file in {@code elf} has a PT_INTERP program header; a non-ELF file counts as having one. */
    static boolean hasInterpreter(byte[] elf) {
        ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        if (elf.length < 64 || b.getInt(0) != 0x464c457f || elf[4] != 2) {
            return true;
        }
        long phoff = b.getLong(0x20);
        int phentsize = Short.toUnsignedInt(b.getShort(0x36));
        int phnum = Short.toUnsignedInt(b.getShort(0x38));
        for (int i = 0; i < phnum; i++) {
            long at = phoff + (long) i * phentsize;
            if (at < 0 || at + 4 > elf.length) {
                return true;
            }
            if (b.getInt((int) at) == PT_INTERP) {
                return true;
            }
        }
        return false;
    }
}
