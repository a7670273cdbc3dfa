package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import heimdall.lab.profile.Action;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Skips a test loudly unless runners can install seccomp filters with the actions the tests use. */
final class NeedsKernelSeccomp {
    private static String why;

    private NeedsKernelSeccomp() {}

    static synchronized void assume() {
        if (why == null) {
            why = check();
        }
        if (!why.isEmpty()) {
            System.err.println("SKIPPED (needs seccomp filters in this kernel): " + why);
        }
        assumeTrue(why.isEmpty(), why);
    }

    private static String check() {
        String avail;
        try {
            avail = Files.readString(Path.of("/proc/sys/kernel/seccomp/actions_avail")).trim();
        } catch (IOException e) {
            return "cannot read /proc/sys/kernel/seccomp/actions_avail: " + e.getMessage();
        }
        List<String> have = Arrays.asList(avail.split("\\s+"));
        for (String a : List.of("kill_process", "errno", "allow", "user_notif")) {
            if (!have.contains(a)) {
                return "seccomp action " + a + " is not in actions_avail (" + avail + ")";
            }
        }
        try {
            Program allow = new Program(List.of(Insn.ret(Action.ALLOW.ret())));
            KernelOutcome o = KernelOutcome.of(List.of(allow), 110 /* getppid */, new long[6]);
            return o.kind() == KernelOutcome.Kind.RETURNED ? "" : "getppid under an allow-all filter: " + o;
        } catch (RuntimeException e) {
            return "a runner could not install an allow-all filter: " + e.getMessage();
        }
    }
}
