package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.profile.Profile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Properties over random valid programs: the predictor is sound, bytes round-trip, disassembly covers all. */
class RandomProgramPropertyTest {
    static final int[] OFFSETS = {0, 4, 8, 12, 16, 20, 24, 60};
    static final int[] RETS = {0x7fff0000, 0x7fff0000, 0x50001, 0x80000000, 0, 0x7ffc0000};

    /** A random program: loads, ALU, X, scratch memory, forward jumps, RETs; null when invalid. */
    static Program random(long seed) {
        Random r = new Random(seed);
        int n = 2 + r.nextInt(30);
        List<Insn> insns = new ArrayList<>();
        for (int pc = 0; pc < n - 1; pc++) {
            int left = n - pc - 1; // instructions after this one
            int k = r.nextInt(4) == 0 ? r.nextInt() : r.nextInt(400);
            Insn i = switch (r.nextInt(14)) {
                case 0, 1, 2 -> ldAbs(r.nextInt(3) == 0 ? OFFSETS[r.nextInt(OFFSETS.length)] : r.nextBoolean() ? 0 : 4);
                case 3, 4, 5 ->
                    jump(new int[] {JEQ, JGE, JGT, JSET}[r.nextInt(4)], k, r.nextInt(left), r.nextInt(left));
                case 6 -> andK(k);
                case 7 -> new Insn(ALU | new int[] {ADD, SUB, OR, XOR, LSH}[r.nextInt(5)] | K, 0, 0, r.nextInt(31));
                case 8 -> ret(RETS[r.nextInt(RETS.length)]);
                case 9 -> new Insn(LD | IMM, 0, 0, k);
                case 10 -> new Insn(r.nextBoolean() ? MISC | TAX : MISC | TXA, 0, 0, 0);
                case 11 -> new Insn(r.nextBoolean() ? ST : LD | MEM, 0, 0, r.nextInt(2));
                case 12 -> ja(r.nextInt(left));
                default -> jump(JEQ | X, 0, r.nextInt(left), r.nextInt(left));
            };
            insns.add(i);
        }
        insns.add(r.nextInt(5) == 0 ? new Insn(RET | A, 0, 0, 0) : ret(RETS[r.nextInt(RETS.length)]));
        try {
            return new Program(insns);
        } catch (BadInput e) {
            return null;
        }
    }

    @Property(tries = 3000)
    void cacheableMeansAllowedWhateverTheArguments(@ForAll long seed) {
        Program p = random(seed);
        Assume.that(p != null);
        Random r = new Random(seed ^ 0x5eed);
        for (int nr = 0; nr < 400; nr += 1 + r.nextInt(7)) {
            int call = nr;
            if (CachePredictor.cacheable(p, nr)) {
                for (int t = 0; t < 8; t++) {
                    long[] args = new long[6];
                    for (int j = 0; j < 6; j++) {
                        args[j] = r.nextLong();
                    }
                    Verdict v = Emulator.run(p, new SeccompData(nr, Profile.AUDIT_ARCH_X86_64, r.nextLong(), args));
                    assertEquals(0x7fff0000, v.action(), () -> "nr " + call + "\n" + Disassembler.disassemble(p));
                }
            }
        }
    }

    @Property(tries = 1000)
    void bytesRoundTripAndDisassemblyHasALinePerInstruction(@ForAll long seed) {
        Program p = random(seed);
        Assume.that(p != null);
        assertEquals(p, Program.fromBytes(p.toBytes(), "random"));
        String text = Disassembler.disassemble(p);
        assertEquals(p.length(), text.split("\n").length);
        assertTrue(Emulator.run(p, SeccompData.x86_64(1)).insnsExecuted() <= p.length());
    }
}
