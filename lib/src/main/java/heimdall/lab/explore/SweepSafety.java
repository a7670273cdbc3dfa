package heimdall.lab.explore;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which calls a sweep makes, tens of thousands of times, as root, in a child under the floor: only
 * those known to be harmless with the arguments it makes them with. Fails closed: a call not listed
 * here is refused with the reason of its kind, never made on a guess.
 *
 * <p>With every argument 0 a pointer is NULL (the call fails with EFAULT before acting), a descriptor
 * is the child's stdin (shared with this JVM: so nothing that moves, advises or drives it) and a count is 0. The calls
 * listed read the process's or the host's state, or
 * fail on those arguments before doing anything; none blocks, creates a descriptor, process or
 * object, ends or re-targets the child, or changes a file or the host.
 */
final class SweepSafety {
    private SweepSafety() {}

    /** Harmless with every argument 0. */
    static final Set<String> ZERO_ARGS = Set.of(
            // the process's own identity and state
            "getpid",
            "getppid",
            "gettid",
            "getuid",
            "geteuid",
            "getgid",
            "getegid",
            "getpgrp",
            "getpgid",
            "getsid",
            "getresuid",
            "getresgid",
            "getgroups",
            "getpriority",
            "getrlimit",
            "prlimit64",
            "getrusage",
            "getcpu",
            "getcwd",
            "getitimer",
            "capget",
            "sched_yield",
            "sched_getaffinity",
            "sched_getparam",
            "sched_getscheduler",
            "sched_get_priority_max",
            "sched_get_priority_min",
            "sched_rr_get_interval",
            "sched_getattr",
            "rt_sigprocmask",
            "rt_sigpending",
            "rt_sigaction",
            "sigaltstack",
            "alarm",
            "brk",
            "umask",
            "set_tid_address",
            "membarrier",
            "personality",
            // clocks and the host's facts (NULL buffers: EFAULT, or nothing written)
            "gettimeofday",
            "time",
            "clock_gettime",
            "clock_getres",
            "times",
            "sysinfo",
            "uname",
            "getrandom",
            // memory calls on an empty range
            "mincore",
            "madvise",
            "mprotect",
            "msync",
            "munmap",
            "mlock",
            "munlock",
            "mlock2",
            // a NULL path: EFAULT before any lookup
            "stat",
            "lstat",
            "newfstatat",
            "statx",
            "statfs",
            "access",
            "faccessat",
            "faccessat2",
            "readlink",
            "readlinkat",
            "getxattr",
            "lgetxattr",
            "listxattr",
            "llistxattr",
            // questions about the child's stdin (a descriptor it shares with this JVM: nothing that moves,
            // advises or drives it), or a zero count
            "fstat",
            "fstatfs",
            "fgetxattr",
            "flistxattr",
            "getdents",
            "getdents64",
            "flock",
            "dup2",
            "dup3",
            // invalid on zeros: EINVAL before acting
            "kill",
            "tkill",
            "tgkill",
            "sched_setaffinity",
            "sched_setparam",
            "sched_setscheduler",
            "sched_setattr",
            "epoll_ctl",
            "epoll_wait",
            "epoll_pwait",
            "poll",
            "io_getevents",
            "io_destroy",
            "io_submit",
            "io_cancel",
            "nanosleep",
            "clock_nanosleep",
            "rt_sigsuspend");

    /** Calls harmless with the arguments a rule reaches, by what those must be. */
    static final Map<String, Predicate<long[]>> WITH_ARGS = Map.of(
            // the persona only: 0, PER_LINUX32, UNAME26, 0xffffffff (query)
            "personality", a -> a[1] == 0 && a[2] == 0 && a[3] == 0 && a[4] == 0 && a[5] == 0,
            // AF_UNSPEC fails with EAFNOSUPPORT whatever the type and protocol
            "socket", a -> a[0] == 0);

    /** Kinds of call the sweep does not make, and why. */
    private static final Map<String, String> KINDS = Map.ofEntries(
            Map.entry("exit", "ends the child"),
            Map.entry("exit_group", "ends the child"),
            Map.entry("rt_sigreturn", "restores a frame the child never saved: kills it"),
            Map.entry("fork", "creates a process each call"),
            Map.entry("vfork", "creates a process each call"),
            Map.entry("clone", "creates a process each call"),
            Map.entry("clone3", "creates a process each call"),
            Map.entry("execve", "replaces the child"),
            Map.entry("execveat", "replaces the child"),
            Map.entry("pause", "blocks until a signal"),
            Map.entry("select", "blocks without a timeout"),
            Map.entry("pselect6", "blocks without a timeout"),
            Map.entry("ppoll", "blocks without a timeout"),
            Map.entry("futex", "may block"),
            Map.entry("wait4", "waits for a child"),
            Map.entry("waitid", "waits for a child"),
            Map.entry("read", "reads the child's stdin"),
            Map.entry("close", "closes the child's descriptors"),
            Map.entry("close_range", "closes the child's descriptors"),
            Map.entry("seccomp", "would install a filter or strict mode in the child"),
            Map.entry("ptrace", "would make the child traced"),
            Map.entry("setsid", "moves the child out of its session"),
            Map.entry("setpgid", "moves the child out of its group"),
            Map.entry("vhangup", "hangs up the terminal"),
            Map.entry("sync", "flushes every file system"),
            Map.entry("syncfs", "flushes a file system"),
            Map.entry("sethostname", "changes the host"),
            Map.entry("setdomainname", "changes the host"),
            Map.entry("lseek", "moves the offset of the stdin the child shares with this JVM"),
            Map.entry("ioctl", "drives the stdin the child shares with this JVM (whatever device it is)"),
            Map.entry("fadvise64", "changes how the stdin the child shares with this JVM is read ahead"),
            Map.entry("readahead", "reads ahead the stdin the child shares with this JVM"),
            Map.entry("reboot", "acts on the host"),
            Map.entry("kexec_load", "acts on the host"),
            Map.entry("acct", "acts on the host"));

    /** Why the sweep does not make {@code c}, or empty when it does. */
    static Optional<String> refusal(SweepCase c) {
        if (WITH_ARGS.containsKey(c.call())) {
            return WITH_ARGS.get(c.call()).test(c.args())
                    ? Optional.empty()
                    : Optional.of("not made with these arguments (known harmless only for others)");
        }
        if (ZERO_ARGS.contains(c.call())) {
            return c.zeroArgs()
                    ? Optional.empty()
                    : Optional.of("known harmless with zero arguments only, and its rules need others");
        }
        String kind = KINDS.get(c.call());
        return Optional.of(
                kind != null
                        ? "not made: " + kind
                        : "not made: not on the sweep's list of calls harmless as root with zero arguments (it may "
                                + "create, "
                                + "change, block or end something)");
    }
}
