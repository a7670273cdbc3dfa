package heimdall.lab;

import static heimdall.lab.Errno.EIO;
import static heimdall.lab.Errno.EISDIR;
import static heimdall.lab.Errno.ELOOP;
import static heimdall.lab.Errno.ENOTDIR;
import static heimdall.lab.Errno.ENXIO;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one way the harness reads a file that a user names or that sits in a folder others may share
 * (profiles, observations, graphs, their {@code SHA256SUMS}, a results folder's files): the harness
 * runs as root, so every such name is treated as planted by someone else.
 *
 * <ul>
 *   <li>The final component is opened with {@code O_NOFOLLOW}: a symbolic link at the name is refused,
 *       never followed (the user named that path, not wherever a link planted there points). Links in
 *       the folders above are the user's choice and are followed.
 *   <li>{@code O_NONBLOCK}: opening a FIFO never waits for a writer.
 *   <li>The type is checked on the opened descriptor (its {@code /proc/self/fd} entry, the same inode
 *       {@code fstat} would report): anything but a regular file (FIFO, device, socket, directory) is
 *       refused before a byte is read, and what was checked is what is read.
 *   <li>The read is bounded ({@link #read}: the bytes, at most a limit), and callers parse that one
 *       copy; {@link #channel} is for files too large to hold (samples.arrow), read through the same
 *       admitted descriptor's inode.
 * </ul>
 *
 * <p>Every refusal is {@link BadInput} (exit 2) naming the file and the reason in our words.
 */
public final class HostileFiles {
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 04000;
    private static final int O_DIRECTORY = 0200000;
    private static final int O_NOFOLLOW = 0400000;
    private static final int O_CLOEXEC = 02000000;
    private static final int AT_FDCWD = -100;

    private HostileFiles() {}

    /**
     * The bytes of {@code file}, at most {@code limit} of them.
     *
     * @throws BadInput naming the file: empty name, absent, a symbolic link, not a regular file,
     *     unreadable, or more than {@code limit} bytes
     */
    public static byte[] read(Path file, long limit) {
        return readIfExists(file, limit)
                .orElseThrow(() -> new BadInput(file + ": cannot read: no such file or directory"));
    }

    /** {@link #read}, or empty when nothing is at the name (a link, even a dangling one, is refused). */
    public static Optional<byte[]> readIfExists(Path file, long limit) {
        int fd = openAt(AT_FDCWD, file, file.toString());
        if (fd < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(readAdmitted(file, fd, limit));
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * A read-only channel on {@code file}, admitted as {@link #read} admits it, for a file read in pieces
     * (an Arrow file of hundreds of MB). The channel is opened on the admitted descriptor's inode, so a
     * name swapped after the check changes nothing.
     */
    public static FileChannel channel(Path file) {
        int fd = openAt(AT_FDCWD, file, file.toString());
        if (fd < 0) {
            throw new BadInput(file + ": cannot read: no such file or directory");
        }
        try {
            admit(file, fd);
            // Reopening a regular file's /proc/self/fd entry opens that inode, not a name.
            return FileChannel.open(descriptor(fd), StandardOpenOption.READ);
        } catch (IOException e) {
            throw new BadInput(file + ": cannot read: " + heimdall.lab.Io.reason(e), e);
        } finally {
            Libc.close(fd);
        }
    }

    /**
     * A folder opened once ({@code O_DIRECTORY|O_NOFOLLOW}) whose files are then opened relative to its
     * descriptor ({@code openat}), so a folder renamed or swapped for a link midway cannot redirect
     * the later reads.
     */
    public static final class Folder implements AutoCloseable {
        private final Path dir;
        private final int fd;

        private Folder(Path dir, int fd) {
            this.dir = dir;
            this.fd = fd;
        }

        /**
         * Opens {@code dir}; bad input {@code "<dir>: <what>: <reason>"} when it is absent, a symbolic
         * link, or not a folder ({@code what} says what the folder was to be, e.g. "not a results folder").
         */
        public static Folder open(Path dir, String what) {
            if (dir.toString().isEmpty()) {
                throw new BadInput("empty folder name: " + what);
            }
            try {
                return new Folder(
                        dir, Libc.openat(AT_FDCWD, dir.toString(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            } catch (LastErrorException e) {
                // O_DIRECTORY|O_NOFOLLOW on a link fails with ENOTDIR (or ELOOP): lstat only words the refusal
                String why = Files.isSymbolicLink(dir)
                        ? "is a symbolic link; not followed (name the folder it points to)"
                        : switch (e.getErrorCode()) {
                            case Errno.ENOENT -> "no such folder";
                            case ENOTDIR -> "not a folder";
                            case Errno.EACCES -> "permission denied";
                            default -> "cannot open: " + Errno.name(e.getErrorCode());
                        };
                throw new BadInput(dir + ": " + what + ": " + why, e);
            }
        }

        /** The bytes of the folder's file {@code name} (a plain name), admitted and bounded. */
        public byte[] read(String name, long limit) {
            return readIfExists(name, limit)
                    .orElseThrow(
                            () -> new BadInput(dir.resolve(name) + ": missing (is " + dir + " the folder meant?)"));
        }

        /** {@link #read}, or empty when the folder has nothing at {@code name}. */
        public Optional<byte[]> readIfExists(String name, long limit) {
            if (name.isEmpty() || name.contains("/")) {
                throw new IllegalArgumentException("not a plain file name: " + name);
            }
            Path file = dir.resolve(name);
            int f = openAt(fd, file, name);
            if (f < 0) {
                return Optional.empty();
            }
            try {
                return Optional.of(readAdmitted(file, f, limit));
            } finally {
                Libc.close(f);
            }
        }

        public Path dir() {
            return dir;
        }

        @Override
        public void close() {
            Libc.close(fd);
        }
    }

    /** Opens {@code name} relative to {@code dirFd}; -1 when nothing is there; bad input for any other failure. */
    private static int openAt(int dirFd, Path file, String name) {
        if (name.isEmpty()) {
            throw new BadInput("empty file name: name a file");
        }
        try {
            return Libc.openat(dirFd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        } catch (LastErrorException e) {
            String why = switch (e.getErrorCode()) {
                case Errno.ENOENT -> null;
                case ELOOP -> "is a symbolic link; not followed (name the file it points to)";
                case Errno.EACCES -> "cannot read: permission denied";
                case ENOTDIR -> "cannot read: a folder on its path is not a folder";
                case ENXIO -> "not a regular file: is a socket or a device with nothing behind it";
                default -> "cannot open: " + Errno.name(e.getErrorCode());
            };
            if (why == null) {
                return -1;
            }
            throw new BadInput(file + ": " + why, e);
        }
    }

    /** The open file's type and size, from its descriptor; bad input unless it is a regular file. */
    private static long admit(Path file, int fd) {
        Map<String, Object> attrs;
        try {
            attrs = Files.readAttributes(descriptor(fd), "unix:mode,size");
        } catch (IOException e) {
            throw new BadInput(file + ": cannot read: " + heimdall.lab.Io.reason(e), e);
        }
        int type = (Integer) attrs.get("mode") & 0170000;
        if (type != 0100000) {
            String kind = switch (type) {
                case 0040000 -> "is a directory";
                case 0010000 -> "is a FIFO";
                case 0020000 -> "is a character device";
                case 0060000 -> "is a block device";
                case 0140000 -> "is a socket";
                default -> "is of file type " + Integer.toOctalString(type);
            };
            throw new BadInput(file + ": not a regular file: " + kind + "; only regular files are read");
        }
        return (Long) attrs.get("size");
    }

    private static byte[] readAdmitted(Path file, int fd, long limit) {
        long size = admit(file, fd);
        if (size > limit) {
            throw tooBig(file, size, limit);
        }
        // The size is a hint (the file may grow while read): the read itself is bounded too.
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(size, 1 << 20));
        byte[] buf = new byte[1 << 16];
        while (true) {
            long n;
            try {
                n = Libc.read(fd, buf, buf.length);
            } catch (LastErrorException e) {
                throw new BadInput(file + ": cannot read: " + inWords(e.getErrorCode()), e);
            }
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(buf, 0, (int) n);
            if (out.size() > limit) {
                throw tooBig(file, -1, limit);
            }
        }
    }

    /** A read's errno in words, as strerror says them. */
    private static String inWords(int errno) {
        return switch (errno) {
            case EIO -> "input/output error";
            case EISDIR -> "is a directory";
            case Errno.EACCES -> "permission denied";
            case Errno.EINVAL -> "invalid argument (the file cannot be read this way)";
            default -> Errno.name(errno);
        };
    }

    private static BadInput tooBig(Path file, long size, long limit) {
        return new BadInput(file + ": cannot read: "
                + (size >= 0
                        ? String.format(Locale.ROOT, "%,d bytes", size)
                        : "more than " + String.format(Locale.ROOT, "%,d bytes", limit))
                + ", over the limit of "
                + String.format(Locale.ROOT, "%,d bytes (%d MiB)", limit, limit >> 20) + " for this kind of file");
    }

    private static Path descriptor(int fd) {
        return Path.of("/proc/self/fd/" + fd);
    }

    /** libc, direct-mapped: errno comes back as {@link LastErrorException}. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        }

        static native int openat(int dirFd, String path, int flags) throws LastErrorException;

        static native long read(int fd, byte[] buf, long count) throws LastErrorException;

        static native int close(int fd);
    }
}
