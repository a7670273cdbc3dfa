package heimdall.lab.bpf;

import heimdall.lab.profile.Profile;
import java.util.Arrays;

/**
 * The input of a seccomp filter ({@code struct seccomp_data}, 64 bytes): the syscall number, the
 * audit architecture, the instruction pointer and six arguments.
 */
public record SeccompData(int nr, int arch, long instructionPointer, long[] args) {
    /** {@code sizeof(struct seccomp_data)}. */
    public static final int SIZE = 64;

    public static final int OFF_NR = 0, OFF_ARCH = 4, OFF_IP = 8, OFF_ARGS = 16;

    public SeccompData {
        if (args.length != 6) {
            throw new IllegalArgumentException("seccomp_data has six arguments, got " + args.length);
        }
        args = args.clone();
    }

    /** An x86_64 call with the given leading arguments (the rest zero) and instruction pointer 0. */
    public static SeccompData x86_64(int nr, long... args) {
        return new SeccompData(nr, Profile.AUDIT_ARCH_X86_64, 0, Arrays.copyOf(args, 6));
    }

    @Override
    public long[] args() {
        return args.clone();
    }

    /** The 32-bit word at {@code offset} (a multiple of 4 below 64), little endian as on x86_64. */
    public int word(int offset) {
        if (offset == OFF_NR) {
            return nr;
        }
        if (offset == OFF_ARCH) {
            return arch;
        }
        long v = offset < OFF_ARGS ? instructionPointer : args[(offset - OFF_ARGS) / 8];
        return (offset & 4) == 0 ? (int) v : (int) (v >>> 32);
    }

    /** The name of the field at {@code offset}, e.g. {@code nr}, {@code args[2].hi}. */
    public static String fieldName(int offset) {
        if (offset < 0 || offset >= SIZE || (offset & 3) != 0) {
            return "?" + offset;
        }
        if (offset == OFF_NR) {
            return "nr";
        }
        if (offset == OFF_ARCH) {
            return "arch";
        }
        String half = (offset & 4) == 0 ? ".lo" : ".hi";
        if (offset < OFF_ARGS) {
            return "instruction_pointer" + half;
        }
        return "args[" + (offset - OFF_ARGS) / 8 + "]" + half;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeccompData d
                && d.nr == nr
                && d.arch == arch
                && d.instructionPointer == instructionPointer
                && Arrays.equals(d.args, args);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * nr + arch) + Long.hashCode(instructionPointer)) + Arrays.hashCode(args);
    }

    @Override
    public String toString() {
        return "SeccompData[nr=" + nr + ", arch=0x" + Integer.toHexString(arch) + ", ip=" + instructionPointer
                + ", args=" + Arrays.toString(args) + "]";
    }
}
