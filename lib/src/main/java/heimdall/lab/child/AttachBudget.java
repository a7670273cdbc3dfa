package heimdall.lab.child;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The kernel's bound on the filters one process may hold. {@code seccomp_attach_filter} refuses a new
 * filter with {@code ENOMEM} when its length plus, over every filter already attached, its length plus
 * a penalty of 4 would exceed {@code MAX_INSNS_PER_PATH} (32768, that is 256 KiB of
 * {@code struct sock_filter}). The lengths it adds up are those of the programs as the kernel keeps
 * them: classic BPF converted to eBPF by {@code bpf_convert_filter}, which is longer than the classic
 * program (see {@link #kernelLength}). A loop that attaches the same program again and again
 * ({@link Call#ATTACH}) can therefore make at most {@link #maxFilters(byte[])} attaches, warm-up included.
 */
public final class AttachBudget {
    /** {@code MAX_INSNS_PER_PATH}: {@code (1 << 18) / sizeof(struct sock_filter)}. */
    public static final int MAX_INSNS_PER_PATH = 32768;
    /** The instructions the kernel counts for each attached filter beyond its length. */
    public static final int PENALTY = 4;

    private AttachBudget() {}

    /**
     * How long a classic seccomp program is once the kernel has converted it to eBPF, the length the
     * budget counts: 3 instructions of prologue (clear A and X, keep the context pointer), then one
     * for each classic instruction except: {@code RET K} takes 2 (move, exit); a conditional jump
     * whose constant is negative as a signed 32-bit number takes one more (the constant is moved to a
     * register first: the arch check's {@code AUDIT_ARCH_X86_64} is one); a conditional jump that
     * jumps on both outcomes takes one more (a jump, then {@code JA}), unless its true branch falls
     * through and it is {@code JEQ}, {@code JGT} or {@code JGE} (inverted instead); a division or
     * modulo by X takes 3 more (the zero check).
     *
     * @param program raw {@code struct sock_filter} bytes, 8 per instruction, little endian
     */
    public static int kernelLength(byte[] program) {
        if (program.length == 0 || program.length % 8 != 0) {
            throw new IllegalArgumentException(program.length + " bytes is not a whole number of instructions");
        }
        ByteBuffer b = ByteBuffer.wrap(program).order(ByteOrder.LITTLE_ENDIAN);
        int len = 3;
        for (int at = 0; at < program.length; at += 8) {
            int code = b.getShort(at) & 0xffff;
            int jt = b.get(at + 2) & 0xff;
            int jf = b.get(at + 3) & 0xff;
            int k = b.getInt(at + 4);
            int cls = code & 0x07;
            int op = code & 0xf0;
            boolean srcX = (code & 0x08) != 0;
            len += 1;
            if (cls == 0x06 /* RET */ && (code & 0x18) == 0x00 /* K */) {
                len += 1;
            } else if (cls == 0x05 /* JMP */ && op != 0x00 /* not JA */) {
                if (!srcX && k < 0) {
                    len += 1;
                }
                boolean inverted = jt == 0 && (op == 0x10 || op == 0x20 || op == 0x30); // JEQ, JGT, JGE
                if (jf != 0 && !inverted) {
                    len += 1;
                }
            } else if (cls == 0x04 /* ALU */ && srcX && (op == 0x30 /* DIV */ || op == 0x90 /* MOD */)) {
                len += 3;
            }
        }
        return len;
    }

    /** How many copies of {@code program} a process with no filter can attach. */
    public static int maxFilters(byte[] program) {
        return maxFilters(program, List.of());
    }

    /** How many more copies of {@code program} fit on top of the filters {@code installed} (oldest first). */
    public static int maxFilters(byte[] program, List<byte[]> installed) {
        long used = 0;
        for (byte[] p : installed) {
            used += kernelLength(p) + PENALTY;
        }
        int len = kernelLength(program);
        // The n-th new filter fits while used + (n - 1) * (len + 4) + len <= MAX.
        long room = MAX_INSNS_PER_PATH - used - len;
        return room < 0 ? 0 : (int) (room / (len + PENALTY) + 1);
    }
}
