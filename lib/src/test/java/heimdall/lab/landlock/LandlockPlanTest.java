package heimdall.lab.landlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fail-closed rule against given ABI numbers: a right the ABI lacks refuses the ruleset unless best effort. */
class LandlockPlanTest {
    private static final Path IN = Path.of("/srv/job/in");

    @Test
    void everyAbiFromSevenDownToFiveTakesTheDefaultRulesetWhole() {
        for (int abi = 5; abi <= 7; abi++) {
            LandlockPlan p = Landlock.create().readBeneath(IN).plan(abi);
            assertEquals(Landlock.DEFAULT_HANDLED, p.installed(), "ABI " + abi);
            assertTrue(p.dropped().isEmpty() && p.warnings().isEmpty(), "ABI " + abi);
        }
    }

    @Test
    void aKernelLackingAHandledRightRefusesTheRulesetNamingEachRightAndItsAbi() {
        Refusal e = assertThrows(
                Refusal.class, () -> Landlock.create().readBeneath(IN).plan(2));
        assertTrue(e.getMessage().contains("LANDLOCK_ACCESS_FS_TRUNCATE (ABI 3)"), e.getMessage());
        assertTrue(e.getMessage().contains("LANDLOCK_ACCESS_FS_IOCTL_DEV (ABI 5)"), e.getMessage());
        assertTrue(e.getMessage().contains("ABI 2"), e.getMessage());
        // one right short is enough
        assertThrows(Refusal.class, () -> Landlock.create().readBeneath(IN).plan(4));
        // scopes are refused below 6, the TCP rights below 4
        assertThrows(
                Refusal.class,
                () -> Landlock.create().handlingFsUpToAbi(5).scopeSignals().plan(5));
        assertThrows(
                Refusal.class,
                () -> Landlock.create().handlingFsUpToAbi(3).denyTcp().plan(3));
    }

    @Test
    void bestEffortDropsOnlyWhatTheAbiLacksAndSaysSoForEachRight() {
        LandlockPlan p = Landlock.create().readBeneath(IN).withBestEffort().plan(2);
        assertEquals(Set.of(LandlockRight.TRUNCATE, LandlockRight.IOCTL_DEV), p.dropped());
        assertEquals(2, p.warnings().size());
        assertTrue(p.warnings().get(0).contains("NOT confined"), p.warnings().toString());
        assertTrue(
                p.installed().contains(LandlockRight.READ_FILE) && p.installed().contains(LandlockRight.REFER));
        assertFalse(p.installed().contains(LandlockRight.TRUNCATE));
        assertTrue(p.enforced());
    }

    @Test
    void noLandlockAtAllIsRefusedAndBestEffortThereRunsUnconfinedSayingSo() {
        Refusal e = assertThrows(
                Refusal.class, () -> Landlock.create().readBeneath(IN).plan(0));
        assertTrue(e.getMessage().contains("no Landlock"), e.getMessage());
        LandlockPlan p = Landlock.create().readBeneath(IN).withBestEffort().plan(0);
        assertFalse(p.enforced());
        assertTrue(p.warnings().get(0).contains("UNCONFINED"), p.warnings().toString());
    }

    @Test
    void aRulesetHandlingOnlyWhatAnOldAbiKnowsRunsThereWhole() {
        Landlock two = Landlock.create().handlingFsUpToAbi(2).readBeneath(IN);
        LandlockPlan p = two.plan(2);
        assertTrue(p.dropped().isEmpty());
        assertEquals(14, p.installed().size()); // the 13 rights of ABI 1 and REFER
        assertThrows(Refusal.class, () -> Landlock.create().handlingFsUpToAbi(2).plan(1)); // REFER needs 2
    }

    @Test
    void aRuleCannotAllowWhatTheRulesetDoesNotHandleNorANetworkRight() {
        assertThrows(
                BadInput.class, () -> Landlock.create().handlingFsUpToAbi(2).truncateBeneath(IN));
        assertThrows(BadInput.class, () -> Landlock.create().denyTcp().allowBeneath(IN, LandlockRight.BIND_TCP));
        assertThrows(BadInput.class, () -> Landlock.create().allowBeneath(IN));
        assertThrows(
                BadInput.class,
                () -> Landlock.create().allowBeneath(Path.of("/" + "d/".repeat(2100)), LandlockRight.READ_FILE));
    }

    @Test
    void theAbiOfAKernelVersionIsPredictedFromTheReleasesThatBroughtEach() {
        assertEquals(Optional.of(0), LandlockAbi.predicted("5.10.0-30-amd64"));
        assertEquals(Optional.of(0), LandlockAbi.predicted("5.12.19"));
        assertEquals(Optional.of(1), LandlockAbi.predicted("5.13"));
        assertEquals(Optional.of(1), LandlockAbi.predicted("5.15.0-101-generic"));
        assertEquals(Optional.of(2), LandlockAbi.predicted("6.1.0-18-amd64"));
        assertEquals(Optional.of(3), LandlockAbi.predicted("6.6.30"));
        assertEquals(Optional.of(4), LandlockAbi.predicted("6.7.1"));
        assertEquals(Optional.of(5), LandlockAbi.predicted("6.10.3"));
        assertEquals(Optional.of(6), LandlockAbi.predicted("6.12.9"));
        assertEquals(Optional.of(7), LandlockAbi.predicted("6.18.44-fc-v1272"));
        assertEquals(Optional.empty(), LandlockAbi.predicted("unknown"));
    }

    @Test
    void theDescriptionCarriesMagicFlagsMasksAndPaddedPaths() {
        byte[] b =
                Landlock.create().readBeneath(Path.of("/in")).withBestEffort().encode();
        assertEquals(40 + 16 + 8, b.length); // "/in" + NUL padded to 8
        java.nio.ByteBuffer w = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(Landlock.MAGIC, w.getInt(0));
        assertEquals(1, w.getInt(4));
        assertEquals((1L << 16) - 1, w.getLong(8)); // every fs right up to IOCTL_DEV
        assertEquals(0, w.getLong(16));
        assertEquals(0, w.getLong(24));
        assertEquals(1, w.getInt(32));
        assertEquals(LandlockRight.READ_FILE.value() | LandlockRight.READ_DIR.value(), w.getLong(40));
        assertEquals(4, w.getInt(48));
    }
}
