package heimdall.lab.analysis;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.BadInput;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a results folder a user names for {@code ./lab compare} the way a root tool reads hostile
 * input: the folder is opened once ({@code O_DIRECTORY|O_NOFOLLOW}), its {@code summary.json} and
 * {@code environment.json} are opened relative to that descriptor ({@code openat}, {@code O_NOFOLLOW},
 * {@code O_NONBLOCK} so a planted FIFO cannot block us), checked to be regular files on the open
 * descriptor, and read once, bounded; what is parsed is that copy. A symbolic link at the folder's
 * own name or at either file's is refused, never followed: the user named that path, not wherever a
 * link planted there points. (Links in the folders above are the user's choice and are followed.)
 */
public final class CompareFiles {
    /** summary.json of a full floor-cost run is well under 1 MiB; 64 MiB leaves room and bounds the heap. */
    static final long LIMIT = 64L << 20;

    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 04000;
    private static final int O_DIRECTORY = 0200000;
    private static final int O_NOFOLLOW = 0400000;
    private static final int O_CLOEXEC = 02000000;
    private static final int ENOENT = 2;
    private static final int EACCES = 13;
    private static final int ENOTDIR = 20;
    private static final int ELOOP = 40;

    private CompareFiles() {}

    /**
     * The folder loaded from its files as read here; bad input naming the folder or file and why. Also
     * how a folder another process wrote (a guest's, in a shared checkout) is read.
     */
    public static Results load(Path dir) {
        int dirFd = openFolder(dir);
        try {
            byte[] summary = readFile(dir, dirFd, "summary.json", true);
            byte[] environment = readFile(dir, dirFd, "environment.json", false);
            return Results.parse(dir, summary, environment);
        } finally {
            Libc.close(dirFd);
        }
    }

    private static int openFolder(Path dir) {
        try {
            return Libc.open(dir.toString(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        } catch (LastErrorException e) {
            // O_DIRECTORY|O_NOFOLLOW on a link fails with ENOTDIR (or ELOOP): lstat only words the refusal
            boolean link = Files.isSymbolicLink(dir);
            String why = link ? "is a symbolic link; not followed (name the folder it points to)" : switch (e.getErrorCode()) {
                case ENOENT -> "no such folder";
                case ENOTDIR -> "not a folder (a results folder holds summary.json)";
                case EACCES -> "permission denied";
                default -> "cannot open: errno " + e.getErrorCode();
            };
            throw new BadInput(dir + ": not a results folder: " + why, e);
        }
    }

    /** The file's bytes, or null when it is absent and not {@code required}. */
    private static byte[] readFile(Path dir, int dirFd, String name, boolean required) {
        Path file = dir.resolve(name);
        int fd;
        try {
            fd = Libc.openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ENOENT && !required) {
                return null;
            }
            String why = switch (e.getErrorCode()) {
                case ELOOP -> "is a symbolic link; not followed (a results folder holds its own files)";
                case ENOENT -> "missing (is " + dir + " a results folder?)";
                case EACCES -> "cannot read: permission denied";
                default -> "cannot open: errno " + e.getErrorCode();
            };
            throw new BadInput(file + ": " + why, e);
        }
        try {
            // The descriptor, not the name: what is checked is what is read.
            Path open = Path.of("/proc/self/fd/" + fd);
            if (!Files.isRegularFile(open)) {
                throw new BadInput(file + ": not a regular file (" + (Files.isDirectory(open) ? "a directory" : "a FIFO, socket or device")
                        + "); a results folder holds regular files only");
            }
            return readBounded(file, fd);
        } finally {
            Libc.close(fd);
        }
    }

    private static byte[] readBounded(Path file, int fd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        while (true) {
            long n;
            try {
                n = Libc.read(fd, buf, buf.length);
            } catch (LastErrorException e) {
                throw new BadInput(file + ": cannot read: errno " + e.getErrorCode(), e);
            }
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(buf, 0, (int) n);
            if (out.size() > LIMIT) {
                throw new BadInput(file + ": cannot read: more than " + String.format(Locale.ROOT, "%,d bytes", LIMIT)
                        + ", over the limit for a summary or environment file");
            }
        }
    }

    /** libc, direct-mapped: errno comes back as {@link LastErrorException}. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        }

        static native int open(String path, int flags) throws LastErrorException;

        static native int openat(int dirFd, String path, int flags) throws LastErrorException;

        static native long read(int fd, byte[] buf, long count) throws LastErrorException;

        static native int close(int fd);
    }
}
