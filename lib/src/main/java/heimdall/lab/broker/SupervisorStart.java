package heimdall.lab.broker;

import static heimdall.lab.Errno.EBUSY;
import static heimdall.lab.Errno.EINVAL;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.sys.Cpus;

/** Checks and resources common to both supervisors' start. */
final class SupervisorStart {
    private SupervisorStart() {}

    static void requireSupported() {
        String why = Supervisor.unsupportedReason();
        if (why != null) {
            throw new Refusal(why);
        }
    }

    static void requireListener(int listenerFd) {
        if (listenerFd < 0) {
            throw new BadInput("supervisor: listener fd " + listenerFd + " is not a descriptor");
        }
    }

    /** An O_PATH fd for in/, or -1 when none is configured; a refusal when it cannot be opened. */
    static int openInDir(SupervisorOptions options, boolean required) {
        if (options.inDir() == null) {
            if (required) {
                throw new BadInput("supervisor: the broker answer needs the job's in/ directory "
                        + "(SupervisorOptions.brokeringBeneath)");
            }
            return -1;
        }
        int fd =
                BrokerNative.hl_broker_open_dir(options.inDir().toAbsolutePath().toString());
        if (fd < 0) {
            throw new Refusal("cannot open in/ directory " + options.inDir() + ": " + Libc.describe(-fd));
        }
        return fd;
    }

    /** The broker's opt-ins of {@code policy}, as the native code reads them (HL_RULE_*). */
    static int rules(Policy policy) {
        return (policy.allowsDirectories() ? BrokerNative.RULE_DIRECTORIES : 0)
                | (policy.opensAsSupervisor() ? BrokerNative.RULE_AS_SUPERVISOR : 0)
                | (policy.allowsHardLinks() ? BrokerNative.RULE_HARD_LINKS : 0);
    }

    static Refusal startFailure(SupervisorOptions options, int errno) {
        if (errno == EINVAL && options.cpu() >= 0) {
            return new Refusal("cannot pin the supervisor to CPU " + options.cpu() + ": " + Libc.describe(errno)
                    + "; CPUs available: " + Cpus.allowed());
        }
        if (errno == EINVAL && options.cpuSet() != 0) {
            return new Refusal("cannot let the supervisor run on the CPU set 0x" + Long.toHexString(options.cpuSet())
                    + ": " + Libc.describe(errno) + "; CPUs available: " + Cpus.allowed());
        }
        if (errno == EBUSY) {
            return new Refusal("cannot start the native supervisor: its stop signal (real-time signal "
                    + BrokerNative.hl_sup_stop_signal() + ") already has a handler in this process that is not ours; "
                    + "SupervisorOptions.withPollWait(true) waits in poll() instead and needs no signal");
        }
        return new Refusal("cannot start the supervisor: " + Libc.describe(errno)
                + (options.syncWakeUp() ? " (synchronous wake-up needs Linux 6.6)" : ""));
    }
}
