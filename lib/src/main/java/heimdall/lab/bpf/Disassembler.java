package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import java.util.Arrays;
import java.util.Locale;

/**
 * Prints a program one instruction a line: index, mnemonic, operand, jump targets as line numbers,
 * and a comment naming the {@code seccomp_data} field loaded, the syscall a comparison with
 * {@code nr} stands for, the architecture, or the action returned.
 */
public final class Disassembler {
    private Disassembler() {}

    public static String disassemble(Program p) {
        return disassemble(p, SyscallTable.x86_64());
    }

    public static String disassemble(Program p, SyscallTable table) {
        int n = p.length();
        int[] source = aSources(p);
        int width = Integer.toString(n - 1).length();
        StringBuilder out = new StringBuilder();
        for (int pc = 0; pc < n; pc++) {
            Insn i = p.get(pc);
            String[] mc = text(i, pc);
            String comment = comment(i, source[pc], table);
            String line = String.format(Locale.ROOT, "%" + width + "d  %-5s %-14s %s", pc, mc[0], mc[1], mc[2]);
            if (!comment.isEmpty()) {
                line = String.format(Locale.ROOT, "%-" + (width + 44) + "s ; %s", line.stripTrailing(), comment);
            }
            out.append(line.stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String[] text(Insn i, int pc) {
        int code = i.code();
        String k = hex(i.k());
        switch (i.cls()) {
            case LD:
                return switch (code & 0xe0) {
                    case ABS -> new String[] {"ld", "[" + i.k() + "]", ""};
                    case LEN -> new String[] {"ld", "#len", ""};
                    case IMM -> new String[] {"ld", "#" + k, ""};
                    case MEM -> new String[] {"ld", "M[" + i.k() + "]", ""};
                    default -> new String[] {"ld?", k, ""};
                };
            case LDX:
                return switch (code & 0xe0) {
                    case LEN -> new String[] {"ldx", "#len", ""};
                    case IMM -> new String[] {"ldx", "#" + k, ""};
                    case MEM -> new String[] {"ldx", "M[" + i.k() + "]", ""};
                    default -> new String[] {"ldx?", k, ""};
                };
            case ST:
                return new String[] {"st", "M[" + i.k() + "]", ""};
            case STX:
                return new String[] {"stx", "M[" + i.k() + "]", ""};
            case ALU: {
                String[] names = {"add", "sub", "mul", "div", "or", "and", "lsh", "rsh", "neg", "mod", "xor"};
                int op = (code & 0xf0) >> 4;
                String m = op < names.length ? names[op] : "alu?";
                return new String[] {m, op == 8 ? "" : (code & X) != 0 ? "x" : "#" + k, ""};
            }
            case JMP: {
                if ((code & 0xf0) == JA) {
                    return new String[] {"ja", "", "goto " + (pc + 1 + i.k())};
                }
                String m = switch (code & 0xf0) {
                    case JEQ -> "jeq";
                    case JGT -> "jgt";
                    case JGE -> "jge";
                    case JSET -> "jset";
                    default -> "j?";
                };
                return new String[] {
                    m, (code & X) != 0 ? "x" : "#" + k, "true " + (pc + 1 + i.jt()) + ", false " + (pc + 1 + i.jf())
                };
            }
            case RET:
                return new String[] {"ret", (code & 0x18) == A ? "A" : "#" + k, ""};
            case MISC:
                return new String[] {(code & 0xf8) == TXA ? "txa" : "tax", "", ""};
            default:
                return new String[] {"?", k, ""};
        }
    }

    private static String comment(Insn i, int aSource, SyscallTable table) {
        int code = i.code();
        if (code == (LD | W | ABS)) {
            return SeccompData.fieldName(i.k());
        }
        if (code == (RET | K)) {
            return Action.describe(i.k());
        }
        if (i.isConditionalJump() && (code & X) == 0) {
            if (aSource == SeccompData.OFF_NR && i.k() == Profile.X32_SYSCALL_BIT) {
                return "nr: x32 (X32_SYSCALL_BIT)";
            }
            if (aSource == SeccompData.OFF_NR && i.k() == Compiler.SKIPPED_CALL) {
                return "nr -1 (a skipped call)";
            }
            if (aSource == SeccompData.OFF_NR) {
                return table.name(i.k()).map(n -> "nr " + i.k() + " " + n).orElse("nr " + i.k());
            }
            if (aSource == SeccompData.OFF_ARCH && i.k() == Profile.AUDIT_ARCH_X86_64) {
                return "AUDIT_ARCH_X86_64";
            }
            if (aSource >= 0) {
                return SeccompData.fieldName(aSource) + " " + Integer.toUnsignedString(i.k());
            }
        }
        return "";
    }

    /** Per instruction, the seccomp_data offset A holds on every path there, or -1. */
    private static int[] aSources(Program p) {
        int n = p.length();
        int[] src = new int[n];
        boolean[] reached = new boolean[n];
        Arrays.fill(src, -1);
        reached[0] = true;
        for (int pc = 0; pc < n; pc++) {
            if (!reached[pc]) {
                continue;
            }
            Insn i = p.get(pc);
            int after = src[pc];
            if (i.cls() == LD) {
                after = i.code() == (LD | W | ABS) ? i.k() : -1;
            } else if (i.cls() == ALU || (i.cls() == MISC && (i.code() & 0xf8) == TXA)) {
                after = -1;
            }
            if (i.cls() == RET) {
                continue;
            }
            if (i.code() == (JMP | JA)) {
                merge(src, reached, pc + 1 + i.k(), after);
            } else if (i.cls() == JMP) {
                merge(src, reached, pc + 1 + i.jt(), after);
                merge(src, reached, pc + 1 + i.jf(), after);
            } else {
                merge(src, reached, pc + 1, after);
            }
        }
        return src;
    }

    private static void merge(int[] src, boolean[] reached, int to, int value) {
        if (!reached[to]) {
            reached[to] = true;
            src[to] = value;
        } else if (src[to] != value) {
            src[to] = -1;
        }
    }

    private static String hex(int k) {
        return "0x" + Integer.toHexString(k);
    }
}
