/**
 * Landlock as a building block: a ruleset described in Java ({@link heimdall.lab.landlock.Landlock}, its
 * rights {@link heimdall.lab.landlock.LandlockRight}), checked against a kernel's ABI
 * ({@link heimdall.lab.landlock.LandlockPlan}: refused, or with best effort the missing rights dropped
 * with a warning, never silently widened), predicted per kernel version ({@link heimdall.lab.landlock.LandlockAbi}),
 * and encoded for the measured child, which opens the paths, builds the ruleset and restricts itself
 * ({@code native/include/hl_landlock.h}). The JVM never confines itself.
 *
 * <p>Uses: {@code heimdall.lab} and {@code sys}.
 */
package heimdall.lab.landlock;
