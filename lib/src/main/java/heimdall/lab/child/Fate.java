package heimdall.lab.child;

import heimdall.lab.Errno;
import heimdall.lab.sys.Signals;

/** How a measured child ended: it exited with a code, or a signal killed it (SIGSYS: its floor). */
public sealed interface Fate permits Fate.Exited, Fate.Killed {

    /** One sentence, e.g. {@code "killed by SIGSYS (31) during warm-up of getppid"}. */
    String describe();

    /**
     * Whether the child did everything asked and exited 0. Status 0 alone is not enough: a measured
     * call such as {@code exit_group} (231) ends the runner with 0 in the middle of its loop, so the
     * runner must also have published {@link Phase#DONE}, which it does only after its last measured call.
     */
    default boolean ok() {
        return this instanceof Exited e && e.code() == 0 && e.phase() == Phase.DONE;
    }

    /**
     * The child exited by itself. A non-zero code is the runner giving up at {@code phase}
     * ({@code enum hl_exit}: 64 bad region, 65 parent gone, 66 pinning, 67 preparation,
     * 68 no_new_privs, 69 a program refused, 70 listener handover, 72 a measured attach or fork
     * failed or {@link Call.Kind#GETPID_SELFTEST} returned other than the pid, 73 the Landlock ruleset
     * refused (see {@link ChildResult#landlockStep()}), when
     * {@code ChildResult.samples()} holds the calls completed before it), with the errno of the failed step.
     */
    record Exited(int code, Phase phase, int program, int setupErrno) implements Fate {
        @Override
        public String describe() {
            if (code == 0) {
                return phase == Phase.DONE
                        ? "exited normally"
                        : "exited with 0 during " + phase.text() + ", before it finished measuring";
            }
            String why;
            switch (code) {
                case 64:
                    why = "the shared region was not valid";
                    break;
                case 65:
                    why = "its parent was gone";
                    break;
                case 66:
                    why = "it could not pin itself";
                    break;
                case 67:
                    why = "preparing the call failed";
                    break;
                case 68:
                    why = "setting no_new_privs failed";
                    break;
                case 69:
                    why = "the kernel refused program " + program;
                    break;
                case 70:
                    why = "the listener could not be handed over";
                    break;
                case 71:
                    why = "it was started without a shared region";
                    break;
                case 72:
                    why = "a measured attach or fork failed, or the selftest loop's getpid was not the pid";
                    break;
                case 73:
                    why = setupErrno == 95 /* EOPNOTSUPP */
                            ? "the Landlock ruleset was refused: the kernel has no Landlock, or lacks a right it "
                                    + "asks for (best effort was not asked for)"
                            : "the Landlock ruleset could not be built";
                    break;
                default:
                    why = "an unknown reason";
                    break;
            }
            return "exited with " + code + ": " + why + (setupErrno != 0 ? " (" + Errno.name(setupErrno) + ")" : "");
        }
    }

    /** A signal killed the child during {@code phase} (while installing {@code program} if that phase). */
    record Killed(int signal, Phase phase, int program, Call call, boolean coreDumped) implements Fate {
        @Override
        public String describe() {
            String during;
            switch (phase) {
                case WARMUP:
                case MEASURE:
                    during = phase.text() + " of " + call.label();
                    break;
                case INSTALL:
                    during = "installation of program " + program;
                    break;
                default:
                    during = phase.text();
                    break;
            }
            return "killed by " + Signals.name(signal) + " (" + signal + ") during " + during
                    + (coreDumped ? " (core dumped)" : "");
        }
    }
}
