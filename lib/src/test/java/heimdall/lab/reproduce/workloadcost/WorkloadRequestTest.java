package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.explore.Lab;
import org.junit.jupiter.api.Test;

/** {@code Lab.workload(...)}'s choices: a mechanism it does not know, or one it cannot run, is bad input. */
class WorkloadRequestTest {
    @Test
    void anUnknownMechanismIsNamedWithTheKnownOnes() {
        String m = assertThrows(BadInput.class, () -> Lab.workload("true").only("podman", "seccomp-magic"))
                .getMessage();
        // every mechanism named as a row names it (the list grows with the mechanisms)
        assertTrue(m.startsWith("workload: no mechanism 'seccomp-magic'; the mechanisms: [none, own-profile, "), m);
        assertTrue(m.contains("broker-continue native") && m.contains("broker-broker java"), m);
    }

    @Test
    void theProfileMechanismWithoutAProfileIsRefusedBeforeAnythingRuns() {
        String m = assertThrows(
                        BadInput.class,
                        () -> Lab.workload("true").only("profile").run())
                .getMessage();
        assertEquals("workload: mechanism 'profile' needs a profile (.profile(file))", m);
        assertThrows(BadInput.class, () -> Lab.workload("true").probeRuns(0));
    }
}
