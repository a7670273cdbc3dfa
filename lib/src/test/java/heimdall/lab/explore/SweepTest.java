package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bpf.SeccompData;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.reproduce.attachcost.AttachCost;
import heimdall.lab.testing.Requires;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SweepTest {
    /** Argument rules: each rule its arguments can reach gets a case, and so does the default. */
    @Test
    void everyRuleAndTheDefaultIsReached() {
        Profile p = Profile.builder(Action.errno(1))
                .rule(Action.ALLOW, "personality", ArgRule.of(0, Op.EQ, 8))
                .rule(Action.ALLOW, "personality", ArgRule.of(0, Op.EQ, 0xffffffffL))
                .rule(Action.errno(13), "socket", ArgRule.of(0, Op.EQ, 16), ArgRule.of(2, Op.EQ, 9))
                .rule(Action.ALLOW, "socket", ArgRule.of(2, Op.NE, 9))
                .rule(Action.ALLOW, "socket", ArgRule.of(0, Op.NE, 16))
                .allow("getppid")
                .build();
        List<SweepCase> cases = SweepCase.of(p, SyscallTable.x86_64());
        List<String> personality = cases.stream()
                .filter(c -> c.call().equals("personality"))
                .map(SweepCase::label)
                .toList();
        assertEquals(List.of("personality(0x8)", "personality(0xffffffff)", "personality()"), personality);
        List<SweepCase> socket =
                cases.stream().filter(c -> c.call().equals("socket")).toList();
        // rules 2 and 3 together take every argument rule 1 leaves: no default to reach
        assertEquals(3, socket.size(), socket.toString());
        for (int k = 0; k < 3; k++) {
            SweepCase c = socket.get(k);
            assertTrue(c.reached().startsWith("rule " + (k + 1) + " of 3"), c.toString());
            // the arguments really reach that rule first, as the profile evaluates them
            assertEquals(
                    p.syscalls().get(2 + k).action().ret(),
                    p.evaluate(SyscallTable.x86_64(), c.nr(), Profile.AUDIT_ARCH_X86_64, c.args()),
                    c.label());
        }
        SweepCase persona = cases.stream()
                .filter(c -> c.label().equals("personality()"))
                .findFirst()
                .orElseThrow();
        assertEquals("default (no rule matches)", persona.reached());
        assertEquals(
                Action.errno(1).ret(),
                p.evaluate(SyscallTable.x86_64(), persona.nr(), Profile.AUDIT_ARCH_X86_64, persona.args()));
        assertEquals(
                "bare rule",
                cases.stream()
                        .filter(c -> c.call().equals("getppid"))
                        .findFirst()
                        .orElseThrow()
                        .reached());
    }

    /** The sweep makes only what it knows to be harmless; everything else says why. */
    @Test
    void whatTheSweepDoesNotMakeItRefusesByName() {
        SweepCase exit = new SweepCase("exit_group", 231, new long[6], "bare rule");
        assertEquals("not made: ends the child", SweepSafety.refusal(exit).orElseThrow());
        SweepCase unknown = new SweepCase("sethostname", 170, new long[6], "bare rule");
        assertTrue(SweepSafety.refusal(unknown).isPresent());
        SweepCase packet = new SweepCase("socket", 41, new long[] {17, 3, 0, 0, 0, 0}, "rule 3 of 3");
        assertTrue(SweepSafety.refusal(packet).isPresent(), "a packet socket is not made");
        SweepCase uname26 = new SweepCase("personality", 135, new long[] {0x20000, 0, 0, 0, 0, 0}, "rule 3 of 5");
        assertTrue(SweepSafety.refusal(uname26).isEmpty());
        SweepCase rewind = new SweepCase("lseek", 8, new long[6], "bare rule");
        assertTrue(
                SweepSafety.refusal(rewind).orElseThrow().contains("shares with this JVM"),
                "lseek(0, 0, SEEK_SET) would rewind this JVM's own stdin");
        SweepCase fstatFd = new SweepCase("fstat", 5, new long[] {3, 0, 0, 0, 0, 0}, "rule 1 of 1");
        assertTrue(SweepSafety.refusal(fstatFd).isPresent(), "zero-argument calls only with zero arguments");
    }

    /** Podman's profile, quick counts: under 3 minutes, every allowed call measured or refused with a reason. */
    @Test
    @Timeout(600)
    void podmansProfileSweptInUnderThreeMinutes() {
        Requires.seccomp("kill_process", "allow", "errno");
        Requires.file(AttachCost.PODMAN_PROFILE, "podman");
        FloorView podman = Lab.floor(AttachCost.PODMAN_PROFILE);
        Sweep s = podman.sweep();
        System.out.println(s);
        assertTrue(s.seconds() < 180, "the sweep took " + s.seconds() + " s");
        assertFalse(s.interrupted());
        Set<Integer> allowed = SyscallTable.x86_64().numbers().stream()
                .filter(nr -> podman.floor().verdict(SeccompData.x86_64(nr)).allows())
                .collect(Collectors.toSet());
        Set<Integer> covered = s.rows().stream().map(r -> r.sweepCase().nr()).collect(Collectors.toSet());
        assertTrue(covered.containsAll(allowed), "every allowed call has a row");
        for (Sweep.Row r : s.rows()) {
            if (r.status().equals("measured")) {
                assertNotNull(r.addedNs());
                assertNull(r.reason());
                assertEquals("ALLOW", r.answer());
            } else {
                assertTrue(r.reason() != null && !r.reason().isBlank(), r.toString());
            }
        }
        assertTrue(
                s.measured().size() >= 50,
                "most harmless calls measured: " + s.measured().size());
        assertEquals(
                0,
                s.rows().stream().filter(r -> r.status().equals("failed")).count(),
                s.table().printAll());
        // personality: Podman allows 5 personas; each reached and measured, and the default denied
        List<Sweep.Row> personality = s.rows().stream()
                .filter(r -> r.sweepCase().call().equals("personality"))
                .toList();
        assertEquals(
                5,
                personality.stream().filter(r -> r.status().equals("measured")).count(),
                personality.toString());
        assertEquals(
                1, personality.stream().filter(r -> r.status().equals("denied")).count(), personality.toString());
        // ranked: added cost never rises down the table
        List<Long> added = s.measured().stream().map(Sweep.Row::addedNs).toList();
        for (int i = 1; i < added.size(); i++) {
            assertTrue(added.get(i) <= added.get(i - 1));
        }
        assertNotNull(s.chart());
    }

    /** Six runs a way: every measured row's added cost has its 95% interval, in the table and the headline. */
    @Test
    @Timeout(600)
    void theRankedAddedCostCarriesItsInterval() {
        Requires.seccomp("kill_process", "allow");
        Sweep s = Lab.fixtureFloor("abcdf").sweep(6, 2_000);
        assertFalse(s.measured().isEmpty(), s.table().printAll());
        tech.tablesaw.api.Table t = s.table();
        for (int i = 0; i < s.measured().size(); i++) {
            Sweep.Row r = s.measured().get(i);
            heimdall.lab.stats.Interval ci = r.addedCi();
            assertTrue(ci.contains(r.addedNs()), r.sweepCase().label() + ": " + ci);
            assertTrue(ci.reached(), "6 runs a way reach 95%: " + ci);
            assertEquals(
                    ci.low(),
                    t.doubleColumn("added_low_ns").get(i),
                    r.sweepCase().label());
            assertEquals(
                    ci.high(),
                    t.doubleColumn("added_high_ns").get(i),
                    r.sweepCase().label());
        }
        assertTrue(s.text().contains("[" + s.measured().get(0).addedCi().text() + "]"), s.text());
    }
}
