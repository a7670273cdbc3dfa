package heimdall.lab.profile;

/**
 * One condition on a syscall argument: {@code args[index] op value} (for MASKED_EQ,
 * {@code (args[index] & value) == valueTwo}). Values are unsigned 64-bit, held in a {@code long}.
 */
public record ArgRule(int index, long value, long valueTwo, Op op) {
    public ArgRule {
        if (index < 0 || index > 5) {
            throw new IllegalArgumentException("argument index " + index + " is outside 0..5");
        }
        if (op == null) {
            throw new IllegalArgumentException("op is null");
        }
    }

    public static ArgRule of(int index, Op op, long value) {
        return new ArgRule(index, value, 0, op);
    }

    public static ArgRule maskedEq(int index, long mask, long value) {
        return new ArgRule(index, mask, value, Op.MASKED_EQ);
    }

    /** Whether {@code args} (six values) satisfy this condition. */
    public boolean test(long[] args) {
        return op.test(args[index], value, valueTwo);
    }
}
