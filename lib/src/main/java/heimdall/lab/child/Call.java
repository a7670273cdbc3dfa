package heimdall.lab.child;

import heimdall.lab.BadInput;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a measured child calls, again and again. The named calls are made with fixed, harmless
 * arguments; {@link #syscall} makes any call by number. The measured child makes each as a bare
 * {@code syscall} instruction (no libc wrapper), so the kinds differ only in what the kernel does;
 * the one exception, {@link #GETPID_SELFTEST}, is the kernel selftest's loop, made as it makes it.
 *
 * @param kind which call
 * @param nr its x86_64 system call number ({@code -1} for {@link Kind#NONE})
 * @param args the six arguments of a {@link Kind#SYSCALL}; empty otherwise
 * @param path the file of an {@link Kind#OPENAT} (and the other kinds that name a file,
 *     {@link Kind#namesFile()}), absolute; {@code null} otherwise
 * @param dir null: the child makes the file's own directory its working directory and names the last
 *     component (the call walks one component); else a directory {@code path} starts with, made the
 *     working directory, the call naming the rest of {@code path} as given (every component walked,
 *     {@code ..} and links included): {@link #openatFrom}, {@link #statFrom}
 */
public record Call(Kind kind, int nr, List<Long> args, Path path, Path dir) {

    /** The call kinds the runner knows; {@code code} is {@code enum hl_call} of heimdall_shm.h. */
    public enum Kind {
        /** Nothing between the clock reads: the timer's own cost ({@code ChildSpec.Mode.TIMER}). */
        NONE(0, -1, "nothing (timer)"),
        GETPPID(1, 110, "getppid"),
        GETTID(2, 186, "gettid"),
        GETPID(3, 39, "getpid"),
        SCHED_YIELD(4, 24, "sched_yield"),
        /** {@code prctl(PR_SET_NAME, "heimdall-bench")}. */
        PRCTL_SET_NAME(5, 157, "prctl(PR_SET_NAME)"),
        /** {@code mprotect(page, 4096, PROT_READ)} on a page of the child's own. */
        MPROTECT(6, 10, "mprotect(PROT_READ)"),
        /** {@code openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC)}; the close that follows is not timed. */
        OPENAT(7, 257, "openat(O_RDONLY|O_CLOEXEC)"),
        /** Any call by number with six given arguments. */
        SYSCALL(8, -1, "syscall"),
        /**
         * {@code seccomp(SECCOMP_SET_MODE_FILTER)} of the spec's last program, which is not installed
         * before the loop: every call adds one more filter to the child, so warm-up plus count is
         * bounded by the kernel's instruction budget ({@link AttachBudget}).
         */
        ATTACH(9, -1, "seccomp attach"),
        /** {@code fork}; the child exits at once; {@code wait4}: the baseline of {@link #FORK_ATTACH}. */
        FORK(10, -1, "fork+wait"),
        /** {@code fork}; the child attaches the spec's last program once and exits; {@code wait4}. */
        FORK_ATTACH(11, -1, "fork+attach+wait"),
        /**
         * {@code getpid} as the loop of the kernel's {@code seccomp_benchmark} makes it: glibc's
         * {@code syscall(__NR_getpid)} (an out-of-line libc function), its result compared with the
         * pid read before the programs went in; a different result ends the run ({@link Fate}).
         */
        GETPID_SELFTEST(12, 39, "getpid via glibc syscall(), pid compared"),
        /**
         * No call under test: one byte written into a pipe and one read back from another, answered by
         * a partner thread in this process ({@link RunningChild#startPartner}). The least a two-thread
         * round trip costs on the host, the reference for a supervisor's round trip; no seccomp.
         */
        PINGPONG(13, -1, "pipe ping-pong"),
        /**
         * {@link #PINGPONG}, then {@link #OPENAT}'s {@code openat} of the call's path (its close
         * untimed), timed together; no seccomp. Less the same {@code openat} alone, it is the host's
         * floor for a brokered {@code openat} answered {@code CONTINUE}, measured the way that row's
         * added cost is: a call made right after a round trip runs on caches the other side has used.
         */
        PINGPONG_OPENAT(14, -1, "pipe ping-pong, then openat(O_RDONLY|O_CLOEXEC)"),
        /** {@code newfstatat(AT_FDCWD, path, &st, 0)}: the path's attributes, nothing opened. */
        FSTATAT(15, 262, "newfstatat"),
        /**
         * {@code openat(AT_FDCWD, path, flags)} with the flags given ({@code args[0]}: {@code O_NONBLOCK} for
         * a FIFO, {@code O_DIRECTORY}); its close untimed. For asking what a policy decides, not for timing:
         * its loop has one placement.
         */
        OPENAT_FLAGS(16, 257, "openat(flags)");

        final int code;
        final int nr;
        final String label;

        Kind(int code, int nr, String label) {
            this.code = code;
            this.nr = nr;
            this.label = label;
        }

        /** The runner's code for this kind ({@code HL_CALL_*}). */
        public int code() {
            return code;
        }

        /** Whether each call attaches the spec's last program (which is then not installed before the loop). */
        /** Whether the call names a file ({@link Call#path()}). */
        public boolean namesFile() {
            return this == OPENAT || this == PINGPONG_OPENAT || this == FSTATAT || this == OPENAT_FLAGS;
        }

        public boolean attaches() {
            return this == ATTACH || this == FORK_ATTACH;
        }
    }

    public static final Call NONE = new Call(Kind.NONE, -1, List.of(), null);
    public static final Call GETPPID = named(Kind.GETPPID);
    public static final Call GETTID = named(Kind.GETTID);
    public static final Call GETPID = named(Kind.GETPID);
    public static final Call SCHED_YIELD = named(Kind.SCHED_YIELD);
    public static final Call PRCTL_SET_NAME = named(Kind.PRCTL_SET_NAME);
    public static final Call MPROTECT = named(Kind.MPROTECT);
    public static final Call ATTACH = named(Kind.ATTACH);
    public static final Call FORK = named(Kind.FORK);
    public static final Call FORK_ATTACH = named(Kind.FORK_ATTACH);
    /** {@link Kind#GETPID_SELFTEST}: the kernel selftest's loop. */
    public static final Call GETPID_SELFTEST = named(Kind.GETPID_SELFTEST);
    /** {@link Kind#PINGPONG}: the host's floor for a two-thread round trip. */
    public static final Call PINGPONG = named(Kind.PINGPONG);

    /** A call that names no file, or names it from the file's own directory. */
    public Call(Kind kind, int nr, List<Long> args, Path path) {
        this(kind, nr, args, path, null);
    }

    public Call {
        Objects.requireNonNull(kind, "kind");
        args = List.copyOf(args);
        if (kind == Kind.OPENAT_FLAGS) {
            if (nr != kind.nr || args.size() != 1) {
                throw new IllegalArgumentException("openat(flags) has number 257 and one argument, its flags");
            }
        } else if (kind == Kind.SYSCALL) {
            // -1 is what a tracer sets to skip a call; filters see it, so tests make it.
            if (nr < -1 || args.size() != 6) {
                throw new IllegalArgumentException("a syscall needs a number >= -1 and six arguments");
            }
        } else if (!args.isEmpty() || nr != kind.nr) {
            throw new IllegalArgumentException(kind + " takes no arguments and has number " + kind.nr);
        }
        if (kind.namesFile() != (path != null)) {
            throw new IllegalArgumentException("a path goes with a call that names a file, and only with it");
        }
        if (dir != null
                && (!dir.isAbsolute() || dir.getNameCount() == 0 || !path.startsWith(dir) || path.equals(dir))) {
            throw new IllegalArgumentException("the working directory " + dir + " must be absolute and start " + path);
        }
    }

    /**
     * {@code openat} of {@code name} as given ({@code "a/b/data.txt"}, {@code "../out/x"}), from {@code dir}
     * made the child's working directory: every component of {@code name} is walked by the call.
     */
    public static Call openatFrom(Path dir, String name) {
        return fromDir(Kind.OPENAT, List.of(), dir, name);
    }

    /** {@link Kind#FSTATAT} of {@code name} as given, from {@code dir} (as {@link #openatFrom}). */
    public static Call statFrom(Path dir, String name) {
        return fromDir(Kind.FSTATAT, List.of(), dir, name);
    }

    /** {@link Kind#OPENAT_FLAGS} of {@code name} as given, from {@code dir}, with {@code flags}. */
    public static Call openatFrom(Path dir, String name, int flags) {
        return fromDir(Kind.OPENAT_FLAGS, List.of((long) flags), dir, name);
    }

    private static Call fromDir(Kind kind, List<Long> args, Path dir, String name) {
        Path d = dir.toAbsolutePath();
        if (name.isEmpty() || name.startsWith("/")) {
            throw new IllegalArgumentException("a name relative to " + d + " is not empty and not absolute: " + name);
        }
        // Not Path.resolve: it would drop a trailing slash and fold nothing, but keep the name's bytes as given.
        return new Call(kind, kind.nr, args, Path.of(d.toString(), name), d);
    }

    /** The name the child passes to the call: the path after {@link #dir()}, or its last component. */
    public String nameGiven() {
        if (path == null) {
            return null;
        }
        // path is dir's text, a slash, then the name (Path.of folds nothing but repeated slashes)
        return dir != null
                ? path.toString().substring(dir.toString().length() + 1)
                : path.getFileName().toString();
    }

    private static Call named(Kind kind) {
        return new Call(kind, kind.nr, List.of(), null);
    }

    /** {@code openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC)}; a relative path resolves against the JVM's directory. */
    public static Call openat(Path path) {
        return new Call(Kind.OPENAT, Kind.OPENAT.nr, List.of(), path.toAbsolutePath());
    }

    /** {@link Kind#PINGPONG_OPENAT}: a pipe ping-pong, then {@code openat} of {@code path}, timed together. */
    public static Call pingPongThenOpenat(Path path) {
        return new Call(Kind.PINGPONG_OPENAT, Kind.PINGPONG_OPENAT.nr, List.of(), path.toAbsolutePath());
    }

    /** Whether the runner answers this call's bytes from a partner thread ({@link RunningChild#startPartner}). */
    public boolean pingsPartner() {
        return kind == Kind.PINGPONG || kind == Kind.PINGPONG_OPENAT;
    }

    /** Any call by number; missing arguments are 0, more than six are an error. */
    public static Call syscall(int nr, long... args) {
        if (args.length > 6) {
            throw new IllegalArgumentException("a system call takes at most six arguments, got " + args.length);
        }
        long[] six = Arrays.copyOf(args, 6);
        return new Call(Kind.SYSCALL, nr, Arrays.stream(six).boxed().collect(Collectors.toList()), null);
    }

    /**
     * A readable name: {@code getppid}, {@code openat(O_RDONLY|O_CLOEXEC) /etc/hostname}, {@code syscall 110(0, …)}.
     */
    public String label() {
        return switch (kind) {
            case OPENAT, PINGPONG_OPENAT, FSTATAT -> kind.label + " " + path;
            case OPENAT_FLAGS -> kind.label + " " + path + " flags 0x" + Long.toHexString(args.get(0));
            case SYSCALL ->
                "syscall " + nr + args.stream().map(String::valueOf).collect(Collectors.joining(", ", "(", ")"));
            default -> kind.label;
        };
    }

    /**
     * A call named on the command line: {@code getppid}, {@code gettid}, {@code getpid},
     * {@code sched_yield}, {@code prctl}, {@code mprotect}, {@code openat} (needs {@code path}),
     * or a number (a {@link #syscall} with zero arguments).
     */
    public static Call parse(String name, Path path) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "getppid":
                return GETPPID;
            case "gettid":
                return GETTID;
            case "getpid":
                return GETPID;
            case "sched_yield":
                return SCHED_YIELD;
            case "prctl":
            case "prctl_set_name":
                return PRCTL_SET_NAME;
            case "mprotect":
                return MPROTECT;
            case "openat":
                if (path == null) {
                    throw BadInput.at("command line", "--path", "openat needs a file to open");
                }
                return openat(path);
            default:
                try {
                    return syscall(Integer.parseInt(n));
                } catch (NumberFormatException e) {
                    throw BadInput.at(
                            "command line",
                            "--call",
                            "'" + name
                                    + "' is not one of getppid, gettid, getpid, sched_yield, prctl, mprotect, openat "
                                    + "or a number");
                }
        }
    }

    @Override
    public String toString() {
        return label();
    }
}
