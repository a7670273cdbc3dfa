package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Policies, fixed error/value answers, stacked filters, pinning and the synchronous wake-up. */
class SupervisorOptionsTest {
    @TempDir
    Path tmp;

    private Job job() throws Exception {
        BrokerFixtures.assumeSupported();
        return Job.create(tmp);
    }

    @Test
    void aNotebookPolicySeesTheCallAndChoosesPerPath() throws Exception {
        Job job = job();
        byte[] deny = "deny".getBytes(StandardCharsets.UTF_8);
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Policy policy = call -> {
            if (call.nr() != Notification.OPENAT || call.arch() != Notification.ARCH_X86_64) {
                return Answer.error(38);
            }
            seen.add(call.path(1)); // allocates; fine in a test
            if (call.readPath(1) > 0 && call.pathContains(deny)) {
                return Answer.error(1);
            }
            if (call.pathEquals("fake".getBytes(StandardCharsets.UTF_8))) {
                return Answer.value(42);
            }
            return call.stillValid() ? Answer.BROKER : Answer.CONTINUE;
        };
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(child.takeListener(), job.options(), policy)) {
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            OpenResult denied = child.open("sub/deny-me");
            assertEquals(-1, denied.fd());
            assertEquals(1, denied.errno(), "EPERM from the policy");
            assertEquals(42, child.open("fake").fd(), "the value answer is the call's result");
            SupervisorStats s = sup.stop();
            assertEquals(List.of("hello.txt", "sub/deny-me", "fake"), seen);
            assertEquals(1, s.brokered());
            assertEquals(1, s.errored());
            assertEquals(1, s.valued());
        }
    }

    @Test
    void aThrowingPolicyAnswersEpermAndKeepsServing() throws Exception {
        Job job = job();
        try (NotifyChildFixture child = job.child()) {
            JavaSupervisor sup = (JavaSupervisor) Supervisor.start(child.takeListener(), job.options(), call -> {
                if (call.path(1).startsWith("boom")) {
                    throw new IllegalStateException("boom");
                }
                return Answer.BROKER;
            });
            try (sup) {
                assertEquals(1, child.open("boom").errno());
                assertEquals(Job.HELLO, child.open("hello.txt").text());
                assertEquals(1, sup.stop().failures());
                assertNotNull(sup.policyFailure());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void fixedErrorAndValueAnswers(Supervisor.Kind kind) throws Exception {
        Job job = job();
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.error(13))) {
            assertEquals(13, child.open("hello.txt").errno());
            assertEquals(1, sup.stop().errored());
        }
        try (NotifyChildFixture child = job.child();
                Supervisor sup =
                        Supervisor.start(kind, child.takeListener(), SupervisorOptions.defaults(), Answer.value(7))) {
            assertEquals(7, child.open("hello.txt").fd());
            assertEquals(1, sup.stop().valued());
        }
    }

    /** A listener from the first or from the second of two installed programs is supervised alike. */
    @ParameterizedTest
    @CsvSource({"NATIVE,before", "NATIVE,after", "JAVA,before", "JAVA,after"})
    void stackedFloorListenerFromEitherProgram(Supervisor.Kind kind, String extra) throws Exception {
        Job job = job();
        try (NotifyChildFixture child = NotifyChildFixture.start(
                        NotifyChildFixture.Options.in(job.cwd()).stacked(extra));
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            assertEquals(13, child.open("../outside/secret.txt").errno());
            assertEquals(1, sup.stop().brokered());
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void pinnedSupervisorReportsItsCpuAndAnImpossibleCpuIsRefused(Supervisor.Kind kind) throws Exception {
        Job job = job();
        int cpu = heimdall.lab.sys.Cpus.allowed()
                .get(heimdall.lab.sys.Cpus.allowed().size() - 1);
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(
                        kind, child.takeListener(), job.options().onCpu(cpu), Answer.BROKER)) {
            assertEquals(cpu, sup.stats().cpu());
            assertEquals(Job.HELLO, child.open("hello.txt").text());
        }
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            Refusal r = assertThrows(
                    Refusal.class,
                    () -> Supervisor.start(kind, listener, job.options().onCpu(1000), Answer.BROKER));
            assertTrue(r.getMessage().contains("CPU 1000"), r.getMessage());
            // The listener stays the caller's after a failed start: it can still be supervised.
            try (Supervisor sup = Supervisor.start(kind, listener, job.options(), Answer.BROKER)) {
                assertEquals(Job.HELLO, child.open("hello.txt").text());
            }
        }
    }

    /** A supervisor free on a set of CPUs serves calls, reports no one CPU; a set of absent CPUs is refused. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aSupervisorOnACpuSetServesCallsAndASetOfNoCpuIsRefused(Supervisor.Kind kind) throws Exception {
        Job job = job();
        long all = 0;
        for (int c : heimdall.lab.sys.Cpus.allowed()) {
            all |= 1L << c;
        }
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(
                        kind, child.takeListener(), job.options().onCpuSet(all), Answer.BROKER)) {
            assertEquals(-1, sup.stats().cpu(), "free on a set: no one CPU");
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            assertEquals(1, sup.stop().brokered());
        }
        // A CPU this process may not run on (the kernel refuses a set of only such CPUs with EINVAL).
        int absent = java.util.stream.IntStream.range(0, 64)
                .filter(c -> !heimdall.lab.sys.Cpus.allowed().contains(c))
                .findFirst()
                .orElseThrow();
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            Refusal r = assertThrows(
                    Refusal.class,
                    () -> Supervisor.start(kind, listener, job.options().onCpuSet(1L << absent), Answer.BROKER));
            assertTrue(r.getMessage().contains("CPU set 0x" + Long.toHexString(1L << absent)), r.getMessage());
            try (Supervisor sup = Supervisor.start(kind, listener, job.options(), Answer.BROKER)) {
                assertEquals(Job.HELLO, child.open("hello.txt").text());
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new SupervisorOptions(0, 1L, null, false));
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void synchronousWakeUpServesCalls(Supervisor.Kind kind) throws Exception {
        Job job = job();
        // The kernel fact decides the skip; on a kernel that has the flag, a refusal is our failure.
        BrokerFixtures.assumeKernelAtLeast(BrokerFixtures.SYNC_WAKE_UP_KERNEL, "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP");
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(
                        kind, child.takeListener(), job.options().withSyncWakeUp(true), Answer.BROKER)) {
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            assertEquals(1, sup.stop().brokered());
        }
    }

    @Test
    void readGiveUpIsSecondsByDefaultAndBounded() {
        SupervisorOptions d = SupervisorOptions.defaults();
        assertEquals(Duration.ofSeconds(10), d.readGiveUp());
        // Every with* keeps it.
        SupervisorOptions two = d.withReadGiveUp(Duration.ofSeconds(2));
        assertEquals(
                Duration.ofSeconds(2),
                two.onCpu(0).withSyncWakeUp(true).withPollWait(true).readGiveUp());
        assertEquals(
                Duration.ofSeconds(2), two.onCpuSet(1L).brokeringBeneath(null).readGiveUp());
        // Shorter than a lock hold under load, longer than a test can wait, or none: refused, naming the bounds.
        for (Duration bad : new Duration[] {null, Duration.ZERO, Duration.ofMillis(99), Duration.ofMinutes(11)}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> d.withReadGiveUp(bad), String.valueOf(bad));
            assertTrue(e.getMessage().contains("between 100 ms and 10 minutes"), e.getMessage());
        }
    }

    @Test
    void brokerAnswerWithoutInDirIsBadInput() throws Exception {
        Job job = job();
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            assertThrows(
                    BadInput.class,
                    () -> Supervisor.start(
                            Supervisor.Kind.NATIVE, listener, SupervisorOptions.defaults(), Answer.BROKER));
            BrokerNative.hl_close(listener);
        }
    }

    @Test
    void answersParseAndShareInstances() {
        assertSame(Answer.CONTINUE, Answer.parse("continue", "x"));
        assertSame(Answer.BROKER, Answer.parse("BROKER", "x"));
        assertSame(Answer.error(13), Answer.parse("error:13", "x"));
        assertSame(Answer.value(0), Answer.value(0));
        assertEquals("value:99999", Answer.parse("value:99999", "x").label());
        BadInput e = assertThrows(BadInput.class, () -> Answer.parse("allow", "--answer"));
        assertTrue(e.getMessage().startsWith("--answer: 'allow'"), e.getMessage());
        assertThrows(BadInput.class, () -> Answer.parse("error:0", "--answer"));
    }
}
