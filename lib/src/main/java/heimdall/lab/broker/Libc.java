package heimdall.lab.broker;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.util.ArrayList;
import java.util.List;

/** The few libc calls the broker needs from Java: thread CPU affinity and errno names. */
final class Libc {
    static {
        Native.register(Libc.class, NativeLibrary.getInstance("c"));
    }

    private Libc() {}

    /** {@code pid} 0 is the calling thread. */
    static native int sched_setaffinity(int pid, long cpusetsize, long[] mask);

    static native int sched_getaffinity(int pid, long cpusetsize, long[] mask);

    static native int sched_getcpu();

    static native String strerror(int errnum);

    /** Pins the calling thread to {@code cpu}: 0, or the errno. */
    static int pinCallingThread(int cpu) {
        long[] mask = new long[16];
        if (cpu < 0 || cpu >= mask.length * 64) {
            return 22; // EINVAL
        }
        mask[cpu / 64] |= 1L << (cpu % 64);
        return sched_setaffinity(0, mask.length * 8L, mask) == 0 ? 0 : Native.getLastError();
    }

    /** The CPUs the calling thread may run on. */
    static List<Integer> allowedCpus() {
        long[] mask = new long[16];
        List<Integer> cpus = new ArrayList<>();
        if (sched_getaffinity(0, mask.length * 8L, mask) != 0) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                cpus.add(i);
            }
            return cpus;
        }
        for (int i = 0; i < mask.length * 64; i++) {
            if ((mask[i / 64] & (1L << (i % 64))) != 0) {
                cpus.add(i);
            }
        }
        return cpus;
    }

    /** "ENOENT (No such file or directory)"-style text for messages. */
    static String describe(int errno) {
        return "errno " + errno + " (" + strerror(errno) + ")";
    }
}
