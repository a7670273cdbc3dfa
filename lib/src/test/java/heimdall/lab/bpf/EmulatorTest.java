package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmulatorTest {
    static Program prog(Insn... insns) {
        return new Program(List.of(insns));
    }

    @Test
    void retReturnsTheFullValueAndCountsOneInstruction() {
        for (int ret : new int[] {0x80000000, 0, 0x30000, 0x50026, 0x7fc00000, 0x7ff00007, 0x7ffc0000, 0x7fff0000}) {
            Verdict v = Emulator.run(prog(Insn.ret(ret)), SeccompData.x86_64(1));
            assertEquals(ret, v.action());
            assertEquals(1, v.insnsExecuted());
        }
    }

    @Test
    void dispatchOnNrCountsExecutedInstructions() {
        // 0 ld nr; 1 jeq 39 ? 2 : 3; 2 ret ALLOW; 3 ret ERRNO(1)
        Program p = prog(ldAbs(0), jump(JEQ, 39, 0, 1), ret(0x7fff0000), ret(0x50001));
        assertEquals(new Verdict(0x7fff0000, 3), Emulator.run(p, SeccompData.x86_64(39)));
        assertEquals(new Verdict(0x50001, 3), Emulator.run(p, SeccompData.x86_64(40)));
    }

    @Test
    void jsetTestsBitsAndJaSkips() {
        // 0 ld args[1].lo; 1 jset 0x4 ? 2 : 3; 2 ja +1 (to 4); 3 ret KILL; 4 ret ALLOW
        Program p = prog(ldAbs(24), jump(JSET, 4, 0, 1), ja(1), ret(0), ret(0x7fff0000));
        assertEquals(new Verdict(0x7fff0000, 4), Emulator.run(p, SeccompData.x86_64(1, 0, 6)));
        assertEquals(new Verdict(0, 3), Emulator.run(p, SeccompData.x86_64(1, 0, 3)));
    }

    @Test
    void argumentHalvesAreLittleEndianWords() {
        SeccompData d = new SeccompData(7, Profile.AUDIT_ARCH_X86_64, 0x1122334455667788L, new long[] {
            0xaaaaaaaabbbbbbbbL, 0, 0, 0, 0, 0x0102030405060708L
        });
        assertEquals(0x55667788, d.word(8));
        assertEquals(0x11223344, d.word(12));
        assertEquals(0xbbbbbbbb, d.word(16));
        assertEquals(0xaaaaaaaa, d.word(20));
        assertEquals(0x05060708, d.word(56));
        assertEquals(0x01020304, d.word(60));
        assertEquals(
                0x01020304,
                Emulator.run(prog(ldAbs(60), new Insn(RET | A, 0, 0, 0)), d).action());
    }

    @Test
    void compiledMaskedEqAndSixtyFourBitComparesLookAtBothHalves() {
        Profile p = Profile.builder(Action.errno(1))
                .rule(Action.ALLOW, "mprotect", ArgRule.maskedEq(2, 0xffff_ffff_0000_0004L, 0x0000_0001_0000_0004L))
                .rule(Action.ALLOW, "read", ArgRule.of(0, Op.GT, 0x1_0000_0000L))
                .rule(Action.ALLOW, "write", ArgRule.of(0, Op.LE, 0xffff_ffffL))
                .build();
        Program prog = Compiler.compile(p);
        int mprotect = 10;
        assertTrue(Emulator.run(prog, SeccompData.x86_64(mprotect, 0, 0, 0x1_0000_0005L))
                .allows());
        assertFalse(Emulator.run(prog, SeccompData.x86_64(mprotect, 0, 0, 0x0_0000_0005L))
                .allows());
        assertFalse(Emulator.run(prog, SeccompData.x86_64(mprotect, 0, 0, 0x1_0000_0001L))
                .allows());
        assertTrue(Emulator.run(prog, SeccompData.x86_64(0, 0x1_0000_0001L)).allows());
        assertFalse(Emulator.run(prog, SeccompData.x86_64(0, 0x1_0000_0000L)).allows());
        assertFalse(Emulator.run(prog, SeccompData.x86_64(0, 0xffff_ffffL)).allows(), "low half alone is not enough");
        assertTrue(Emulator.run(prog, SeccompData.x86_64(1, 0xffff_ffffL)).allows());
        assertFalse(Emulator.run(prog, SeccompData.x86_64(1, 0x1_0000_0000L)).allows());
        assertEquals(0x50001, Emulator.run(prog, SeccompData.x86_64(1, -1L)).action());
    }

    @Test
    void aluScratchMemoryAndXRegister() {
        // A = nr; M[0] = A; X = 3; A = A * X; A += M? (via ldx M[0]) ; ret A
        Program p = prog(
                ldAbs(0),
                new Insn(ST, 0, 0, 0),
                new Insn(LDX | IMM, 0, 0, 3),
                new Insn(ALU | MUL | X, 0, 0, 0),
                new Insn(LDX | MEM, 0, 0, 0),
                new Insn(ALU | ADD | X, 0, 0, 0),
                new Insn(RET | A, 0, 0, 0));
        assertEquals(new Verdict(40, 7), Emulator.run(p, SeccompData.x86_64(10)));
        // division by a zero X ends the program with 0 (KILL_THREAD), as the kernel's interpreter does
        Program div = prog(new Insn(LDX | IMM, 0, 0, 0), new Insn(ALU | DIV | X, 0, 0, 0), ret(0x7fff0000));
        assertEquals(new Verdict(0, 2), Emulator.run(div, SeccompData.x86_64(1)));
        assertEquals(
                64,
                Emulator.run(prog(new Insn(LD | W | LEN, 0, 0, 0), new Insn(RET | A, 0, 0, 0)), SeccompData.x86_64(1))
                        .action());
    }

    @Test
    void stackTakesTheMostRestrictiveAndTheNewestOnTies() {
        Program allow = prog(ret(0x7fff0000));
        Program errno1 = prog(ret(0x50001));
        Program errno2 = prog(ret(0x50002));
        Program killProcess = prog(ret(0x80000000));
        Program killThread = prog(ret(0));
        Program log = prog(ret(0x7ffc0000));
        SeccompData d = SeccompData.x86_64(1);
        assertEquals(new Verdict(0x50001, 2), Stack.evaluate(List.of(allow, errno1), d));
        assertEquals(0x50002, Stack.evaluate(List.of(errno1, errno2), d).action(), "tie: newest wins");
        assertEquals(0x50001, Stack.evaluate(List.of(errno2, errno1), d).action(), "tie: newest wins");
        assertEquals(
                0x80000000,
                Stack.evaluate(List.of(killThread, killProcess, allow), d).action(),
                "KILL_PROCESS (negative) beats KILL_THREAD (0)");
        assertEquals(0x7ffc0000, Stack.evaluate(List.of(allow, log), d).action());
        assertEquals(3, Stack.evaluate(List.of(allow, log, allow), d).insnsExecuted());
    }
}
