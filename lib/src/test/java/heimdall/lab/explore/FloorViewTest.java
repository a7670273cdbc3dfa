package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

class FloorViewTest {
    static final Path PODMAN = Path.of("/usr/share/containers/seccomp.json");

    @Test
    void podmansProfileAsBrought() {
        Requires.file(PODMAN, "Debian package golang-github-containers-common");
        FloorView f = Lab.floor(PODMAN);
        assertEquals("seccomp.json", f.name());
        assertEquals(1, f.programs());
        assertTrue(f.length() > 50, "Podman's profile compiles to a real program: " + f.length());
        assertTrue(f.insnsPerCall("getppid") > 0);
        assertTrue(f.cacheable("getppid"), "getppid is allowed with no argument rule: the cache answers it");
        assertEquals(
                "ALLOW",
                f.answer("getppid")
                        .toUpperCase(java.util.Locale.ROOT)
                        .replace("SCMP_ACT_", "")
                        .split("[ (]")[0]);
        Table cache = f.cachePrediction();
        assertEquals(f.cacheableCount(), cache.booleanColumn("cacheable").countTrue());
        assertEquals(1, f.table().rowCount());
        assertEquals(3, f.calls("getppid", "openat", "reboot").rowCount());
        assertTrue(f.disassembly().lines().count() >= f.length());
        assertEquals(
                2,
                f.plot("getppid", "openat")
                        .getSeriesMap()
                        .get("insns")
                        .getXData()
                        .size());
    }

    @Test
    void floorBuiltInCodeAndItsBrokerVariants() {
        Profile p = Profile.builder(Action.KILL_PROCESS)
                .rule(Action.ALLOW, "getppid", "openat", "close")
                .build();
        FloorView f = Lab.floor("tiny", p);
        assertFalse(f.brokered());
        FloorView three = f.threeAnswers("openat");
        assertTrue(three.brokered());
        assertTrue(three.answer("openat").toUpperCase(java.util.Locale.ROOT).contains("NOTIF"), three.answer("openat"));
        assertEquals(2, f.stacked("openat").programs());
        // The emulator: a denied call runs instructions too, and the KILL default is the answer.
        assertFalse(f.answer("reboot").toUpperCase(java.util.Locale.ROOT).contains("ALLOW"));
    }

    @Test
    void aProfileThatDoesNotParseNamesTheFileAndWhere(@TempDir Path dir) throws Exception {
        Path broken = Files.writeString(
                dir.resolve("broken.json"), "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [");
        BadInput e = assertThrows(BadInput.class, () -> Lab.floor(broken));
        assertTrue(
                e.getMessage().startsWith(broken.toString()) && e.getMessage().contains("JSON"), e.getMessage());

        Path badField = Files.writeString(
                dir.resolve("field.json"), "{\"defaultAction\": \"SCMP_ACT_NOPE\", \"syscalls\": []}");
        e = assertThrows(BadInput.class, () -> Lab.floor(badField));
        assertTrue(
                e.getMessage().contains(badField.toString()) && e.getMessage().contains("defaultAction"),
                e.getMessage());

        Path unknownCall = Files.writeString(
                dir.resolve("call.json"),
                "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"getppid\"], \"action\": 7}]}");
        e = assertThrows(BadInput.class, () -> Lab.floor(unknownCall));
        assertTrue(
                e.getMessage().contains(unknownCall.toString())
                        && e.getMessage().contains("action"),
                e.getMessage());

        e = assertThrows(BadInput.class, () -> Lab.floor(dir.resolve("absent.json")));
        assertTrue(e.getMessage().contains("absent.json"), e.getMessage());
    }

    @Test
    void badCallsAndBrokeredNamesAreNamed() {
        FloorView f = Lab.fixtureFloor("abcdf");
        BadInput e = assertThrows(BadInput.class, () -> f.insnsPerCall("no_such_call"));
        assertTrue(e.getMessage().contains(": call: ") && e.getMessage().contains("no_such_call"), e.getMessage());
        e = assertThrows(BadInput.class, () -> f.threeAnswers("no_such_call"));
        assertTrue(e.getMessage().contains(": brokered: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> f.threeAnswers("reboot")); // not allowed by abcdf: nothing to broker
        assertTrue(e.getMessage().contains(": brokered: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.fixtureFloor("../etc"));
        assertTrue(e.getMessage().contains("fixture floor: name: "), e.getMessage());
    }
}
