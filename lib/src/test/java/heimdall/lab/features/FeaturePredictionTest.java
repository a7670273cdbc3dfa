package heimdall.lab.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a kernel's version predicts, at the releases where each feature arrived or changed. */
class FeaturePredictionTest {
    private static KernelVersion v(String release) {
        return KernelVersion.parse(release, "test");
    }

    @Test
    void releasesParseAsUnameWritesThem() {
        assertEquals(new KernelVersion(6, 1, 0), v("6.1.0-50-amd64"));
        assertEquals(new KernelVersion(5, 10, 0), v("5.10.0-30-amd64"));
        assertEquals(new KernelVersion(6, 18, 44), v("6.18.44-fc-v669"));
        assertEquals(new KernelVersion(6, 12, 0), v("6.12"));
        assertTrue(v("5.16.0").compareTo(v("5.15.99")) > 0);
        assertTrue(v("5.11.0").atLeast(5, 11));
        assertFalse(v("5.10.250").atLeast(5, 11));
    }

    @Test
    void aReleaseThatIsNoVersionIsBadInputNamingTheField() {
        for (String bad : new String[] {"linux", "", "6", "6.x.1", "-6.1", "6.1.0\n5.10", "99999.1"}) {
            BadInput e = assertThrows(BadInput.class, () -> KernelVersion.parse(bad, "kernel_release"), bad);
            assertTrue(e.getMessage().contains("kernel_release"), e.getMessage());
        }
        assertThrows(BadInput.class, () -> KernelVersion.parse(null, "kernel_release"));
    }

    @Test
    void debianKernelsArePredictedByTheReleaseEachFeatureArrivedIn() {
        KernelVersion bullseye = v("5.10.0-30-amd64");
        KernelVersion bookworm = v("6.1.0-50-amd64");
        KernelVersion trixie = v("6.12.38+deb13-amd64");
        assertEquals("no", Feature.ACTION_CACHE.predict(bullseye));
        assertEquals("yes", Feature.ACTION_CACHE.predict(bookworm));
        assertEquals("no", Feature.ADDFD_SEND.predict(bullseye));
        assertEquals("yes", Feature.ADDFD_SEND.predict(bookworm));
        assertEquals("no", Feature.SYNC_WAKE_UP.predict(bookworm));
        assertEquals("yes", Feature.SYNC_WAKE_UP.predict(trixie));
        assertEquals("no", Feature.TASK_STORAGE_TRACING.predict(bullseye));
        assertEquals("yes", Feature.TASK_STORAGE_TRACING.predict(bookworm));
        assertEquals("yes", Feature.BPF_TRAMPOLINES.predict(bullseye));
        assertEquals(Feature.FORCED, Feature.SSB_STIBP_FORCED.predict(bullseye));
        assertEquals(Feature.NOT_FORCED, Feature.SSB_STIBP_FORCED.predict(bookworm));
        // Landlock: none on 5.10 (it came with 5.13), ABI 2 on 6.1 (5.19), ABI 6 on 6.12
        assertEquals("0", Feature.LANDLOCK_ABI.predict(bullseye));
        assertEquals("2", Feature.LANDLOCK_ABI.predict(bookworm));
        assertEquals("6", Feature.LANDLOCK_ABI.predict(trixie));
        assertEquals("7", Feature.LANDLOCK_ABI.predict(v("6.18.44-fc-v1272")));
    }

    @Test
    void eachBoundaryIsItsRelease() {
        assertEquals("no", Feature.ACTION_CACHE.predict(v("5.10.999")));
        assertEquals("yes", Feature.ACTION_CACHE.predict(v("5.11.0")));
        assertEquals("no", Feature.ADDFD_SEND.predict(v("5.13.19")));
        assertEquals("yes", Feature.ADDFD_SEND.predict(v("5.14.0")));
        assertEquals(Feature.FORCED, Feature.SSB_STIBP_FORCED.predict(v("5.15.180")));
        assertEquals(Feature.NOT_FORCED, Feature.SSB_STIBP_FORCED.predict(v("5.16.0")));
        assertEquals("no", Feature.SYNC_WAKE_UP.predict(v("6.5.13")));
        assertEquals("yes", Feature.SYNC_WAKE_UP.predict(v("6.6.0")));
        assertEquals("no", Feature.BPF_TRAMPOLINES.predict(v("5.4.0")));
        assertEquals("yes", Feature.BPF_TRAMPOLINES.predict(v("5.5.0")));
    }

    @Test
    void actionsAvailGainsUserNotifIn5Point0() {
        assertEquals(String.join(" ", Feature.ACTIONS_5_0), Feature.ACTIONS_AVAIL.predict(v("5.0.0")));
        assertEquals("kill_process kill_thread trap errno trace log allow", Feature.ACTIONS_AVAIL.predict(v("4.19.0")));
        assertEquals("", Feature.ACTIONS_AVAIL.predict(v("4.9.0")));
    }

    @Test
    void anObservationThatDiffersHoldsAndIsSaid() {
        FeatureRecord differs = FeatureRecord.of(Feature.BPF_TRAMPOLINES, v("6.18.0"), "no", "fentry refused");
        assertEquals("yes", differs.predicted());
        assertEquals("no", differs.observed());
        assertEquals(Boolean.FALSE, differs.agrees());
        assertTrue(
                differs.note().contains("the observation holds")
                        && differs.note().contains("fentry refused"),
                differs.note());
        FeatureRecord unseen = FeatureRecord.of(Feature.ACTION_CACHE, v("6.1.0"), null, "not observable");
        assertNull(unseen.agrees());
        assertEquals("yes", unseen.predicted());
        FeatureRecord same = FeatureRecord.of(Feature.ADDFD_SEND, v("5.10.0"), "no", "EINVAL");
        assertEquals(Boolean.TRUE, same.agrees());
        assertEquals("EINVAL", same.note());
        assertEquals(8, List.of(Feature.values()).size()); // the seven seccomp and BPF features, and Landlock's ABI
    }
}
