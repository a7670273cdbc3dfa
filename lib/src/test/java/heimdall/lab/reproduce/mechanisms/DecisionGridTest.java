package heimdall.lab.reproduce.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Landlock's {@code readBeneath(in/)} and the broker decide alike on the grid's names except where the grid
 * says they differ, and each difference is the one explained: asked of the real kernel, one fresh child a
 * name and policy.
 */
class DecisionGridTest {
    @TempDir
    Path tmp;

    @Test
    void bothPoliciesAnswerEveryNameAsTheGridExplainsAndTheDifferencesAreTheExplainedOnes() {
        Requires.landlock();
        Requires.seccomp("user_notif", "allow", "kill_process");
        boolean root = Mechanisms.root();
        Path in = DecisionGrid.make(tmp, root);
        List<DecisionGrid.Outcome> got =
                DecisionGrid.decide(in, Mechanisms.brokerFloor(), Cpus.measuring(), Cpus.supervisor(), root, null);
        String table = got.stream()
                .map(o -> o.name() + ": " + o.landlock() + " / " + o.brokerNative() + " / " + o.brokerJava())
                .collect(Collectors.joining("\n"));
        for (DecisionGrid.Outcome o : got) {
            assertTrue(o.expected(), "answered otherwise than the grid explains:\n" + table);
        }
        List<DecisionGrid.Case> asked =
                DecisionGrid.CASES.stream().filter(c -> root || !c.needsRoot()).toList();
        assertEquals(asked.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(asked.get(i).equal(), got.get(i).equal(), got.get(i).name());
        }
        // the differences the issue asks about are among them, each with its reason
        List<String> differ = got.stream()
                .filter(o -> !o.equal())
                .map(DecisionGrid.Outcome::name)
                .toList();
        assertTrue(differ.containsAll(List.of("hard-out", "twice.txt", "../in/data.txt", "fifo")), differ.toString());
        // a file outside is refused by both, with Landlock's own errno
        DecisionGrid.Outcome outside = got.get(1);
        assertEquals("../out/secret.txt", outside.name());
        assertEquals("refuse (EACCES)", outside.landlock());
        assertFalse(outside.brokerNative().equals("admit"));
    }

    @Test
    void aKernelThatRefusesTheRulesetIsSaidInEveryLandlockAnswerAndTheBrokerStillAnswers() {
        Requires.seccomp("user_notif", "allow", "kill_process");
        Path in = DecisionGrid.make(tmp, false);
        List<DecisionGrid.Outcome> got = DecisionGrid.decide(
                in, Mechanisms.brokerFloor(), Cpus.measuring(), Cpus.supervisor(), false, "refused: ABI 0");
        assertTrue(got.stream().allMatch(o -> o.landlock().equals("not run: refused: ABI 0")));
        assertEquals("admit", got.get(0).brokerNative());
    }
}
