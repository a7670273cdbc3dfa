package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Errno;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.Fate;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Programs the compiler never writes, against the kernel: (1) {@link Program}'s validation accepts
 * exactly what the kernel's checker accepts, on hand-picked edge cases and random instruction lists;
 * (2) random valid programs (ALU with K and X, the X register, scratch memory, loads of every argument
 * word, RET A, and return values of every action, unknown ones, ERRNO 0 and ERRNO over 4095 included)
 * give the verdict {@link Stack#evaluate} predicts. Loads of the instruction pointer are left out: the
 * emulator is given 0, the kernel the runner's real address.
 */
class KernelRandomProgramTest {
    private static final long SEED = 0x5eccbadL;

    @BeforeAll
    static void kernel() {
        NeedsKernelSeccomp.assume();
    }

    private static byte[] raw(List<Insn> insns) {
        ByteBuffer b = ByteBuffer.allocate(insns.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (Insn i : insns) {
            b.putShort((short) i.code()).put((byte) i.jt()).put((byte) i.jf()).putInt(i.k());
        }
        return b.array();
    }

    /** Whether the kernel accepts {@code insns} as a filter (installed over the guard, which allows seccomp). */
    private static boolean kernelAccepts(List<Insn> insns) {
        ChildSpec spec = new ChildSpec(
                -1,
                List.of(SafetyGuard.harmless().program().toBytes(), raw(insns)),
                Call.syscall(110),
                0,
                1,
                ChildSpec.Mode.PER_CALL,
                false,
                ChildSpec.ListenerTransfer.SCM_RIGHTS,
                0,
                0);
        ChildResult r = MeasuredChild.run(spec);
        if (r.fate() instanceof Fate.Exited e && e.code() == 69 && e.phase() == Phase.INSTALL) {
            assertEquals(1, e.program(), "the guard itself was refused");
            assertEquals(Errno.EINVAL, e.setupErrno(), r.fate().describe());
            return false;
        }
        return true;
    }

    private static String acceptance(List<Insn> insns) {
        try {
            new Program(insns);
            return "accepted";
        } catch (BadInput e) {
            return "refused (" + e.getMessage() + ")";
        }
    }

    private static String text(List<Insn> insns) {
        return insns.stream()
                .map(i -> String.format("  {0x%04x, %d, %d, 0x%x}", i.code(), i.jt(), i.jf(), i.k()))
                .collect(Collectors.joining("\n"));
    }

    private static Insn op(int code, int k) {
        return new Insn(code, 0, 0, k);
    }

    /** Edge cases of the kernel's checks, each named. */
    static List<Object[]> edgeCases() {
        Insn allow = ret(Action.ALLOW.ret());
        return List.of(
                new Object[] {"MOD with a constant", List.of(op(LD | IMM, 7), op(ALU | MOD | K, 3), op(RET | A, 0))},
                new Object[] {
                    "MOD with X", List.of(op(LDX | IMM, 3), op(LD | IMM, 7), op(ALU | MOD | X, 0), op(RET | A, 0))
                },
                new Object[] {"XOR with a constant", List.of(op(LD | IMM, 7), op(ALU | XOR | K, 3), op(RET | A, 0))},
                new Object[] {"NEG", List.of(op(LD | IMM, 7), op(ALU | NEG, 0), op(RET | A, 0))},
                new Object[] {"LD LEN and LDX LEN", List.of(op(LD | W | LEN, 0), op(LDX | W | LEN, 0), allow)},
                new Object[] {"byte load", List.of(op(LD | B | ABS, 0), allow)},
                new Object[] {"half-word load", List.of(op(LD | H | ABS, 0), allow)},
                new Object[] {"indirect load", List.of(op(LD | W | IND, 0), allow)},
                new Object[] {"load past seccomp_data", List.of(op(LD | W | ABS, 64), allow)},
                new Object[] {"unaligned load", List.of(op(LD | W | ABS, 2), allow)},
                new Object[] {"RET X", List.of(op(RET | 0x08, 0))},
                new Object[] {"unknown opcode 0xff", List.of(op(0xff, 0), allow)},
                new Object[] {"division by constant 0", List.of(op(ALU | DIV | K, 0), allow)},
                new Object[] {"shift by 32", List.of(op(ALU | LSH | K, 32), allow)},
                new Object[] {"shift by 31", List.of(op(ALU | RSH | K, 31), allow)},
                new Object[] {"scratch word 16", List.of(op(ST, 16), allow)},
                new Object[] {"JA past the end", List.of(ja(1), allow)},
                new Object[] {"conditional jump past the end", List.of(jump(JEQ, 0, 1, 0), allow)},
                new Object[] {"no final RET", List.of(allow, op(LD | IMM, 0))},
                new Object[] {"scratch read before any store", List.of(op(LD | MEM, 0), allow)},
                new Object[] {
                    "scratch stored on one path only",
                    List.of(jump(JEQ, 0, 0, 1), op(ST, 0), op(LD | MEM, 0), op(RET | A, 0))
                },
                // Reachable only through the jump at 3, after a store; but the kernel's single pass
                // carries the state of the RET at 4 (which never stored) into 5.
                new Object[] {
                    "scratch read after a RET, reached only from a store",
                    List.of(ldAbs(0), jump(JEQ, 1, 0, 2), op(ST, 0), ja(1), allow, op(LD | MEM, 0), op(RET | A, 0))
                },
                new Object[] {"unreachable scratch read after a RET", List.of(allow, op(LD | MEM, 0), op(RET | A, 0))});
    }

    /** A random instruction list from the whole opcode space, biased toward the valid. */
    private static List<Insn> randomInsns(Random r) {
        int n = 1 + r.nextInt(10);
        List<Insn> out = new ArrayList<>();
        int[] codes = {
            LD | W | ABS,
            LD | W | LEN,
            LDX | W | LEN,
            LD | IMM,
            LDX | IMM,
            LD | MEM,
            LDX | MEM,
            ST,
            STX,
            MISC | TAX,
            MISC | TXA,
            RET | K,
            RET | A,
            JMP | JA,
            JMP | JEQ | K,
            JMP | JGT | X,
            JMP | JSET | K,
            ALU | ADD | K,
            ALU | SUB | X,
            ALU | MUL | K,
            ALU | DIV | K,
            ALU | DIV | X,
            ALU | MOD | K,
            ALU | MOD | X,
            ALU | AND | X,
            ALU | OR | K,
            ALU | XOR | X,
            ALU | LSH | K,
            ALU | RSH | X,
            ALU | NEG,
            LD | H | ABS,
            LD | B | ABS,
            LD | W | IND,
            LDX | B | MSH,
            RET | 0x08,
            0x0f,
            0xff
        };
        for (int pc = 0; pc < n; pc++) {
            int code = pc == n - 1 && r.nextInt(6) > 0
                    ? (r.nextBoolean() ? RET | K : RET | A)
                    : codes[r.nextInt(codes.length)];
            int k = switch (r.nextInt(5)) {
                case 0 -> r.nextInt(4);
                case 1 -> 4 * r.nextInt(17);
                case 2 -> r.nextInt(40);
                case 3 -> r.nextInt(18);
                default -> r.nextInt();
            };
            out.add(new Insn(code, r.nextInt(Math.max(1, n - pc)), r.nextInt(Math.max(1, n - pc)), k));
        }
        return out;
    }

    @Test
    void programValidationAcceptsWhatTheKernelAccepts() {
        List<String> wrong = new ArrayList<>();
        int compared = 0;
        for (Object[] c : edgeCases()) {
            @SuppressWarnings("unchecked")
            List<Insn> insns = (List<Insn>) c[1];
            String ours = acceptance(insns);
            boolean kernel = kernelAccepts(insns);
            compared++;
            if (ours.equals("accepted") != kernel) {
                wrong.add(c[0] + ": kernel " + (kernel ? "accepted" : "refused") + ", Program " + ours + "\n"
                        + text(insns));
            }
        }
        Random r = new Random(SEED);
        int accepted = 0;
        for (int t = 0; t < 400; t++) {
            List<Insn> insns = randomInsns(r);
            String ours = acceptance(insns);
            boolean kernel = kernelAccepts(insns);
            compared++;
            accepted += kernel ? 1 : 0;
            if (ours.equals("accepted") != kernel) {
                wrong.add("random #" + t + ": kernel " + (kernel ? "accepted" : "refused") + ", Program " + ours + "\n"
                        + text(insns));
            }
        }
        System.out.println("validation: " + compared + " programs compared with the kernel's checker (" + accepted
                + " random ones accepted), " + wrong.size() + " disagreements");
        assertEquals("", String.join("\n", wrong), wrong.size() + " programs judged differently");
        assertTrue(accepted > 40 && accepted < 360, "the random lists are mixed: " + accepted + " of 400 accepted");
    }

    private static final int[] RETS = {
        Action.ALLOW.ret(),
        Action.LOG.ret(),
        Action.errno(1).ret(),
        Action.errno(0).ret(),
        0x0005_ffff /* ERRNO 65535 */,
        Action.errno(4095).ret(),
        Action.errno(4096).ret(),
        Action.TRAP.ret() | 7,
        Action.trace(3).ret(),
        Action.NOTIFY.ret(),
        Action.KILL_THREAD.ret(),
        Action.KILL_PROCESS.ret(),
        0x0001_0000 /* unknown */,
        0x7ff8_0000 /* unknown, between TRACE and LOG */,
        0x7fff_0001 /* ALLOW with data */,
        0xc000_0000 /* unknown, negative */
    };

    /** A random valid program (null when the draw is not valid); no loads of the instruction pointer. */
    private static Program randomValid(Random r) {
        int n = 2 + r.nextInt(24);
        List<Insn> insns = new ArrayList<>();
        for (int pc = 0; pc < n - 1; pc++) {
            int left = n - pc - 1;
            int k = r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(64);
            int[] offsets = {0, 0, 4, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60};
            Insn i = switch (r.nextInt(16)) {
                case 0, 1, 2 -> ldAbs(offsets[r.nextInt(offsets.length)]);
                case 3, 4, 5 ->
                    new Insn(
                            JMP | new int[] {JEQ, JGE, JGT, JSET}[r.nextInt(4)] | (r.nextInt(3) == 0 ? X : K),
                            r.nextInt(left),
                            r.nextInt(left),
                            k);
                case 6, 7 ->
                    new Insn(
                            ALU
                                    | new int[] {ADD, SUB, MUL, DIV, OR, AND, LSH, RSH, XOR}[r.nextInt(9)]
                                    | (r.nextBoolean() ? X : K),
                            0,
                            0,
                            1 + r.nextInt(31));
                case 8 -> new Insn(ALU | NEG, 0, 0, 0);
                case 9 -> ret(RETS[r.nextInt(RETS.length)]);
                case 10 ->
                    new Insn(
                            r.nextBoolean() ? LD | IMM : LDX | IMM,
                            0,
                            0,
                            r.nextBoolean() ? k : RETS[r.nextInt(RETS.length)]);
                case 11 -> new Insn(r.nextBoolean() ? MISC | TAX : MISC | TXA, 0, 0, 0);
                case 12 -> new Insn(r.nextBoolean() ? ST : STX, 0, 0, r.nextInt(3));
                case 13 -> new Insn(r.nextBoolean() ? LD | MEM : LDX | MEM, 0, 0, r.nextInt(3));
                case 14 -> ja(r.nextInt(left));
                default -> new Insn(r.nextBoolean() ? LD | W | LEN : LDX | W | LEN, 0, 0, 0);
            };
            insns.add(i);
        }
        insns.add(r.nextInt(3) == 0 ? new Insn(RET | A, 0, 0, 0) : ret(RETS[r.nextInt(RETS.length)]));
        try {
            return new Program(insns);
        } catch (BadInput e) {
            return null;
        }
    }

    @Test
    void randomProgramsGiveTheVerdictsTheEmulatorPredicts() {
        Random r = new Random(SEED + 1);
        int[] harmless = {110, 39, 186, 24, 10 /* mprotect, len 0 */, 63 /* uname(NULL) */};
        long t0 = System.nanoTime();
        Differential d = new Differential("random programs");
        int programs = 0;
        while (programs < 250) {
            Program p = randomValid(r);
            if (p == null) {
                continue;
            }
            programs++;
            for (int c = 0; c < 3; c++) {
                int nr = switch (r.nextInt(4)) {
                    case 0, 1 -> harmless[r.nextInt(harmless.length)];
                    case 2 -> r.nextInt(470);
                    default -> Profile.X32_SYSCALL_BIT | r.nextInt(470);
                };
                if (CachePredictor.KERNEL_PASS_THROUGH_X86_64.contains(nr)) {
                    continue;
                }
                long[] args = new long[6];
                for (int j = 0; j < 6; j++) {
                    args[j] = switch (r.nextInt(4)) {
                        case 0 -> 0;
                        case 1 -> r.nextInt(64);
                        case 2 -> (long) r.nextInt(64) << 32 | r.nextInt(4);
                        default -> r.nextLong();
                    };
                }
                if (nr == 10 || nr == 63) {
                    args[nr == 10 ? 1 : 0] = 0; // keep them on the guard's harmless side now and then
                }
                d.check(List.of(p), nr, args);
            }
        }
        KernelDifferentialTest.report(d, t0);
        assertTrue(d.seen.size() >= 6, "the random programs met few distinct outcomes: " + d.seen);
    }
}
