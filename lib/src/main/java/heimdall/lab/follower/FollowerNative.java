package heimdall.lab.follower;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import heimdall.lab.sys.NativeLib;

/** JNA direct mapping of {@code libheimdall-follower.so} ({@code native/follower/loader.c}). */
final class FollowerNative {
    static final int ABI = 7;
    static final String LIBRARY = "libheimdall-follower.so";

    static {
        NativeLib.load();
        Native.register(
                FollowerNative.class,
                NativeLibrary.getInstance(NativeLib.file(LIBRARY).toString()));
        if (hf_abi_version() != ABI) {
            throw new IllegalStateException(LIBRARY + " has ABI " + hf_abi_version() + ", expected " + ABI
                    + " (stale build? run mvn -pl lib package)");
        }
    }

    private FollowerNative() {}

    static void load() {
        // the static initializer does the work
    }

    static native int hf_abi_version();

    static native long hf_open(
            int tgid,
            int armNow,
            int hook,
            int step,
            int[] cells,
            int ncells,
            int columns,
            int mainStart,
            int threadStart,
            int[] sigStarts,
            int[] childStarts,
            byte[] err,
            int errLen);

    static native int hf_poll(long handle, int[] out, int max, int timeoutMs);

    static native int hf_stats(long handle, long[] out);

    static native void hf_follow(long handle, int tgid);

    static native void hf_close(long handle);

    static native int hf_enable_stats();

    static native int hf_close_fd(int fd);

    static native int hf_prog_stats(long handle, long[] out);

    /** argv: a NULL-terminated {@link com.sun.jna.StringArray} (direct mapping takes no String[]). */
    static native int hf_spawn(String path, Pointer argv, int floor, int[] gate);

    static native int hf_release(int gate);

    static native int hf_close_gate(int gate);

    static native int hf_wait(int pid, int timeoutMs, int[] status);

    static native int hf_kill(int pid);

    static native int hf_probe_hook(int which, int[] out, byte[] log, int logLen);

    static native long hf_hook_open(int hook, byte[] err, int errLen);

    static native int hf_hook_stats(long handle, long[] out);

    static native void hf_hook_close(long handle);
}
