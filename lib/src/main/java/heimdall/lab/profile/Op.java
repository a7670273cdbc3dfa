package heimdall.lab.profile;

import java.util.Optional;

/** A comparison of one 64-bit syscall argument, as in libseccomp and the OCI runtime spec. */
public enum Op {
    NE("SCMP_CMP_NE"),
    LT("SCMP_CMP_LT"),
    LE("SCMP_CMP_LE"),
    EQ("SCMP_CMP_EQ"),
    GE("SCMP_CMP_GE"),
    GT("SCMP_CMP_GT"),
    /** {@code (arg & value) == valueTwo}. */
    MASKED_EQ("SCMP_CMP_MASKED_EQ");

    /** The name in profiles. */
    public final String jsonName;

    Op(String jsonName) {
        this.jsonName = jsonName;
    }

    public static Optional<Op> of(String jsonName) {
        for (Op o : values()) {
            if (o.jsonName.equals(jsonName)) {
                return Optional.of(o);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code arg} satisfies this comparison; all values are unsigned 64-bit. */
    public boolean test(long arg, long value, long valueTwo) {
        return switch (this) {
            case NE -> arg != value;
            case LT -> Long.compareUnsigned(arg, value) < 0;
            case LE -> Long.compareUnsigned(arg, value) <= 0;
            case EQ -> arg == value;
            case GE -> Long.compareUnsigned(arg, value) >= 0;
            case GT -> Long.compareUnsigned(arg, value) > 0;
            case MASKED_EQ -> (arg & value) == valueTwo;
        };
    }
}
