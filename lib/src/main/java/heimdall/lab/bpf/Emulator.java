package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

/**
 * Runs a seccomp program on a {@link SeccompData} as the kernel's classic BPF interpreter does
 * (32-bit unsigned A and X, sixteen scratch words, {@code LEN} loads giving 64, a division by a zero
 * X ending the program with 0) and counts the instructions executed, the final RET included.
 */
public final class Emulator {
    private Emulator() {}

    /** The return value and the number of instructions executed. */
    public static Verdict run(Program program, SeccompData data) {
        int a = 0;
        int x = 0;
        int[] mem = new int[16];
        long executed = 0;
        int pc = 0;
        while (true) {
            Insn i = program.get(pc);
            executed++;
            int code = i.code();
            int k = i.k();
            switch (i.cls()) {
                case LD -> {
                    switch (code & 0xe0) {
                        case ABS -> a = data.word(k);
                        case LEN -> a = SeccompData.SIZE;
                        case IMM -> a = k;
                        case MEM -> a = mem[k];
                        default -> throw new IllegalStateException("unvalidated load at " + pc);
                    }
                    pc++;
                }
                case LDX -> {
                    switch (code & 0xe0) {
                        case LEN -> x = SeccompData.SIZE;
                        case IMM -> x = k;
                        case MEM -> x = mem[k];
                        default -> throw new IllegalStateException("unvalidated load at " + pc);
                    }
                    pc++;
                }
                case ST -> {
                    mem[k] = a;
                    pc++;
                }
                case STX -> {
                    mem[k] = x;
                    pc++;
                }
                case ALU -> {
                    int src = (code & X) != 0 ? x : k;
                    switch (code & 0xf0) {
                        case ADD -> a += src;
                        case SUB -> a -= src;
                        case MUL -> a *= src;
                        case DIV -> {
                            if (src == 0) {
                                return new Verdict(0, executed);
                            }
                            a = Integer.divideUnsigned(a, src);
                        }
                        case MOD -> {
                            if (src == 0) {
                                return new Verdict(0, executed);
                            }
                            a = Integer.remainderUnsigned(a, src);
                        }
                        case OR -> a |= src;
                        case AND -> a &= src;
                        case XOR -> a ^= src;
                        case LSH -> a = (src & 0xffffffffL) >= 32 ? 0 : a << src;
                        case RSH -> a = (src & 0xffffffffL) >= 32 ? 0 : a >>> src;
                        case NEG -> a = -a;
                        default -> throw new IllegalStateException("unvalidated ALU at " + pc);
                    }
                    pc++;
                }
                case JMP -> {
                    if ((code & 0xf0) == JA) {
                        pc += 1 + k;
                    } else {
                        int src = (code & X) != 0 ? x : k;
                        boolean taken = switch (code & 0xf0) {
                            case JEQ -> a == src;
                            case JGT -> Integer.compareUnsigned(a, src) > 0;
                            case JGE -> Integer.compareUnsigned(a, src) >= 0;
                            case JSET -> (a & src) != 0;
                            default -> throw new IllegalStateException("unvalidated jump at " + pc);
                        };
                        pc += 1 + (taken ? i.jt() : i.jf());
                    }
                }
                case RET -> {
                    return new Verdict((code & 0x18) == A ? a : k, executed);
                }
                case MISC -> {
                    if ((code & 0xf8) == TXA) {
                        a = x;
                    } else {
                        x = a;
                    }
                    pc++;
                }
                default -> throw new IllegalStateException("unvalidated instruction at " + pc);
            }
        }
    }
}
