package heimdall.lab.reproduce.kernelmatrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.landlock.Landlock;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.KernelMatrixRow.Section;
import heimdall.lab.results.RowStatus;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kernel-matrix's Landlock rows: refused with the reason where the ABI lacks a handled right (5.10: none; 6.1:
 * ABI 2), rights dropped with a warning under best effort, and a child that ran what the plan refused, or
 * opened what the plan confines, fails the row (a ruleset silently widened never passes).
 */
class KernelMatrixLandlockTest {
    private static final KernelMatrixRow.Kernel ON = new KernelMatrixRow.Kernel("debian:x", "5.10.0-46-amd64", true);
    private static final Landlock STRICT = Landlock.create().readBeneath(Path.of("/job/in"));
    private static final Landlock BEST = STRICT.withBestEffort();

    private static final KernelMatrixLandlock.Seen CHILD_REFUSED =
            new KernelMatrixLandlock.Seen(true, -1, -1, "exited with 73 at step 'asking the kernel's ABI'");
    private static final KernelMatrixLandlock.Seen CONFINED = new KernelMatrixLandlock.Seen(false, 0, 13, "completed");
    private static final KernelMatrixLandlock.Seen OPEN = new KernelMatrixLandlock.Seen(false, 0, 0, "completed");

    @Test
    void withoutLandlockTheStrictRulesetIsRefusedSayingWhyAndBestEffortRunsUnconfinedSayingSo() {
        KernelMatrixRow strict = KernelMatrixLandlock.judge(ON, "strict", STRICT, 0, 0, CHILD_REFUSED);
        assertEquals(RowStatus.REFUSED, strict.outcome());
        assertEquals(Section.LANDLOCK, strict.section());
        assertTrue(
                strict.reason().contains("no Landlock") && strict.reason().contains("the child refused it too"),
                strict.reason());
        assertEquals("refused", strict.prediction().observed());
        assertEquals(Boolean.TRUE, strict.prediction().agrees());
        KernelMatrixRow best = KernelMatrixLandlock.judge(ON, "best", BEST, 0, 0, OPEN);
        assertEquals(RowStatus.OK, best.outcome());
        assertTrue(best.note().contains("UNCONFINED"), best.note());
        assertEquals("unconfined", best.prediction().observed());
    }

    @Test
    void onAbiTwoTheStrictRulesetIsRefusedNamingTheRightsAndBestEffortDropsThemWithAWarningEach() {
        KernelMatrixRow strict = KernelMatrixLandlock.judge(ON, "strict", STRICT, 2, 2, CHILD_REFUSED);
        assertEquals(RowStatus.REFUSED, strict.outcome());
        assertTrue(
                strict.reason().contains("LANDLOCK_ACCESS_FS_TRUNCATE (ABI 3)")
                        && strict.reason().contains("LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5)"),
                strict.reason());
        KernelMatrixRow best = KernelMatrixLandlock.judge(ON, "best", BEST, 2, 2, CONFINED);
        assertEquals(RowStatus.OK, best.outcome());
        assertNull(best.reason());
        assertTrue(
                best.note().contains("LANDLOCK_ACCESS_FS_TRUNCATE dropped")
                        && best.note().contains("LANDLOCK_ACCESS_FS_IOCTL_DEV dropped"),
                best.note());
        assertEquals(
                "confined, 2 rights dropped (ABI 2 predicted from the version)",
                best.prediction().predicted());
    }

    @Test
    void aChildThatRunsWhatThePlanRefusesOrOpensWhatItConfinesFailsTheRow() {
        KernelMatrixRow widened = KernelMatrixLandlock.judge(ON, "strict", STRICT, 2, 2, CONFINED);
        assertEquals(RowStatus.FAILED, widened.outcome());
        assertTrue(widened.reason().contains("but the child ran it"), widened.reason());
        KernelMatrixRow leaky = KernelMatrixLandlock.judge(ON, "strict", STRICT, 6, 6, OPEN);
        assertEquals(RowStatus.FAILED, leaky.outcome());
        assertTrue(leaky.reason().contains("NOT confined"), leaky.reason());
        KernelMatrixRow refusedAnyway = KernelMatrixLandlock.judge(ON, "strict", STRICT, 6, 6, CHILD_REFUSED);
        assertEquals(RowStatus.FAILED, refusedAnyway.outcome());
        // a version that predicts otherwise than the kernel answers: the observation holds, the difference said
        KernelMatrixRow backported = KernelMatrixLandlock.judge(ON, "strict", STRICT, 6, 2, CONFINED);
        assertEquals(RowStatus.OK, backported.outcome());
        assertEquals(Boolean.FALSE, backported.prediction().agrees());
    }

    @Test
    void onThisKernelBothRowsAreWhatItsAbiSaysAsRealChildrenSawIt() {
        Requires.landlock();
        int abi = Landlock.kernelAbi();
        List<KernelMatrixRow> rows = KernelMatrixLandlock.rows(ON);
        assertEquals(2, rows.size());
        KernelMatrixRow strict = rows.get(0);
        KernelMatrixRow best = rows.get(1);
        assertEquals(abi >= 5 ? RowStatus.OK : RowStatus.REFUSED, strict.outcome(), strict.reason());
        assertEquals(abi >= 5 ? "confined" : "refused", strict.prediction().observed(), strict.note());
        assertEquals(RowStatus.OK, best.outcome(), best.reason());
        assertEquals("confined", best.prediction().observed(), best.note());
        assertTrue(best.note().contains("on ABI " + abi), best.note());
    }
}
