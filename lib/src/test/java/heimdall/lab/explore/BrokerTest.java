package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Notification;
import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerTest {
    static void needsNotify() {
        Requires.seccomp("user_notif", "allow");
    }

    @Test
    void aJavaLambdaDeniesWithItsErrnoAndEveryCallReachesIt() {
        needsNotify();
        Leftovers left = Leftovers.now();
        RoundTrip rt = Lab.broker(n -> n.nr() == Notification.OPENAT ? Answer.error(13) : Answer.CONTINUE)
                .runs(2)
                .warmup(50)
                .calls(200)
                .roundTrip();
        assertEquals("-1 EACCES", rt.lastOutcome());
        assertEquals(2, rt.stats().size());
        for (SupervisorStats s : rt.stats()) {
            assertEquals(250, s.received());
            assertEquals(250, s.errored());
        }
        assertEquals("java", rt.supervisor());
        assertEquals(Lab.BROKER_FLOOR, rt.floor(), "the default floor, named");
        assertTrue(rt.toString().contains("\n  under           " + Lab.BROKER_FLOOR + "\n"), rt.toString());
        assertNull(rt.policyFailure());
        assertEquals(2, rt.decisions().rowCount());
        assertEquals(1, rt.table().rowCount());
        assertNotNull(rt.plot());
        left.assertNone(); // the scratch in/ folder went with the round trip
    }

    /** Which floor a round trip runs under is said before it runs: the broker filter alone, or the one given. */
    @Test
    void itSaysWhichFloorItRunsUnder() {
        Broker alone = Lab.broker(n -> Answer.BROKER);
        assertEquals(Lab.BROKER_FLOOR, alone.floorView().name());
        assertTrue(alone.toString().contains("under broker filter alone: a broker, not a sandbox"), alone.toString());
        FloorView stacked = Lab.fixtureFloor("abcdf").stacked("openat");
        Broker under = Lab.broker(Answer.CONTINUE).under(stacked);
        assertTrue(under.toString().endsWith("under " + stacked.name()), under.toString());
        // The broker filter alone: every open by name notifies, the opens without a name kill.
        FloorView f = Lab.brokerFloor();
        for (String call : heimdall.lab.floor.Floors.OPEN_BY_NAME) {
            assertEquals("NOTIFY", f.answer(call), call);
        }
        for (String call : heimdall.lab.floor.Floors.OPEN_WITHOUT_NAME) {
            assertEquals("KILL_PROCESS", f.answer(call), call);
        }
        assertEquals("ALLOW", f.answer("getppid"));
        // A static floor over it: the floor's denials stand, its allowed opens are brokered, the bypasses killed.
        FloorView abcdf = Lab.fixtureFloor("abcdf");
        FloorView sandbox = abcdf.overBrokerFloor();
        assertEquals(2, sandbox.programs());
        // the runner's openat, which abcdf allows (by its flags): brokered, so a round trip runs under it
        assertEquals(
                heimdall.lab.profile.Action.Kind.NOTIFY.base,
                sandbox.verdict(heimdall.lab.child.Call.openat(Path.of("/dev/null/x")))
                        .actionOnly());
        assertEquals("KILL_PROCESS", sandbox.answer("io_uring_setup"));
        assertEquals(abcdf.answer("reboot"), sandbox.answer("reboot"));
        assertTrue(
                Lab.broker(Answer.BROKER).under(sandbox).toString().endsWith("over the broker filter"),
                Lab.broker(Answer.BROKER).under(sandbox).toString());
    }

    /** A round trip under a static floor over the broker filter: the floor's openat brokered by the policy. */
    @Test
    void aRoundTripRunsUnderAStaticFloorOverTheBrokerFilter() {
        needsNotify();
        FloorView sandbox = Lab.fixtureFloor("abcdf").overBrokerFloor();
        RoundTrip rt = Lab.broker(n -> n.readPath() > 0 ? Answer.BROKER : Answer.error(1))
                .under(sandbox)
                .runs(1)
                .warmup(10)
                .calls(50)
                .roundTrip();
        assertTrue(Long.parseLong(rt.lastOutcome()) >= 0, "an injected descriptor: " + rt.lastOutcome());
        assertEquals(60, rt.stats().get(0).brokered());
        assertEquals(sandbox.name(), rt.floor());
    }

    @Test
    void aPolicyReadsThePathAndBrokersBeneathTheFolderGiven(@TempDir Path dir) throws Exception {
        needsNotify();
        Files.writeString(dir.resolve("ok.txt"), "hello");
        byte[] secret = "secret".getBytes(StandardCharsets.UTF_8);
        RoundTrip ok = Lab.broker(n -> n.readPath(1) > 0 && n.pathContains(secret) ? Answer.error(1) : Answer.BROKER)
                .beneath(dir)
                .open("ok.txt")
                .runs(1)
                .warmup(10)
                .calls(100)
                .roundTrip();
        assertTrue(Long.parseLong(ok.lastOutcome()) >= 0, "an injected descriptor: " + ok.lastOutcome());
        assertEquals(110, ok.stats().get(0).brokered());

        Files.writeString(dir.resolve("secret.txt"), "no");
        RoundTrip denied = Lab.broker(
                        n -> n.readPath(1) > 0 && n.pathContains(secret) ? Answer.error(1) : Answer.BROKER)
                .beneath(dir)
                .open("secret.txt")
                .runs(1)
                .warmup(10)
                .calls(100)
                .roundTrip();
        assertEquals("-1 EPERM", denied.lastOutcome());
        assertEquals(0, denied.stats().get(0).brokered());
    }

    @Test
    void theNativeSupervisorGivesAFixedAnswer() {
        needsNotify();
        RoundTrip rt = Lab.broker(Answer.value(7))
                .nativeSupervisor()
                .runs(1)
                .warmup(10)
                .calls(100)
                .roundTrip();
        assertEquals("native", rt.supervisor());
        assertEquals("7", rt.lastOutcome());
        assertEquals(110, rt.stats().get(0).valued());
    }

    @Test
    void aPlantedLinkAsTheFolderIsRefused(@TempDir Path dir) throws Exception {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        BadInput e =
                assertThrows(BadInput.class, () -> Lab.broker(Answer.BROKER).beneath(link));
        assertTrue(e.getMessage().startsWith("broker: beneath: "), e.getMessage());
    }

    @Test
    void badInputNamesTheField() {
        BadInput e = assertThrows(
                BadInput.class, () -> Lab.broker(n -> Answer.CONTINUE).nativeSupervisor());
        assertTrue(e.getMessage().startsWith("broker: supervisor: "), e.getMessage());
        int notAllowed = Cpus.allowed().get(Cpus.allowed().size() - 1) + 1;
        e = assertThrows(BadInput.class, () -> Lab.broker(Answer.CONTINUE).cpu(notAllowed));
        assertTrue(e.getMessage().startsWith("broker: cpu: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.broker(Answer.CONTINUE).supervisorCpu(notAllowed));
        assertTrue(e.getMessage().startsWith("broker: supervisorCpu: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.broker(Answer.CONTINUE).open("../etc/passwd"));
        assertTrue(e.getMessage().startsWith("broker: open: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.broker(Answer.CONTINUE).under(Lab.fixtureFloor("abcdf")));
        assertTrue(e.getMessage().startsWith("broker: under: "), e.getMessage());
        e = assertThrows(
                BadInput.class,
                () -> Lab.broker(Answer.CONTINUE)
                        .under(Lab.fixtureFloor("abcdf").threeAnswers("getppid")));
        assertTrue(
                e.getMessage().startsWith("broker: under: ") && e.getMessage().contains("openat is not notified"),
                e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.broker((heimdall.lab.broker.Policy) null));
        assertTrue(e.getMessage().startsWith("broker: policy: "), e.getMessage());
    }
}
