package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgramTest {
    static String reason(List<Insn> insns) {
        return assertThrows(BadInput.class, () -> Program.of(insns, "f.bpf")).getMessage();
    }

    @Test
    void bytesAreSockFilterLittleEndianAndRoundTrip() {
        Program p = new Program(List.of(ldAbs(4), jump(JEQ, 0xc000003e, 1, 0), ret(0x80000000), ret(0x7fff0000)));
        byte[] b = p.toBytes();
        assertEquals(32, b.length);
        assertArrayEquals(new byte[] {0x20, 0, 0, 0, 4, 0, 0, 0}, java.util.Arrays.copyOf(b, 8));
        assertArrayEquals(new byte[] {0x15, 0, 1, 0, 0x3e, 0, 0, (byte) 0xc0}, java.util.Arrays.copyOfRange(b, 8, 16));
        assertEquals(p, Program.fromBytes(b, "x"));
    }

    @Test
    void overLongProgramsAreRefusedNamingTheLength() {
        List<Insn> insns = new ArrayList<>(Collections.nCopies(4096, ldAbs(0)));
        insns.add(ret(0));
        assertEquals("f.bpf: length: 4097 instructions, over the kernel's limit of 4096 (BPF_MAXINSNS)", reason(insns));
        assertTrue(reason(List.of()).startsWith("f.bpf: length:"));
        insns.remove(0);
        assertEquals(4096, Program.of(insns, "ok").length());
    }

    @Test
    void jumpsOutOfRangeAreRefusedNamingTheInstruction() {
        assertTrue(reason(List.of(ldAbs(0), jump(JEQ, 1, 0, 5), ret(0))).startsWith("f.bpf: insn 1: jump"));
        assertTrue(reason(List.of(ldAbs(0), ja(1), ret(0))).startsWith("f.bpf: insn 1: jump of 1 lands outside"));
    }

    @Test
    void otherKernelChecks() {
        assertTrue(reason(List.of(ldAbs(64), ret(0))).startsWith("f.bpf: insn 0: load of offset 64"));
        assertTrue(reason(List.of(ldAbs(2), ret(0))).startsWith("f.bpf: insn 0: load of offset 2"));
        assertTrue(reason(List.of(new Insn(LD | B | ABS, 0, 0, 0), ret(0))).contains("not allowed"));
        assertTrue(reason(List.of(ldAbs(0))).contains("must be a RET"));
        assertTrue(reason(List.of(new Insn(ALU | DIV | K, 0, 0, 0), ret(0))).contains("division by the constant 0"));
        assertTrue(reason(List.of(new Insn(LD | MEM, 0, 0, 3), ret(0))).contains("M[3] is read before"));
        assertTrue(reason(List.of(new Insn(ST, 0, 0, 16), ret(0))).contains("over 15"));
        // a store on only one path before the load is not enough
        assertTrue(reason(List.of(
                        ldAbs(0), jump(JEQ, 1, 0, 1), new Insn(ST, 0, 0, 0), new Insn(LD | MEM, 0, 0, 0), ret(0)))
                .startsWith("f.bpf: insn 3:"));
        // seccomp refuses MOD; the kernel's memory check carries a RET's state into the next instruction
        assertTrue(reason(List.of(new Insn(ALU | MOD | K, 0, 0, 3), ret(0))).contains("MOD"));
        assertTrue(reason(List.of(
                        ldAbs(0),
                        jump(JEQ, 1, 0, 2),
                        new Insn(ST, 0, 0, 0),
                        ja(1),
                        ret(0),
                        new Insn(LD | MEM, 0, 0, 0),
                        ret(0)))
                .startsWith("f.bpf: insn 5:"));
    }

    @Test
    void compilerRefusesProfilesOverTheLimitAndUnknownNames() {
        Profile.Builder b = Profile.builder(Action.KILL_PROCESS);
        SyscallTable t = SyscallTable.x86_64();
        for (int nr = 0; nr < 300; nr++) {
            String name = t.name(nr).orElse(null);
            if (name != null) {
                for (int k = 0; k < 6; k++) {
                    b.rule(Action.ALLOW, name, ArgRule.of(k, Op.GT, k));
                }
            }
        }
        BadInput e = assertThrows(BadInput.class, () -> Compiler.compile(b.build(), t, "big.json"));
        assertTrue(e.getMessage().startsWith("big.json: syscalls: the compiled program has"), e.getMessage());
        BadInput unknown = assertThrows(
                BadInput.class,
                () -> Compiler.compile(Profile.builder(Action.ALLOW)
                        .rule(Action.TRAP, "read", "nope")
                        .build()));
        assertTrue(unknown.getMessage().startsWith("profile: syscalls[0].names: syscall 'nope'"), unknown.getMessage());
    }

    @Test
    void disassemblyNamesFieldsSyscallsActionsAndTargets() {
        Program p = Compiler.compile(Profile.builder(Action.errno(1))
                .allow("getppid")
                .rule(Action.NOTIFY, "openat", ArgRule.of(2, Op.EQ, 0))
                .build());
        String text = Disassembler.disassemble(p);
        String[] lines = text.split("\n");
        assertEquals(p.length(), lines.length);
        assertTrue(lines[0].matches("\\s*0  ld\\s+\\[4\\]\\s+; arch"), lines[0]);
        assertTrue(
                lines[1].contains("jeq") && lines[1].contains("AUDIT_ARCH_X86_64") && lines[1].contains("true 2"),
                lines[1]);
        assertTrue(text.contains("getppid") && text.contains("openat"), text);
        assertTrue(
                text.contains("; ALLOW")
                        && text.contains("; ERRNO(1)")
                        && text.contains("; NOTIFY")
                        && text.contains("; KILL_PROCESS")
                        && text.contains("; args[2].hi"),
                text);
    }
}
