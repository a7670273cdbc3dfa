package heimdall.lab.bpf;

import java.util.Locale;

/**
 * One classic BPF instruction ({@code struct sock_filter}): a 16-bit opcode, two 8-bit jump offsets
 * and a 32-bit constant. Offsets are relative to the next instruction.
 */
public record Insn(int code, int jt, int jf, int k) {
    // Instruction classes and fields, as in linux/bpf_common.h.
    public static final int LD = 0x00,
            LDX = 0x01,
            ST = 0x02,
            STX = 0x03,
            ALU = 0x04,
            JMP = 0x05,
            RET = 0x06,
            MISC = 0x07;
    public static final int W = 0x00, H = 0x08, B = 0x10;
    public static final int IMM = 0x00, ABS = 0x20, IND = 0x40, MEM = 0x60, LEN = 0x80, MSH = 0xa0;
    public static final int ADD = 0x00,
            SUB = 0x10,
            MUL = 0x20,
            DIV = 0x30,
            OR = 0x40,
            AND = 0x50,
            LSH = 0x60,
            RSH = 0x70,
            NEG = 0x80,
            MOD = 0x90,
            XOR = 0xa0;
    public static final int JA = 0x00, JEQ = 0x10, JGT = 0x20, JGE = 0x30, JSET = 0x40;
    public static final int K = 0x00, X = 0x08, A = 0x10;
    public static final int TAX = 0x00, TXA = 0x80;

    public Insn {
        if (code < 0 || code > 0xffff || jt < 0 || jt > 0xff || jf < 0 || jf > 0xff) {
            throw new IllegalArgumentException(
                    String.format(Locale.ROOT, "instruction fields out of range: code=0x%x jt=%d jf=%d", code, jt, jf));
        }
    }

    /** {@code A = seccomp_data[offset]} (a 32-bit word). */
    public static Insn ldAbs(int offset) {
        return new Insn(LD | W | ABS, 0, 0, offset);
    }

    /** A conditional jump comparing A with {@code k}: op is JEQ, JGT, JGE or JSET. */
    public static Insn jump(int op, int k, int jt, int jf) {
        return new Insn(JMP | op | K, jt, jf, k);
    }

    /** {@code pc += k} (32-bit offset: how long jumps are made). */
    public static Insn ja(int k) {
        return new Insn(JMP | JA, 0, 0, k);
    }

    /** {@code A &= k}. */
    public static Insn andK(int k) {
        return new Insn(ALU | AND | K, 0, 0, k);
    }

    /** Returns the constant {@code k}. */
    public static Insn ret(int k) {
        return new Insn(RET | K, 0, 0, k);
    }

    public int cls() {
        return code & 0x07;
    }

    public boolean isConditionalJump() {
        return cls() == JMP && (code & 0xf0) != JA;
    }
}
