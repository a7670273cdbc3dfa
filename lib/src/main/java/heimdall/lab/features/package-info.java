/**
 * What the running kernel can do, each {@link heimdall.lab.features.Feature} observed by asking the kernel
 * ({@link heimdall.lab.features.FeatureProbes}, recorded as {@link heimdall.lab.features.FeatureRecord}) rather
 * than guessed from its version ({@link heimdall.lab.features.KernelVersion}); the kernel matrix reports them.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code child}, {@code floor}, {@code profile}, {@code fixtures},
 * {@code broker}, {@code follower} (their own probes are reused) and {@code landlock} (the ABI it predicts).
 */
package heimdall.lab.features;
