package heimdall.lab.floor;

import heimdall.lab.bpf.Compiler;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import java.util.ArrayList;
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

    /** The broker filter alone: allow everything, notify the supervisor for {@code brokered}. */
    public static Profile brokerFilter(Set<String> brokered) {
        return Profile.builder(Action.ALLOW).rule(Action.NOTIFY, brokered.stream().sorted().toArray(String[]::new)).build();
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
            List<String> others = r.names().stream().filter(n -> !brokered.contains(n)).toList();
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
