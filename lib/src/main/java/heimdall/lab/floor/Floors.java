package heimdall.lab.floor;

import heimdall.lab.bpf.Compiler;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The three kinds of floor the floor-cost bench measures, built from one profile.
 *
 * <ul>
 *   <li><b>static</b>: the profile as a launch installs it (never = its default, always = allow).
 *   <li><b>three answers</b>: one program where the brokered calls' rules answer
 *       {@code SCMP_ACT_NOTIFY} instead of allow; their argument conditions are kept, so a brokered
 *       call outside its rule still meets the default.
 *   <li><b>stacked</b>: the static floor over a broker filter (everything allowed but the
 *       brokered calls, which notify) under it — two programs, as a container job runs today.
 * </ul>
 */
public final class Floors {
    private Floors() {}

    /** The profile compiled as it is. */
    public static Floor staticFloor(String name, Profile profile) {
        return new Floor(name, List.of(Compiler.compile(profile)), -1);
    }

    /** One program with never, always and brokered answers. */
    public static Floor threeAnswers(String name, Profile profile, Set<String> brokered) {
        return new Floor(name, List.of(Compiler.compile(withBrokered(profile, brokered))), 0);
    }

    /**
     * The broker filter under the static floor: installed first, it hands out the listener; the
     * static floor goes on top as a launch's last step, so it need not allow {@code seccomp(2)}.
     */
    public static Floor stacked(String name, Profile profile, Set<String> brokered) {
        return new Floor(name, List.of(Compiler.compile(brokerFilter(brokered)), Compiler.compile(profile)), 0);
    }

    /**
     * The static floor on top of {@link #brokerFloor()}: the sandbox a brokered job wants. The floor
     * denies what the job may not do at all; the broker floor under it brokers every open by name the
     * floor allows and kills the opens without a name even where the floor allows them. Two programs,
     * the broker floor first (it hands out the listener).
     */
    public static Floor overBrokerFloor(String name, Profile profile) {
        return new Floor(name, List.of(Compiler.compile(brokerFloor()), Compiler.compile(profile)), 0);
    }

    /**
     * The calls that open a file by name ({@code open}, {@code openat}, {@code openat2}, {@code creat}):
     * {@link #brokerFloor()} notifies the supervisor for each, so the broker sees every name opened.
     */
    public static final List<String> OPEN_BY_NAME = List.of("open", "openat", "openat2", "creat");

    /**
     * The calls that reach a file without a name the supervisor can check: by file handle
     * ({@code open_by_handle_at}, and {@code name_to_handle_at}, which makes one), through a ring the
     * kernel works off without seccomp seeing the opens ({@code io_uring_setup}, {@code io_uring_enter},
     * {@code io_uring_register}: a ring fd could also arrive from outside), through the mount API
     * ({@code open_tree}, {@code fsopen}, {@code fsconfig}, {@code fsmount}, {@code fspick},
     * {@code move_mount}, {@code mount_setattr}: a tree or a new mount as a descriptor), through
     * {@code fanotify_init} (whose events carry open descriptors of other processes' files) and
     * {@code uselib} (on a kernel that still has it, the kernel maps a library by name itself).
     * {@link #brokerFloor()} kills the process on each. {@code open_tree_attr} (Linux 6.15) is not in
     * the x86_64 table the project compiles against, so it meets the floor's default, a kill, too.
     */
    public static final List<String> OPEN_WITHOUT_NAME = List.of(
            "open_by_handle_at",
            "name_to_handle_at",
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
            "open_tree",
            "fsopen",
            "fsconfig",
            "fsmount",
            "fspick",
            "move_mount",
            "mount_setattr",
            "fanotify_init",
            "uselib");

    /**
     * The broker floor: the default floor of a brokered job when no static floor is given
     * ({@code Lab.broker(policy)} without {@code under(...)}). A broker, not a sandbox.
     *
     * <ul>
     *   <li>{@link #OPEN_BY_NAME}: notify the supervisor, which answers by its policy and opens beneath
     *       {@code in/} itself (both supervisors serve all four kinds);
     *   <li>{@link #OPEN_WITHOUT_NAME}: {@code KILL_PROCESS}. Killed rather than refused with an errno:
     *       none has a use beneath a broker that must see every open; an errno invites the fallbacks
     *       libraries have for a missing io_uring or handle support and hides that the job asked for a
     *       way around, while a kill fails the run loudly, names the call ({@code SIGSYS}) and is the
     *       answer the floor gives foreign architectures already. A program that needs io_uring for its
     *       I/O needs a floor that allows it, knowingly ({@code under(...)}).
     *   <li>every other call of the x86_64 table: allowed, each answered from the kernel's action
     *       cache (no rule of theirs looks at an argument);
     *   <li>any other architecture (i386 through {@code int 0x80} included), the x32 numbers and any
     *       number the table does not know (a call newer than the table, which the floor cannot say
     *       opens nothing): {@code KILL_PROCESS}, as the static floors answer foreign calls.
     * </ul>
     *
     * <p>What it promises: every open of a file by name reaches the supervisor, on the supervisor's
     * copy of the name, and no call opens a file without one. What it does not: the allowed calls that
     * touch files by name without opening them ({@code stat}, {@code execve}, {@code rename},
     * {@code unlink}, {@code truncate}, {@code mount}, ...), descriptors inherited or received over a
     * socket, and other processes the child can act through ({@code ptrace}, {@code pidfd_getfd}) are
     * not the broker's to judge: that is a floor's job (a static floor stacked on it, another uid, a
     * mount namespace).
     */
    public static Profile brokerFloor() {
        SyscallTable table = SyscallTable.x86_64();
        Set<String> ruled = new HashSet<>(OPEN_BY_NAME);
        ruled.addAll(OPEN_WITHOUT_NAME);
        String[] allowed = table.byName().keySet().stream()
                .filter(n -> !ruled.contains(n))
                .sorted()
                .toArray(String[]::new);
        return Profile.builder(Action.KILL_PROCESS)
                .rule(Action.NOTIFY, OPEN_BY_NAME.toArray(String[]::new))
                .rule(Action.KILL_PROCESS, OPEN_WITHOUT_NAME.toArray(String[]::new))
                .allow(allowed)
                .build();
    }

    /**
     * A broker filter for measuring: allow everything, notify the supervisor for {@code brokered}.
     * Not a floor: calls it does not name run unchecked ({@code open} beside a brokered
     * {@code openat}, {@code io_uring_setup}); a job's default is {@link #brokerFloor()}.
     */
    public static Profile brokerFilter(Set<String> brokered) {
        return Profile.builder(Action.ALLOW)
                .rule(Action.NOTIFY, brokered.stream().sorted().toArray(String[]::new))
                .build();
    }

    /**
     * {@code profile} with every allowing rule that names a brokered call turned into a notifying one.
     * A rule naming brokered and other calls is split so the others keep their answer.
     */
    public static Profile withBrokered(Profile profile, Set<String> brokered) {
        List<SyscallRule> rules = new ArrayList<>();
        boolean any = false;
        for (SyscallRule r : profile.syscalls()) {
            if (r.action().kind() != Action.Kind.ALLOW || r.names().stream().noneMatch(brokered::contains)) {
                rules.add(r);
                continue;
            }
            List<String> mine = r.names().stream().filter(brokered::contains).toList();
            List<String> others =
                    r.names().stream().filter(n -> !brokered.contains(n)).toList();
            if (!others.isEmpty()) {
                rules.add(new SyscallRule(others, r.action(), r.args(), r.comment()));
            }
            rules.add(new SyscallRule(mine, Action.NOTIFY, r.args(), "brokered"));
            any = true;
        }
        if (!any) {
            throw new IllegalArgumentException("the profile allows none of the brokered calls " + brokered);
        }
        return new Profile(profile.defaultAction(), profile.architectures(), rules);
    }
}
