package heimdall.lab.child;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Hand-assembled classic BPF for the tests: each instruction written out as its 8 bytes. */
final class Programs {
    static final int LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
    static final int JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    static final int RET_K = 0x06; // BPF_RET | BPF_K

    static final int RET_KILL_PROCESS = 0x80000000;
    static final int RET_ERRNO = 0x00050000;
    static final int RET_USER_NOTIF = 0x7fc00000;
    static final int RET_ALLOW = 0x7fff0000;

    static final int NR_GETPPID = 110;
    static final int NR_CLOSE = 3;
    static final int NR_SENDMSG = 46;
    static final int NR_EXIT_GROUP = 231;
    static final int NR_SECCOMP = 317;

    private Programs() {}

    /** One {@code struct sock_filter}: u16 code, u8 jt, u8 jf, u32 k, little endian. */
    static byte[] insn(int code, int jt, int jf, int k) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) code)
                .put((byte) jt)
                .put((byte) jf)
                .putInt(k)
                .array();
    }

    static byte[] program(byte[]... insns) {
        ByteBuffer b = ByteBuffer.allocate(insns.length * 8);
        for (byte[] i : insns) {
            b.put(i);
        }
        return b.array();
    }

    /** load nr (offset 0); nr == {@code nr} ? RET {@code hit} : RET ALLOW. */
    static byte[] onSyscall(int nr, int hit) {
        return program(
                insn(LD_W_ABS, 0, 0, 0), insn(JEQ_K, 0, 1, nr), insn(RET_K, 0, 0, hit), insn(RET_K, 0, 0, RET_ALLOW));
    }

    /**
     * A strict floor: load nr; allow exactly {@code nrs}; KILL_PROCESS anything else. Layout: ld,
     * one JEQ per number (true: jump to the final ALLOW), RET KILL_PROCESS, RET ALLOW.
     */
    static byte[] allowOnly(int... nrs) {
        int n = nrs.length;
        byte[][] insns = new byte[n + 3][];
        insns[0] = insn(LD_W_ABS, 0, 0, 0);
        for (int i = 1; i <= n; i++) {
            insns[i] = insn(JEQ_K, n + 1 - i, 0, nrs[i - 1]);
        }
        insns[n + 1] = insn(RET_K, 0, 0, RET_KILL_PROCESS);
        insns[n + 2] = insn(RET_K, 0, 0, RET_ALLOW);
        return program(insns);
    }

    static byte[] allowAll() {
        return program(insn(RET_K, 0, 0, RET_ALLOW));
    }
}
