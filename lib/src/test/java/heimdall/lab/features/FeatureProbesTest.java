package heimdall.lab.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.follower.HookProbe;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The features observed on this machine's kernel, each checked against the kernel's own facts read here. */
class FeatureProbesTest {
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void observedFeaturesAreTheKernelsFacts() throws Exception {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.btf(),
                KernelFacts.seccompActions("user_notif"),
                KernelFacts.kernelAtLeast(5, 0));
        List<String> progress = new ArrayList<>();
        Map<String, FeatureRecord> by = new LinkedHashMap<>();
        FeatureProbes.observeAll(progress::add).forEach(f -> by.put(f.feature(), f));
        assertEquals(Feature.values().length, by.size());
        assertEquals(Feature.values().length, progress.size(), progress.toString());
        KernelVersion v = KernelVersion.running();
        for (Feature f : Feature.values()) {
            FeatureRecord r = by.get(f.label());
            assertNotNull(r, f.label());
            assertEquals(f.predict(v), r.predicted(), f.label());
            assertEquals(r.observed() == null ? null : r.predicted().equals(r.observed()), r.agrees(), f.label());
        }
        // actions_avail is the file's own text
        assertEquals(
                Files.readString(KernelFacts.ACTIONS_AVAIL).strip(),
                by.get(Feature.ACTIONS_AVAIL.label()).observed());
        // a broker probe on a kernel with the features answers yes; the version says which kernel has them
        assertEquals(
                v.atLeast(5, 14) ? "yes" : "no",
                by.get(Feature.ADDFD_SEND.label()).observed());
        assertEquals(
                v.atLeast(6, 6) ? "yes" : "no",
                by.get(Feature.SYNC_WAKE_UP.label()).observed());
        // trampolines: the follower's own probe, asked again, gives the same answer
        FeatureRecord tramp = by.get(Feature.BPF_TRAMPOLINES.label());
        boolean usable = HookProbe.probe(HookProbe.Point.FENTRY_TRIVIAL).usable();
        assertEquals(usable ? "yes" : "no", tramp.observed());
        if (!usable) {
            assertTrue(
                    tramp.note().contains("the observation holds")
                                    && tramp.note().contains("EPERM")
                            || !v.atLeast(5, 5),
                    tramp.note());
        }
        // the action cache: observable only with /proc/PID/seccomp_cache, which this JVM's own entry shows too
        FeatureRecord cache = by.get(Feature.ACTION_CACHE.label());
        if (!Files.exists(Path.of("/proc/self/seccomp_cache"))) {
            assertEquals(null, cache.observed(), cache.toString());
            assertTrue(cache.note().contains("CONFIG_SECCOMP_CACHE_DEBUG"), cache.note());
        }
        // task storage: the follower's tracepoint hook keeps its cursors there, so where it loads the probe says yes
        FeatureRecord storage = by.get(Feature.TASK_STORAGE_TRACING.label());
        if (Files.isExecutable(Path.of("/usr/sbin/bpftool"))) {
            assertEquals(v.atLeast(5, 11) ? "yes" : "no", storage.observed(), storage.note());
        }
        // SSB/STIBP: from 5.16 a filter forces nothing unless the command line asks for it
        FeatureRecord spec = by.get(Feature.SSB_STIBP_FORCED.label());
        String cmdline = Files.readString(Path.of("/proc/cmdline"));
        if (v.atLeast(5, 16) && !cmdline.contains("=seccomp") && spec.observed() != null) {
            assertEquals(Feature.NOT_FORCED, spec.observed(), spec.note());
        }
        assertTrue(spec.note().contains("Speculation_Store_Bypass"), spec.note());
    }
}
