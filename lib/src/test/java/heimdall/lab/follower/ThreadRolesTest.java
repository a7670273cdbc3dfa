package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Roles by creating call site on constructed graphs: which states name a role, and when none may. */
class ThreadRolesTest {
    static final int GETPPID = 110;
    static final int CLONE = 56;

    static Machine machine(Graph g) {
        return Minimizer.minimize(MachineCompiler.compile(g, CompileBudget.defaults()));
    }

    /** main: getppid, clone at A, clone at B, exit_group; role A: geteuid, exit; role B: getegid, exit. */
    static Graph twoSites(String functionA, String roleA) {
        return Graph.builder()
                .site(1, GETPPID, "getppid", "prog+0x1", false, "main")
                .site(2, CLONE, "clone", functionA, false)
                .site(3, CLONE, "clone", "prog+0x20", false)
                .site(4, 231, "exit_group", "prog+0x30", true)
                .site(5, 107, "geteuid", "prog+0x40", false, roleA)
                .site(6, 60, "exit", "prog+0x50", true)
                .site(7, 108, "getegid", "prog+0x60", false, "thread:prog+0x20")
                .site(8, 60, "exit", "prog+0x70", true)
                .next(1, 2)
                .next(2, 3)
                .next(3, 4)
                .next(5, 6)
                .next(7, 8)
                .build();
    }

    @Test
    void eachCloneSiteNamesItsRoleAndTheTablesCarryItsStart() {
        Graph g = twoSites("prog+0x10", "thread:prog+0x10");
        Machine m = machine(g);
        ThreadRoles roles = ThreadRoles.of(g, m);
        assertEquals(Set.of("thread:prog+0x10", "thread:prog+0x20"), roles.roles());
        int afterA = m.target(m.target(m.start("main"), GETPPID), CLONE);
        int afterB = m.target(afterA, CLONE);
        assertEquals("thread:prog+0x10", roles.role(afterA));
        assertEquals("thread:prog+0x20", roles.role(afterB));
        KernelTables t = KernelTables.of(g, m);
        assertEquals(m.start("thread:prog+0x10") * t.columns(), t.childStarts()[afterA]);
        assertEquals(m.start("thread:prog+0x20") * t.columns(), t.childStarts()[afterB]);
        assertEquals(-1, t.childStarts()[m.start("main")], "a state no clone leads to names no role");
    }

    @Test
    void aSymbolNamedSiteMatchesTheRoleNamedBySymbol() {
        Graph g = twoSites("spawn_a (prog+0x10)", "thread:spawn_a");
        Machine m = machine(g);
        int afterA = m.target(m.target(m.start("main"), GETPPID), CLONE);
        assertEquals("thread:spawn_a", ThreadRoles.of(g, m).role(afterA));
    }

    /** A clone that may have been made at either of two sites names neither: its thread is unidentified. */
    @Test
    void aStateStandingForTwoCreatingSitesNamesNoRole() {
        Graph g = Graph.builder()
                .site(1, GETPPID, "getppid", "prog+0x1", false, "main")
                .site(2, CLONE, "clone", "prog+0x10", false)
                .site(3, CLONE, "clone", "prog+0x20", false)
                .site(4, 231, "exit_group", "prog+0x30", true)
                .site(5, 107, "geteuid", "prog+0x40", false, "thread:prog+0x10")
                .site(6, 60, "exit", "prog+0x50", true)
                .site(7, 108, "getegid", "prog+0x60", false, "thread:prog+0x20")
                .site(8, 60, "exit", "prog+0x70", true)
                .next(1, 2)
                .next(1, 3)
                .next(2, 4)
                .next(3, 4)
                .next(5, 6)
                .next(7, 8)
                .build();
        Machine m = machine(g);
        int after = m.target(m.target(m.start("main"), GETPPID), CLONE);
        assertNull(ThreadRoles.of(g, m).role(after));
        assertEquals(-1, KernelTables.of(g, m).childStarts()[after]);
    }

    /** pthread_create's threads: the recorder names their role by their first site, not a clone site. */
    @Test
    void aRoleNamedByItsFirstSiteHasNoCreator() {
        Graph g = twoSites("libc.so.6+0x99", "thread:prog+0x40");
        Machine m = machine(g);
        int afterA = m.target(m.target(m.start("main"), GETPPID), CLONE);
        assertNull(ThreadRoles.of(g, m).role(afterA));
    }
}
