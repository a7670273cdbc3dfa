package heimdall.lab.load;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * The few libc calls the load generator makes on its own threads, bound by JNA direct mapping:
 * the thread's id, its nice value ({@code setpriority(PRIO_PROCESS, tid, n)} sets one thread's nice
 * on Linux), and a cheap system call to make again and again.
 */
final class ThreadControl {
    static final int PRIO_PROCESS = 0;

    static {
        Native.register(ThreadControl.class, NativeLibrary.getInstance("c"));
    }

    private ThreadControl() {}

    /** The calling thread's kernel id (glibc 2.30+). */
    static native int gettid();

    /** 0, or -1 (errno not kept: the granted value is read back from /proc). */
    static native int setpriority(int which, int who, int prio);

    /** A system call that does nothing but enter and leave the kernel. */
    static native int getppid();
}
