package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The program a differential test installs <em>before</em> the program under test, so that no call
 * the test makes as root can do harm: it allows only a short list of calls that touch nothing but
 * the calling runner (with arguments that make them no-ops where they could write memory or block),
 * and answers everything else ERRNO with an errno no kernel call returns ({@link #NOT_LISTED},
 * {@link #HARMFUL_ARGS}, {@link #FOREIGN}). The kernel keeps the most restrictive answer of all
 * filters and, on a tie, the newest filter's, so a program on top that answers ERRNO itself still
 * shows its own errno, one that kills still kills, and one that allows a call the guard refuses shows
 * the guard's errno: the stack's verdict is always observable, and {@link Stack#evaluate} of
 * {@code [guard, program]} predicts it exactly.
 *
 * <p>Written instruction by instruction here (not through {@link Compiler}, which is under test): a
 * linear dispatch on the number, then per listed call the argument conditions.
 *
 * <p>The {@linkplain #opaque() opaque} variant allows only what the runner itself needs after
 * installing (seccomp to install the next program, exit and exit_group); under it no call under test
 * runs, so it tells "the program let the call through" (the guard's errno) from "the program answered
 * ERRNO e" even when the call, run, would itself fail with e.
 */
final class SafetyGuard {
    /** The call is not on the allow list. */
    static final int NOT_LISTED = 4001;
    /** The call is on the list but its arguments are not ones that make it harmless. */
    static final int HARMFUL_ARGS = 4002;
    /** Another architecture or an x32 number. */
    static final int FOREIGN = 4003;

    /** {@code args[index]} must be one of {@code values} (64-bit). */
    record Cond(int index, long... values) {
        boolean holds(long[] args) {
            return Arrays.stream(values).anyMatch(v -> v == args[index]);
        }
    }

    /** One listed call: allowed when every condition holds. */
    record Entry(String name, int nr, List<Cond> conds) {
        boolean allows(long[] args) {
            return conds.stream().allMatch(c -> c.holds(args));
        }
    }

    private static Cond zero(int index) {
        return new Cond(index, 0);
    }

    private static Cond in(int index, long... values) {
        return new Cond(index, values);
    }

    /**
     * Calls whose effect stays inside the calling runner, with any arguments: reads of its own ids and
     * settings, yielding, creating or closing its own descriptors, its own personality and umask,
     * ending itself.
     */
    private static final List<String> ANY_ARGS = List.of(
            "getpid",
            "getppid",
            "gettid",
            "getuid",
            "getgid",
            "geteuid",
            "getegid",
            "getpgrp",
            "getsid",
            "getpgid",
            "sched_yield",
            "getpriority",
            "sched_getscheduler",
            "sched_get_priority_max",
            "sched_get_priority_min",
            "personality",
            "umask",
            "socket",
            "close",
            "dup",
            "epoll_create1",
            "eventfd2",
            "pkey_alloc",
            "epoll_ctl",
            "exit",
            "exit_group");

    /**
     * Calls that write memory, block or change mappings, made harmless by arguments (a null pointer, a zero length).
     */
    private static final Map<String, List<Cond>> WITH_ARGS = new LinkedHashMap<>();

    static {
        WITH_ARGS.put("read", List.of(zero(2)));
        WITH_ARGS.put("write", List.of(in(0, 0, 1, 2), zero(2))); // not the runner's socket: no empty datagram
        WITH_ARGS.put("pread64", List.of(zero(2)));
        WITH_ARGS.put("fstat", List.of(zero(1)));
        WITH_ARGS.put("mmap", List.of(zero(1)));
        WITH_ARGS.put("mprotect", List.of(zero(1)));
        WITH_ARGS.put("munmap", List.of(zero(1)));
        WITH_ARGS.put("pkey_mprotect", List.of(zero(1)));
        WITH_ARGS.put("madvise", List.of(zero(1)));
        WITH_ARGS.put("brk", List.of(zero(0)));
        WITH_ARGS.put("rt_sigaction", List.of(zero(1), zero(2)));
        WITH_ARGS.put("rt_sigprocmask", List.of(zero(1), zero(2)));
        WITH_ARGS.put("open", List.of(zero(0)));
        WITH_ARGS.put("openat", List.of(zero(1)));
        WITH_ARGS.put("access", List.of(zero(0)));
        WITH_ARGS.put("newfstatat", List.of(zero(1), zero(2))); // AT_EMPTY_PATH takes a null path since 6.11
        WITH_ARGS.put("statx", List.of(zero(1), zero(4)));
        WITH_ARGS.put("readlink", List.of(zero(0)));
        WITH_ARGS.put("getcwd", List.of(zero(0)));
        WITH_ARGS.put("uname", List.of(zero(0)));
        WITH_ARGS.put("sysinfo", List.of(zero(0)));
        WITH_ARGS.put("capget", List.of(zero(0), zero(1)));
        WITH_ARGS.put("getrandom", List.of(zero(1)));
        // PR_GET_DUMPABLE, PR_SET_NAME / PR_GET_NAME with a null name, PR_GET_SECCOMP, PR_GET_NO_NEW_PRIVS
        WITH_ARGS.put("prctl", List.of(in(0, 3, 15, 16, 21, 39), zero(1)));
        // 0 (invalid), ARCH_GET_FS, ARCH_GET_GS with a null pointer: never ARCH_SET_FS, which would break TLS
        WITH_ARGS.put("arch_prctl", List.of(in(0, 0, 0x1003, 0x1004), zero(1)));
        WITH_ARGS.put("prlimit64", List.of(zero(2), zero(3)));
        WITH_ARGS.put("getrlimit", List.of(zero(1)));
        WITH_ARGS.put("set_robust_list", List.of(zero(0)));
        WITH_ARGS.put("set_tid_address", List.of(zero(0)));
        WITH_ARGS.put("rseq", List.of(zero(0)));
        WITH_ARGS.put("futex", List.of(zero(0)));
        WITH_ARGS.put("sched_getaffinity", List.of(zero(2)));
        WITH_ARGS.put("fcntl", List.of(in(1, 0 /* F_DUPFD */, 1 /* F_GETFD */, 3 /* F_GETFL */)));
        WITH_ARGS.put("epoll_wait", List.of(zero(2)));
        WITH_ARGS.put("epoll_pwait", List.of(zero(2)));
        WITH_ARGS.put("pipe2", List.of(zero(0)));
        WITH_ARGS.put("clock_gettime", List.of(zero(1)));
        WITH_ARGS.put("gettimeofday", List.of(zero(0), zero(1)));
        WITH_ARGS.put("time", List.of(zero(0)));
        WITH_ARGS.put("nanosleep", List.of(zero(0)));
        WITH_ARGS.put("alarm", List.of(zero(0)));
        WITH_ARGS.put("getgroups", List.of(zero(1)));
        // what the runner needs to install the next program: SECCOMP_SET_MODE_FILTER, no flags
        WITH_ARGS.put("seccomp", List.of(in(0, 1), zero(1)));
    }

    /** Never on the list, whatever the arguments (checked by the guard's own test). */
    static final List<String> DANGEROUS = List.of(
            "reboot",
            "kexec_load",
            "kexec_file_load",
            "init_module",
            "finit_module",
            "delete_module",
            "swapon",
            "swapoff",
            "mount",
            "umount2",
            "pivot_root",
            "chroot",
            "sethostname",
            "setdomainname",
            "settimeofday",
            "clock_settime",
            "adjtimex",
            "clock_adjtime",
            "kill",
            "tkill",
            "tgkill",
            "pidfd_send_signal",
            "rt_sigqueueinfo",
            "fork",
            "vfork",
            "clone",
            "clone3",
            "execve",
            "execveat",
            "ptrace",
            "process_vm_writev",
            "unlink",
            "unlinkat",
            "rename",
            "renameat",
            "renameat2",
            "rmdir",
            "mkdir",
            "mknod",
            "mknodat",
            "truncate",
            "ftruncate",
            "chmod",
            "fchmodat",
            "chown",
            "fchownat",
            "link",
            "symlink",
            "iopl",
            "ioperm",
            "bpf",
            "perf_event_open",
            "setuid",
            "setgid",
            "setns",
            "unshare",
            "acct",
            "quotactl",
            "keyctl",
            "add_key",
            "request_key",
            "move_mount",
            "fsmount",
            "fsconfig",
            "open_tree",
            "sync",
            "syncfs",
            "io_uring_setup",
            "userfaultfd",
            "ioctl",
            "connect",
            "sendto",
            "sendmsg",
            "bind",
            "listen",
            "rt_sigreturn",
            "setpriority",
            "sched_setaffinity",
            "sched_setscheduler",
            "mlockall",
            "shmget",
            "msgget",
            "semget",
            "fallocate",
            "fanotify_init",
            "name_to_handle_at",
            "open_by_handle_at",
            "vhangup",
            "lookup_dcookie",
            "syslog",
            "_sysctl");

    private final List<Entry> entries;
    private final Program program;

    private SafetyGuard(List<Entry> entries) {
        this.entries = List.copyOf(entries);
        this.program = assemble(this.entries);
    }

    private static final SafetyGuard HARMLESS = new SafetyGuard(entries(SyscallTable.x86_64(), true));
    private static final SafetyGuard OPAQUE = new SafetyGuard(entries(SyscallTable.x86_64(), false));

    /** The guard that lets harmless calls run. */
    static SafetyGuard harmless() {
        return HARMLESS;
    }

    /** The guard under which no call under test runs (only the runner's own install and exit). */
    static SafetyGuard opaque() {
        return OPAQUE;
    }

    Program program() {
        return program;
    }

    List<Entry> entries() {
        return entries;
    }

    /** Whether {@code nr} is on the list (allowed for some arguments). */
    boolean lists(int nr) {
        return entries.stream().anyMatch(e -> e.nr() == nr);
    }

    /** The guard's answer, computed from the list directly (the reference its program is checked against). */
    int answer(SeccompData d) {
        if (d.arch() != Profile.AUDIT_ARCH_X86_64 || Integer.compareUnsigned(d.nr(), Profile.X32_SYSCALL_BIT) >= 0) {
            return Action.errno(FOREIGN).ret();
        }
        for (Entry e : entries) {
            if (e.nr() == d.nr()) {
                return e.allows(d.args())
                        ? Action.ALLOW.ret()
                        : Action.errno(HARMFUL_ARGS).ret();
            }
        }
        return Action.errno(NOT_LISTED).ret();
    }

    private static List<Entry> entries(SyscallTable table, boolean harmless) {
        List<Entry> out = new ArrayList<>();
        if (harmless) {
            for (String n : ANY_ARGS) {
                out.add(new Entry(n, nr(table, n), List.of()));
            }
            WITH_ARGS.forEach((n, conds) -> out.add(new Entry(n, nr(table, n), conds)));
        } else {
            out.add(new Entry("seccomp", nr(table, "seccomp"), WITH_ARGS.get("seccomp")));
            out.add(new Entry("exit", nr(table, "exit"), List.of()));
            out.add(new Entry("exit_group", nr(table, "exit_group"), List.of()));
        }
        return out;
    }

    private static int nr(SyscallTable table, String name) {
        return table.number(name).orElseThrow(() -> new IllegalStateException("no " + name + " in " + table.source()));
    }

    private static Program assemble(List<Entry> entries) {
        Assembler a = new Assembler();
        Assembler.Label foreign = a.label();
        Assembler.Label allow = a.label();
        Assembler.Label harmful = a.label();
        Assembler.Label archOk = a.label();
        a.emit(Insn.ldAbs(SeccompData.OFF_ARCH));
        a.cond(JEQ, Profile.AUDIT_ARCH_X86_64, archOk, foreign);
        a.place(archOk);
        a.emit(Insn.ldAbs(SeccompData.OFF_NR));
        Assembler.Label dispatch = a.label();
        a.cond(JGE, Profile.X32_SYSCALL_BIT, foreign, dispatch);
        a.place(dispatch);
        List<Assembler.Label> blocks = new ArrayList<>();
        for (Entry e : entries) {
            Assembler.Label block = e.conds().isEmpty() ? allow : a.label();
            blocks.add(block);
            Assembler.Label next = a.label();
            a.cond(JEQ, e.nr(), block, next);
            a.place(next);
        }
        a.emit(Insn.ret(Action.errno(NOT_LISTED).ret()));
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.conds().isEmpty()) {
                continue;
            }
            a.place(blocks.get(i));
            for (Cond c : e.conds()) {
                Assembler.Label holds = a.label();
                for (int v = 0; v < c.values().length; v++) {
                    long value = c.values()[v];
                    Assembler.Label hiOk = a.label();
                    Assembler.Label nextValue = a.label();
                    a.emit(Insn.ldAbs(SeccompData.OFF_ARGS + 8 * c.index() + 4));
                    a.cond(JEQ, (int) (value >>> 32), hiOk, nextValue);
                    a.place(hiOk);
                    a.emit(Insn.ldAbs(SeccompData.OFF_ARGS + 8 * c.index()));
                    a.cond(JEQ, (int) value, holds, nextValue);
                    a.place(nextValue);
                }
                a.jump(harmful);
                a.place(holds);
            }
            a.jump(allow);
        }
        // The shared answers last: BPF jumps only forward.
        a.place(foreign);
        a.emit(Insn.ret(Action.errno(FOREIGN).ret()));
        a.place(allow);
        a.emit(Insn.ret(Action.ALLOW.ret()));
        a.place(harmful);
        a.emit(Insn.ret(Action.errno(HARMFUL_ARGS).ret()));
        return Program.of(a.assemble(), "safety guard");
    }
}
