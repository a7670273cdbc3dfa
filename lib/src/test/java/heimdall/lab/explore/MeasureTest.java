package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeasureTest {
    @Test
    void measuresInTheRunnerUnderAFloorAndComparesWithNone() {
        Requires.seccomp("kill_process", "allow");
        Leftovers left = Leftovers.now();
        FloorView abcdf = Lab.fixtureFloor("abcdf");
        Measurement none =
                Lab.measure("getppid").runs(2).warmup(1_000).calls(3_000).run();
        Measurement under = Lab.measure("getppid")
                .under(abcdf)
                .runs(4)
                .warmup(1_000)
                .calls(3_000)
                .run();
        assertEquals(4, under.runs().size());
        assertEquals(12_000, under.count());
        assertEquals(12_000, under.samples().length);
        assertEquals(List.of(0, 1, 2, 3), under.placements(), "runs rotate through the loop's code placements");
        assertEquals(Cpus.measuring(), under.cpu());
        assertEquals(List.of("static floor, abcdf"), under.floors());
        assertTrue(under.median() > 0 && under.p99() >= under.median());
        assertEquals(4, under.runMedians().length);
        assertFalse(under.interrupted());
        Added added = under.addedOver(none);
        assertEquals(under.median() - none.median(), added.addedNs());
        assertEquals(1, added.table().rowCount());
        assertEquals(2, added.plot().getSeriesMap().size());
        assertEquals(4, under.runsTable().rowCount());
        assertEquals(1, under.table().rowCount());
        left.assertNone();
    }

    @Test
    void eachRunIsTheChildFloorCostStartsForTheSameRow() {
        // floor-cost's first row (static floor, abcdf · getppid), as FloorBench builds its child run by run.
        FloorBench.Counts counts = new FloorBench.Counts(4, 2_000, 30_000, 1, 1);
        FloorRow row = FloorCost.rows(new FloorCost.Options(counts, Cpus.measuring(), Cpus.supervisor(), false))
                .get(0);
        Measure fluent = Lab.measure("getppid")
                .under(Lab.fixtureFloor("abcdf"))
                .warmup(2_000)
                .calls(30_000);
        for (int run = 0; run < 4; run++) {
            ChildSpec theirs = ChildSpec.of(row.call(), counts.warmup(), counts.count())
                    .withCpu(Cpus.measuring())
                    .withPrograms(row.floor().bytes())
                    .withPlacementForRun(run);
            ChildSpec ours = fluent.spec(run);
            assertEquals(theirs.call(), ours.call());
            assertEquals(theirs.cpu(), ours.cpu());
            assertEquals(theirs.warmup(), ours.warmup());
            assertEquals(theirs.count(), ours.count());
            assertEquals(theirs.mode(), ours.mode());
            assertEquals(theirs.placement(), ours.placement());
            assertEquals(theirs.newListener(), ours.newListener());
            assertEquals(theirs.programs().size(), ours.programs().size());
            for (int i = 0; i < theirs.programs().size(); i++) {
                assertArrayEquals(theirs.programs().get(i), ours.programs().get(i), "program " + i);
            }
        }
    }

    @Test
    void aCallByNumberWithArgumentsAndAFixedPlacement() {
        Requires.seccomp("errno", "allow");
        // getppid by number: the runner's generic syscall loop, at placement 2 in every run.
        Profile p = Profile.builder(Action.ALLOW)
                .rule(new Action(Action.Kind.ERRNO, 1), "getuid")
                .build();
        Measurement m = Lab.measure(110, 1, 2, 3)
                .under(Lab.floor("no getuid", p))
                .placement(2)
                .runs(2)
                .calls(1_000)
                .run();
        assertEquals(List.of(2, 2), m.placements());
        assertTrue(m.label().startsWith("syscall 110(1, 2, 3, 0, 0, 0)"), m.label());
    }

    @Test
    void aFloorThatKillsTheCallIsARefusalAndLeavesNoChild() {
        Requires.seccomp("kill_process", "allow");
        Leftovers left = Leftovers.now();
        Profile p = Profile.builder(Action.ALLOW)
                .rule(Action.KILL_PROCESS, "getppid")
                .build();
        Refusal r = assertThrows(
                Refusal.class,
                () -> Lab.measure("getppid")
                        .under(Lab.floor("kills getppid", p))
                        .runs(2)
                        .calls(100)
                        .run());
        assertTrue(r.getMessage().contains("run 1"), r.getMessage());
        left.assertNone();
    }

    @Test
    void badInputNamesTheField() {
        Leftovers left = Leftovers.now();
        BadInput e = assertThrows(BadInput.class, () -> Lab.measure("getuidd"));
        assertTrue(e.getMessage().startsWith("measure: call: 'getuidd'"), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure("openat"));
        assertTrue(e.getMessage().startsWith("measure: call: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure(4096));
        assertTrue(e.getMessage().startsWith("measure: nr: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure(110, 1, 2, 3, 4, 5, 6, 7));
        assertTrue(e.getMessage().startsWith("measure: args: "), e.getMessage());
        int notAllowed = Cpus.allowed().get(Cpus.allowed().size() - 1) + 1;
        e = assertThrows(BadInput.class, () -> Lab.measure("getppid").cpu(notAllowed));
        assertTrue(e.getMessage().startsWith("measure: cpu: CPU " + notAllowed), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure("getppid").cpu(-1));
        assertTrue(e.getMessage().startsWith("measure: cpu: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure("getppid").runs(0));
        assertTrue(e.getMessage().startsWith("measure: runs: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure("getppid").calls(0));
        assertTrue(e.getMessage().startsWith("measure: calls: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure("getppid").placement(4));
        assertTrue(e.getMessage().startsWith("measure: placement: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure(Call.PINGPONG));
        assertTrue(e.getMessage().startsWith("measure: call: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.measure(Call.FORK).placement(1));
        assertTrue(e.getMessage().startsWith("measure: placement: "), e.getMessage());
        left.assertNone();
    }
}
