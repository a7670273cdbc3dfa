package heimdall.lab.child;

import java.time.Duration;

/**
 * A JVM for {@link ChildOutlivesNoJvmTest}: starts a child that waits forever in {@code pause()},
 * prints the child's pid, then ends as told: {@code exit} (System.exit once a line arrives on stdin,
 * so shutdown hooks run) or
 * {@code hang} (waits to be SIGKILLed, so only the parent-death signal can help).
 */
public final class OrphanProbe {
    static final int SYS_PAUSE = 34;

    public static void main(String[] args) throws Exception {
        // pause(2): only a signal ends it, so nothing this JVM holds (a listener, a socket) can.
        RunningChild child = MeasuredChild.start(ChildSpec.of(Call.syscall(SYS_PAUSE), 0, 1));
        if (!child.awaitPhase(Phase.MEASURE, Duration.ofSeconds(10))) {
            System.out.println("stuck " + child.phase());
            System.exit(3);
        }
        System.out.println("child " + child.pid());
        System.out.flush();
        if (args[0].equals("exit")) {
            System.in.read(); // the test looks at the child first, then lets us go
            System.exit(0);
        }
        Thread.sleep(60_000);
        System.exit(4);
    }
}
