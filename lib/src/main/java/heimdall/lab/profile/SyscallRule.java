package heimdall.lab.profile;

import java.util.List;

/**
 * A profile entry: the action for the named calls, when the argument conditions hold.
 *
 * <p>Conditions are joined with AND, except when two of them test the same argument: then, as runc
 * does (it adds each such condition as a rule of its own), any one of them suffices.
 */
public record SyscallRule(List<String> names, Action action, List<ArgRule> args, String comment) {
    public SyscallRule {
        names = List.copyOf(names);
        args = List.copyOf(args);
        comment = comment == null ? "" : comment;
        if (action == null) {
            throw new IllegalArgumentException("action is null");
        }
    }

    public SyscallRule(List<String> names, Action action, List<ArgRule> args) {
        this(names, action, args, "");
    }

    /** Whether the conditions name some argument more than once (and so join with OR). */
    public boolean joinsWithOr() {
        boolean[] seen = new boolean[6];
        for (ArgRule a : args) {
            if (seen[a.index()]) {
                return true;
            }
            seen[a.index()] = true;
        }
        return false;
    }

    /** Whether this rule's conditions hold for {@code args} (always, when there are none). */
    public boolean matches(long[] args) {
        if (this.args.isEmpty()) {
            return true;
        }
        if (joinsWithOr()) {
            return this.args.stream().anyMatch(a -> a.test(args));
        }
        return this.args.stream().allMatch(a -> a.test(args));
    }
}
