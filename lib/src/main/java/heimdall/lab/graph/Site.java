package heimdall.lab.graph;

import java.util.List;

/**
 * One call site of a program: the syscall made there, a readable name, the function it sits in,
 * the entries (thread roles and {@code signal:<NAME>} handlers) whose first call it can be, and
 * whether the thread may end after it.
 *
 * @param id the site's number in the projection (an unsigned 32-bit value)
 * @param syscall the x86_64 syscall number, {@code 0 <= syscall < }{@link Graph#SYSCALL_LIMIT}
 */
public record Site(long id, int syscall, String name, String function, List<String> firstOf, boolean terminal) {
    public Site {
        firstOf = List.copyOf(firstOf);
    }
}
