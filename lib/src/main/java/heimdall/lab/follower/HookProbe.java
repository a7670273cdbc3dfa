package heimdall.lab.follower;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Asks the running kernel, one trivial program at a time ({@code native/follower/hookprobe.bpf.c}),
 * which attach points the follower could use: does the program load, does it attach, with which
 * errno and verifier log. This is the evidence behind design (b)'s refusal: the facts are read from
 * the kernel on each run, never assumed. Needs root; each probe program is detached and freed before
 * the next is loaded.
 */
public final class HookProbe {
    /** An attach point probed, in {@code hf_probe_hook}'s order. */
    public enum Point {
        FENTRY_SECURE_COMPUTING("fentry/__secure_computing", true),
        FEXIT_SECURE_COMPUTING("fexit/__secure_computing", true),
        FENTRY_TRIVIAL("fentry/bpf_fentry_test1", false),
        LSM_FILE_OPEN("lsm/file_open", false),
        TP_BTF_SYS_ENTER("tp_btf/sys_enter", false),
        RAW_TP_SYS_ENTER("raw_tp/sys_enter", false);

        private final String section;
        private final boolean onlyFilteredTasks;

        Point(String section, boolean onlyFilteredTasks) {
            this.section = section;
            this.onlyFilteredTasks = onlyFilteredTasks;
        }

        /** The program's section as libbpf names it. */
        public String section() {
            return section;
        }

        /** Whether only tasks with a seccomp filter reach it (what design b needs). */
        public boolean onlyFilteredTasks() {
            return onlyFilteredTasks;
        }
    }

    /**
     * What the kernel answered for one point.
     *
     * @param loadErrno 0 when the program loaded, else BPF_PROG_LOAD's errno
     * @param attachErrno 0 when it attached, its errno, or -1 when no attach was tried
     * @param verifierLog the verifier's log (empty when the kernel refused before verifying)
     */
    public record Result(Point point, int loadErrno, int attachErrno, String verifierLog) {
        public boolean usable() {
            return loadErrno == 0 && attachErrno == 0;
        }

        /** The failing step and errno, e.g. {@code "load refused: EPERM, verifier log empty"}. */
        public String outcome() {
            if (loadErrno != 0) {
                return "load refused: " + errno(loadErrno)
                        + (verifierLog.isBlank()
                                ? ", verifier log empty (refused before verification)"
                                : ", verifier log: " + firstLines(verifierLog));
            }
            if (attachErrno != 0) {
                return "loaded, attach refused: " + errno(attachErrno);
            }
            return "loads and attaches";
        }

        @Override
        public String toString() {
            return point.section() + ": " + outcome();
        }
    }

    private HookProbe() {}

    /** Probes one point. */
    public static Result probe(Point p) {
        Follower.checkHost();
        FollowerNative.load();
        int[] out = new int[3];
        byte[] log = new byte[1 << 16];
        int rc = FollowerNative.hf_probe_hook(p.ordinal(), out, log, log.length);
        if (rc != 0) {
            throw new IllegalStateException("hf_probe_hook(" + p + ") returned " + rc);
        }
        int n = 0;
        while (n < log.length && log[n] != 0) {
            n++;
        }
        return new Result(p, out[0], out[1], new String(log, 0, n, StandardCharsets.UTF_8));
    }

    /** Probes every point, in order. */
    public static List<Result> probeAll() {
        List<Result> out = new ArrayList<>();
        for (Point p : Point.values()) {
            out.add(probe(p));
        }
        return out;
    }

    /**
     * The refusal text for design (b) on this kernel, from a fresh probe: each point's outcome, and
     * why no point reached only by filtered tasks is usable.
     */
    static String whyNoSeccompOnlyHook() {
        List<Result> all = probeAll();
        boolean anyUsable = all.stream().anyMatch(r -> r.point().onlyFilteredTasks() && r.usable());
        StringBuilder b = new StringBuilder(
                anyUsable
                        ? "a trivial program does attach at a point only seccomp-filtered tasks reach, so it is the "
                                + "follower's own "
                                + "program that was refused (above); the kernel's answers ("
                                + System.getProperty("os.version") + "):"
                        : "no hook reached only by seccomp-filtered tasks can be attached on this kernel ("
                                + System.getProperty("os.version") + "):");
        for (Result r : all) {
            b.append("\n  ").append(r);
        }
        boolean trampolinesRefused = all.stream()
                .filter(r -> r.point().section().startsWith("f")
                        || r.point().section().startsWith("lsm/"))
                .allMatch(r -> r.loadErrno() != 0);
        if (trampolinesRefused) {
            b.append("\nfentry, fexit and lsm programs all run through BPF trampolines, and the kernel refuses every "
                    + "one of "
                    + "them at BPF_PROG_LOAD, the trivial bpf_fentry_test1 too: trampolines as such are "
                    + "refused, not "
                    + "__secure_computing.");
        }
        if (!anyUsable) {
            b.append("\nNo LSM hook is reached only by filtered tasks, and the seccomp path has no tracepoint; the "
                    + "syscall-entry tracepoint (--hook syscall-tracepoint) is reached by every task.");
        }
        return b.toString();
    }

    private static String firstLines(String log) {
        String[] lines = log.strip().split("\n");
        int from = Math.max(0, lines.length - 3);
        return String.join(" / ", Arrays.copyOfRange(lines, from, lines.length));
    }

    static String errno(int e) {
        return switch (e) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 3 -> "ESRCH";
            case 13 -> "EACCES";
            case 16 -> "EBUSY";
            case 19 -> "ENODEV";
            case 22 -> "EINVAL";
            case 95 -> "EOPNOTSUPP";
            case 524 -> "ENOTSUPP";
            default -> "errno " + e;
        };
    }
}
