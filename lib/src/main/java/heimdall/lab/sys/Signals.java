package heimdall.lab.sys;

/** Names of the Linux signals (x86_64 numbering). */
public final class Signals {
    public static final int SIGKILL = 9;
    public static final int SIGSEGV = 11;
    public static final int SIGSYS = 31;

    private static final String[] NAMES = {
        null,
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS"
    };

    private Signals() {}

    /** {@code "SIGSYS"}, or {@code "SIGRTMIN+n"} / {@code "signal n"}. */
    public static String name(int signal) {
        if (signal > 0 && signal < NAMES.length) {
            return NAMES[signal];
        }
        if (signal >= 34 && signal <= 64) {
            return "SIGRTMIN+" + (signal - 34);
        }
        return "signal " + signal;
    }
}
