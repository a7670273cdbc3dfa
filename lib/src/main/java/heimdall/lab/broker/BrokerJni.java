package heimdall.lab.broker;

import heimdall.lab.sys.NativeLib;

/**
 * The functions of libheimdall on the Java supervisor's path through one notification, bound through
 * JNI ({@code libheimdall-jni.so}) rather than JNA like the rest of {@link BrokerNative}:
 * native/jni/broker-jni.c says why. The same C functions, documented in native/include/hl_broker.h;
 * the constants they answer with are {@link BrokerNative}'s. Loaded after {@link BrokerNative}, whose
 * libheimdall.so it links to.
 */
final class BrokerJni {
    private static final String LOAD_PROBLEM;

    static {
        String problem = BrokerNative.loadProblem();
        if (problem == null) {
            try {
                System.load(NativeLib.file("libheimdall-jni.so").toString());
            } catch (RuntimeException | LinkageError e) {
                problem = "libheimdall-jni.so could not be loaded: " + e.getMessage();
            }
        }
        LOAD_PROBLEM = problem;
    }

    private BrokerJni() {}

    /** Null when both libraries are loaded, else why not. */
    static String loadProblem() {
        return LOAD_PROBLEM;
    }

    /** {@code hl_notif_recv}: poll on the listener and {@code stopFd}, then receive. */
    static native int recv(int listener, int stopFd, long outAddr);

    /** {@code hl_notif_recv_wait}: receive, blocked in the kernel's RECV itself. */
    static native int recvWait(int listener, long outAddr);

    /** {@code hl_notif_answer_recv_wait}: answer {@code id}, then receive as {@link #recvWait}. */
    static native int answerRecvWait(int listener, long id, int err, long val, int flags, long outAddr);

    /** {@code hl_broker_call}: the call's kind, flags and open_how, read once. */
    static native int call(int listener, long notifAddr);

    /** {@code hl_broker_open}: the O_PATH lookup beneath in/. */
    static native int open(int listener, long notifAddr, long pathAddr, int pathLen, int inDirfd);

    /** {@code hl_broker_send}: reopen the admitted file for reading and inject it. */
    static native int send(int listener, long notifAddr, int fd);

    /** {@code hl_broker_refuse}: close the lookup and answer {@code err}. */
    static native int refuse(int listener, long id, int fd, int err);
}
