package heimdall.lab.sys;

import java.util.ArrayList;
import java.util.List;

/**
 * Commands the JVM starts with {@link ProcessBuilder} (mvn, JMH's JVM, python, addr2line) made to die
 * with it: {@link #command} puts the native {@code heimdall-die-with PID} in front, which sets
 * {@code PR_SET_PDEATHSIG(SIGKILL)}, checks the JVM is still its parent, and execs the command. A JVM
 * killed outright (SIGKILL, the OOM killer) runs no shutdown hook; the kernel's death signal is then
 * the only thing that ends its children.
 *
 * <p>The signal follows the thread that started the process, not the whole JVM: start it from the
 * thread that waits for it (as {@code Process#waitFor} on the same thread does), never from a
 * short-lived worker. The native runners need none of this: {@code native/lib/run.c} spawns them from
 * one thread that lives as long as the process, and they set the signal themselves.
 */
public final class DieWithJvm {
    private DieWithJvm() {}

    /** {@code heimdall-die-with <our pid> command...}: the same command, ended when this JVM ends. */
    public static List<String> command(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command");
        }
        List<String> argv = new ArrayList<>(command.size() + 2);
        argv.add(NativeLib.file("heimdall-die-with").toString());
        argv.add(String.valueOf(ProcessHandle.current().pid()));
        argv.addAll(command);
        return argv;
    }

    /** {@link #command(List)} of these words. */
    public static List<String> command(String... command) {
        return command(List.of(command));
    }
}
