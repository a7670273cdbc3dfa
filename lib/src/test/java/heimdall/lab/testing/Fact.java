package heimdall.lab.testing;

/**
 * One fact about this host that a test needs, as read from the host itself (a file under /proc or
 * /sys, the kernel release, an installed package's file), never from the project's own code.
 *
 * @param need what the test needs, in a few words ("seccomp actions user_notif", "ptrace")
 * @param present whether the host has it
 * @param detail what was read, so a skip or failure says exactly why
 */
public record Fact(String need, boolean present, String detail) {
    /** A fact the host has. */
    public static Fact present(String need, String detail) {
        return new Fact(need, true, detail);
    }

    /** A fact the host lacks. */
    public static Fact absent(String need, String detail) {
        return new Fact(need, false, detail);
    }
}
