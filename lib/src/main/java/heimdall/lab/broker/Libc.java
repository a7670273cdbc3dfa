package heimdall.lab.broker;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/** errno text for the broker's messages (pinning and CPU lists are {@link heimdall.lab.sys.Cpus}'). */
final class Libc {
    static {
        Native.register(Libc.class, NativeLibrary.getInstance("c"));
    }

    private Libc() {}

    static native String strerror(int errnum);

    /** "ENOENT (No such file or directory)"-style text for messages. */
    static String describe(int errno) {
        return "errno " + errno + " (" + strerror(errno) + ")";
    }
}
