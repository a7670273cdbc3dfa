package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

import heimdall.lab.BadInput;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A classic BPF program that the kernel would accept as a seccomp filter: the checks of
 * {@code bpf_check_classic} and {@code seccomp_check_filter} are made on construction (length
 * 1..4096, only the opcodes seccomp allows (no MOD), loads only of aligned words inside
 * {@code seccomp_data}, jumps inside the program, no division by a zero constant, shifts below 32,
 * scratch memory loaded only where the kernel's one-pass check knows it stored, a RET last). A
 * program that fails throws {@link BadInput} naming the instruction. {@code KernelRandomProgramTest}
 * checks that the kernel accepts exactly these.
 */
public record Program(List<Insn> insns) {
    /** {@code BPF_MAXINSNS}. */
    public static final int MAX_INSNS = 4096;
    /** Bytes an instruction takes in {@code struct sock_filter} form. */
    public static final int INSN_BYTES = 8;

    public Program {
        insns = List.copyOf(insns);
        validate(insns, "program");
    }

    /** Builds a program, naming {@code source} (a file, say) in any error. */
    public static Program of(List<Insn> insns, String source) {
        validate(insns, source);
        return new Program(insns);
    }

    public int length() {
        return insns.size();
    }

    public Insn get(int pc) {
        return insns.get(pc);
    }

    /** The program as raw {@code struct sock_filter} bytes (libseccomp's {@code seccomp_export_bpf}). */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(insns.size() * INSN_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (Insn i : insns) {
            b.putShort((short) i.code()).put((byte) i.jt()).put((byte) i.jf()).putInt(i.k());
        }
        return b.array();
    }

    /** Reads raw {@code struct sock_filter} bytes; {@code source} names them in errors. */
    public static Program fromBytes(byte[] bytes, String source) {
        if (bytes.length % INSN_BYTES != 0) {
            throw BadInput.at(source, "length", bytes.length + " bytes is not a whole number of 8-byte instructions");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Insn> out = new ArrayList<>();
        while (b.hasRemaining()) {
            out.add(new Insn(b.getShort() & 0xffff, b.get() & 0xff, b.get() & 0xff, b.getInt()));
        }
        return of(out, source);
    }

    private static void validate(List<Insn> insns, String source) {
        int n = insns.size();
        if (n == 0) {
            throw BadInput.at(source, "length", "a program has at least one instruction");
        }
        if (n > MAX_INSNS) {
            throw BadInput.at(
                    source, "length", n + " instructions, over the kernel's limit of " + MAX_INSNS + " (BPF_MAXINSNS)");
        }
        for (int pc = 0; pc < n; pc++) {
            Insn i = insns.get(pc);
            String why = check(i, pc, n);
            if (why != null) {
                throw BadInput.at(source, "insn " + pc, why);
            }
        }
        if (insns.get(n - 1).cls() != RET) {
            throw BadInput.at(source, "insn " + (n - 1), "the last instruction must be a RET");
        }
        checkMemory(insns, source);
    }

    private static String check(Insn i, int pc, int n) {
        int code = i.code();
        long k = Integer.toUnsignedLong(i.k());
        switch (code) {
            case LD | W | ABS:
                if (k >= SeccompData.SIZE || (k & 3) != 0) {
                    return String.format(
                            Locale.ROOT, "load of offset %d is outside seccomp_data (aligned words at 0..60)", k);
                }
                return null;
            case LD | W | LEN, LDX | W | LEN, LD | IMM, LDX | IMM, MISC | TAX, MISC | TXA, RET | K, RET | A:
                return null;
            case LD | MEM, LDX | MEM, ST, STX:
                return k >= 16 ? "scratch memory index " + k + " is over 15" : null;
            case JMP | JA:
                return k >= n - pc - 1 ? "jump of " + k + " lands outside the program (length " + n + ")" : null;
            default:
                break;
        }
        if (i.cls() == ALU) {
            int op = code & 0xf0;
            // MOD is classic BPF, but seccomp_check_filter does not list it: the kernel refuses it in a filter.
            if (op == MOD && (code & ~0xf8) == ALU) {
                return String.format(Locale.ROOT, "MOD (opcode 0x%04x) is not allowed in a seccomp filter", code);
            }
            boolean known = op == ADD || op == SUB || op == MUL || op == DIV || op == OR || op == AND || op == LSH
                    || op == RSH || op == NEG || op == XOR;
            if (!known || (code & ~0xf8) != ALU) {
                return String.format(Locale.ROOT, "unknown ALU opcode 0x%04x", code);
            }
            if ((code & X) == 0 && op == DIV && k == 0) {
                return "division by the constant 0";
            }
            if ((code & X) == 0 && (op == LSH || op == RSH) && k >= 32) {
                return "shift by " + k + " (32 or more)";
            }
            return null;
        }
        if (i.cls() == JMP) {
            int op = code & 0xf0;
            if ((op != JEQ && op != JGT && op != JGE && op != JSET) || (code & ~0xf8) != JMP) {
                return String.format(Locale.ROOT, "unknown jump opcode 0x%04x", code);
            }
            if (pc + 1 + i.jt() >= n || pc + 1 + i.jf() >= n) {
                return "jump (jt " + i.jt() + ", jf " + i.jf() + ") lands outside the program (length " + n + ")";
            }
            return null;
        }
        return String.format(Locale.ROOT, "opcode 0x%04x is not allowed in a seccomp filter", code);
    }

    /**
     * The kernel's {@code check_load_and_stores}, as it is: one pass in instruction order, where the
     * words known stored at an instruction are those of the instruction before it (a RET included,
     * though nothing falls through it) met with those of every jump to it. So a program whose
     * scratch read is safe on every path can still be refused, when a RET that never stored precedes
     * it; the kernel refuses it, and so does this.
     */
    private static void checkMemory(List<Insn> insns, String source) {
        int n = insns.size();
        int[] masks = new int[n];
        Arrays.fill(masks, 0xffff);
        int memvalid = 0;
        for (int pc = 0; pc < n; pc++) {
            memvalid &= masks[pc];
            Insn i = insns.get(pc);
            int code = i.code();
            if (code == ST || code == STX) {
                memvalid |= 1 << i.k();
            } else if (code == (LD | MEM) || code == (LDX | MEM)) {
                if ((memvalid & (1 << i.k())) == 0) {
                    throw BadInput.at(
                            source,
                            "insn " + pc,
                            "scratch memory M[" + i.k()
                                    + "] is read before it is stored (as the kernel's single pass in instruction "
                                    + "order sees it)");
                }
            } else if (code == (JMP | JA)) {
                masks[pc + 1 + i.k()] &= memvalid;
                memvalid = 0xffff;
            } else if (i.isConditionalJump()) {
                masks[pc + 1 + i.jt()] &= memvalid;
                masks[pc + 1 + i.jf()] &= memvalid;
                memvalid = 0xffff;
            }
        }
    }
}
