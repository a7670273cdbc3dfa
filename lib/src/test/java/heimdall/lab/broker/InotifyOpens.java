package heimdall.lab.broker;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Counts opens of anything in one directory, by any process, with inotify {@code IN_OPEN}: how the
 * escape tests prove the supervisor opened nothing outside {@code in/}.
 */
final class InotifyOpens implements AutoCloseable {
    private interface C extends Library {
        C INSTANCE = Native.load("c", C.class);

        int inotify_init1(int flags);

        int inotify_add_watch(int fd, String path, int mask);

        long read(int fd, byte[] buf, long count);

        int close(int fd);
    }

    private static final int IN_OPEN = 0x20;
    private static final int IN_NONBLOCK = 04000;
    private static final int IN_CLOEXEC = 02000000;

    private final int fd;
    private int opens;

    InotifyOpens(Path dir) throws IOException {
        fd = C.INSTANCE.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (fd < 0) {
            throw new IOException("inotify_init1: errno " + Native.getLastError());
        }
        if (C.INSTANCE.inotify_add_watch(fd, dir.toString(), IN_OPEN) < 0) {
            int e = Native.getLastError();
            C.INSTANCE.close(fd);
            throw new IOException("inotify_add_watch " + dir + ": errno " + e);
        }
    }

    /** Opens seen so far (in the directory, or of the directory itself). */
    int opens() {
        byte[] buf = new byte[4096];
        for (; ; ) {
            long n = C.INSTANCE.read(fd, buf, buf.length);
            if (n <= 0) {
                return opens;
            }
            ByteBuffer b = ByteBuffer.wrap(buf, 0, (int) n).order(ByteOrder.nativeOrder());
            while (b.remaining() >= 16) {
                b.getInt(); // wd
                int mask = b.getInt();
                b.getInt(); // cookie
                int len = b.getInt();
                b.position(b.position() + len);
                if ((mask & IN_OPEN) != 0) {
                    opens++;
                }
            }
        }
    }

    @Override
    public void close() {
        C.INSTANCE.close(fd);
    }
}
