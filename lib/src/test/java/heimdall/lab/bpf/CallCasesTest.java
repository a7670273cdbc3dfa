package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallCasesTest {
    @Test
    void vectorsReachEveryRulesActionAndTheDefault() {
        SyscallTable t = SyscallTable.x86_64();
        for (Op op : Op.values()) {
            Profile p = Profile.builder(Action.errno(38))
                    .rule(Action.NOTIFY, "openat", new ArgRule(2, 0x1_0000_0040L, 0x40, op))
                    .rule(Action.errno(13), "openat", ArgRule.of(0, Op.EQ, 5), ArgRule.of(1, Op.GT, 7))
                    .build();
            Program prog = Compiler.compile(p);
            int nr = t.number("openat").getAsInt();
            Set<Integer> seen = new HashSet<>();
            List<long[]> vectors = CallCases.argVectors(p, t, nr);
            for (long[] v : vectors) {
                seen.add(Emulator.run(prog, SeccompData.x86_64(nr, v)).action());
            }
            assertTrue(
                    seen.containsAll(Set.of(
                            Action.NOTIFY.ret(),
                            Action.errno(13).ret(),
                            Action.errno(38).ret())),
                    op + ": " + seen);
        }
    }
}
