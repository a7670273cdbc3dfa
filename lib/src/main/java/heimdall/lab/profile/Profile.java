package heimdall.lab.profile;

import heimdall.lab.BadInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A seccomp profile in the OCI runtime-spec {@code LinuxSeccomp} shape, after the Docker/Podman
 * extensions have been applied for this host (see {@link ProfileJson}): the default action, the
 * architectures the profile names, and the rules in order (the first rule that names a call and whose
 * conditions hold decides it).
 */
public record Profile(Action defaultAction, List<String> architectures, List<SyscallRule> syscalls) {
    /** The audit architecture of x86_64 ({@code AUDIT_ARCH_X86_64}). */
    public static final int AUDIT_ARCH_X86_64 = 0xc000003e;
    /** Syscall numbers at or above this bit are x32 calls on x86_64. */
    public static final int X32_SYSCALL_BIT = 0x40000000;

    public Profile {
        if (defaultAction == null) {
            throw new IllegalArgumentException("defaultAction is null");
        }
        architectures = List.copyOf(architectures);
        syscalls = List.copyOf(syscalls);
    }

    /** A builder for profiles made in code (floors): default action first, then rules in order. */
    public static Builder builder(Action defaultAction) {
        return new Builder(defaultAction);
    }

    /** The names in this profile's rules that {@code table} does not know. */
    public List<String> unknownNames(SyscallTable table) {
        List<String> unknown = new ArrayList<>();
        for (SyscallRule r : syscalls) {
            for (String n : r.names()) {
                if (table.number(n).isEmpty() && !unknown.contains(n)) {
                    unknown.add(n);
                }
            }
        }
        return unknown;
    }

    /**
     * The reference semantics: the return value this profile gives a call on x86_64, evaluated
     * directly from the rules (no BPF). Foreign architectures and x32 numbers get KILL_PROCESS, as
     * the compiler answers them. The number -1 (what a tracer sets to skip a call) is no x32 call:
     * as in libseccomp's programs it meets the rules, none of which names it, so the default action.
     *
     * @param nr the syscall number (as the kernel's signed {@code int})
     * @param arch the audit architecture
     * @param args the six arguments
     */
    public int evaluate(SyscallTable table, int nr, int arch, long[] args) {
        if (arch != AUDIT_ARCH_X86_64 || (Integer.compareUnsigned(nr, X32_SYSCALL_BIT) >= 0 && nr != -1)) {
            return Action.KILL_PROCESS.ret();
        }
        for (SyscallRule r : syscalls) {
            for (String n : r.names()) {
                int known = table.number(n)
                        .orElseThrow(() -> new BadInput("profile: syscall name '" + n + "' is not in the x86_64 table ("
                                + table.source() + ")"));
                if (known == nr && r.matches(args)) {
                    return r.action().ret();
                }
            }
        }
        return defaultAction.ret();
    }

    /** Builds a {@link Profile} rule by rule. */
    public static final class Builder {
        private final Action defaultAction;
        private final List<String> architectures = new ArrayList<>(List.of("SCMP_ARCH_X86_64"));
        private final List<SyscallRule> rules = new ArrayList<>();

        private Builder(Action defaultAction) {
            this.defaultAction = defaultAction;
        }

        /** Adds an unconditional rule: {@code action} for every name. */
        public Builder rule(Action action, String... names) {
            rules.add(new SyscallRule(Arrays.asList(names), action, List.of()));
            return this;
        }

        /** Adds a rule for one call with at least one argument condition. */
        public Builder rule(Action action, String name, ArgRule first, ArgRule... more) {
            List<ArgRule> args = new ArrayList<>();
            args.add(first);
            args.addAll(Arrays.asList(more));
            rules.add(new SyscallRule(List.of(name), action, args));
            return this;
        }

        public Builder rule(SyscallRule rule) {
            rules.add(rule);
            return this;
        }

        public Builder allow(String... names) {
            return rule(Action.ALLOW, names);
        }

        public Profile build() {
            return new Profile(defaultAction, architectures, rules);
        }
    }
}
