package heimdall.lab.bpf;

import heimdall.lab.testing.Requires;

/**
 * The seccomp actions the kernel tests install, read from /proc/sys/kernel/seccomp/actions_avail.
 * Only the kernel is asked: if a runner then cannot install a filter, that is our bug and the test fails.
 */
final class NeedsKernelSeccomp {
    private NeedsKernelSeccomp() {}

    /** Skips loudly (fails under LAB_REQUIRE_KERNEL=1) unless the kernel offers the actions the tests use. */
    static void assume() {
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
    }
}
