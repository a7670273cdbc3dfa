package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.broker.SupervisorOptions;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.RunningChild;
import heimdall.lab.floor.Floor;
import heimdall.lab.sys.NativeLib;
import java.nio.file.Path;

/**
 * One measured child whose brokered calls a supervisor answers, as floor-cost runs them: the listener
 * handed over by {@code pidfd_getfd} (so the floor need allow only {@code close} after installing), the
 * supervisor on its own CPU opening beneath {@code in/}. Unlike floor-cost's, a call that fails is a
 * result here (a refused name), not a failed row.
 */
final class Brokered {
    private Brokered() {}

    /** Runs {@code spec} under {@code floor}'s listener program, answered by {@code kind} with {@code answer}. */
    static ChildResult run(
            ChildSpec spec, Floor floor, Supervisor.Kind kind, Answer answer, int supervisorCpu, Path in) {
        ChildSpec s = spec.withNewListener(ChildSpec.ListenerTransfer.PIDFD_GETFD, floor.listenerProgram());
        SupervisorOptions options = new SupervisorOptions(supervisorCpu, in, false);
        try (RunningChild child = MeasuredChild.start(s)) {
            // The child keeps its descriptor (closed with it); the supervisor owns a duplicate.
            int listener = Supervisor.duplicate(child.listenerFd());
            Supervisor supervisor;
            try {
                supervisor = Supervisor.start(kind, listener, options, answer);
            } catch (RuntimeException e) {
                NativeLib.hl_close(listener);
                throw e;
            }
            try (supervisor) {
                ChildResult r = child.await();
                supervisor.stop();
                return r;
            }
        }
    }
}
