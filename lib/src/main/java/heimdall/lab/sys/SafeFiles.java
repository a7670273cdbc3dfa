package heimdall.lab.sys;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Files written by a process that runs as root, where a name may have been planted by someone else.
 * Every file the harness makes for itself is created exclusively ({@code O_CREAT|O_EXCL}, which the
 * kernel never resolves through a symbolic link, plus {@code O_NOFOLLOW}): a planted symlink, FIFO or
 * file at the name is an error, never written through or waited on.
 */
public final class SafeFiles {
    private SafeFiles() {}

    /** {@code O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW}: a new file, nothing that was there before. */
    private static final OpenOption[] NEW = {StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS};

    /** Opens a new file for writing; any existing entry at {@code file} (file, symlink, FIFO) is an error. */
    public static OutputStream newFile(Path file) throws IOException {
        return Files.newOutputStream(file, NEW);
    }

    /** Options for {@link java.nio.channels.FileChannel#open}: a new file, exclusively, links not followed. */
    public static OpenOption[] newFileOptions() {
        return NEW.clone();
    }

    /** Writes {@code bytes} into a new file (see {@link #newFile}); returns {@code file}. */
    public static Path writeNew(Path file, byte[] bytes) throws IOException {
        try (OutputStream out = newFile(file)) {
            out.write(bytes);
        }
        return file;
    }

    /**
     * Writes a file the user named ({@code -o FILE}) with {@link #replace}; bad input (exit 2) naming
     * the option, the file and the reason when it cannot.
     */
    public static void writeOutput(String option, Path file, byte[] bytes) {
        try {
            replace(file, bytes);
        } catch (NoSuchFileException e) {
            throw new BadInput(option + " " + file + ": cannot write: no such file or directory (its folder does not exist)", e);
        } catch (IOException e) {
            throw new BadInput(option + " " + file + ": cannot write: " + Io.reason(e), e);
        }
    }

    /**
     * Writes {@code bytes} to a named file as a command-line tool does: the folders on the way are the
     * caller's choice and are followed, an existing regular file is truncated and rewritten, a new one
     * is created. But a symbolic link or anything other than a regular file at the name itself is
     * refused, because the caller named that path, not wherever a link planted there points.
     *
     * <p>The check before opening only keeps us from blocking on a FIFO; the open itself carries
     * {@code O_NOFOLLOW}, so a link swapped in after the check still fails rather than being followed.
     */
    public static void replace(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = openReplacing(file)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    }

    /** The channel {@link #replace} writes through: checked, opened {@code O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW}. */
    public static FileChannel openReplacing(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new FileSystemException(file.toString(), null, "is a symbolic link; not followed (name the file it points to)");
        }
        String kind = nonRegularKind(file);
        if (kind != null) {
            throw new FileSystemException(file.toString(), null, kind);
        }
        return FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Why {@code file} (not followed) cannot be written as a named output, or null when it can: absent,
     * a regular file, or a character device the user named on purpose ({@code /dev/null},
     * {@code /dev/full}). A FIFO would block the open, a directory or socket cannot be written.
     */
    private static String nonRegularKind(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            return "is a directory";
        }
        int type = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
        return switch (type) {
            case 0020000 -> null; // character device
            case 0010000 -> "is a FIFO, not a regular file (opening it would wait for a reader)";
            case 0140000 -> "is a socket, not a regular file";
            case 0060000 -> "is a block device, not a regular file";
            default -> "exists and is not a regular file";
        };
    }

    /** {@link #replace(Path, byte[])} for text, UTF-8. */
    public static void replace(Path file, String text) throws IOException {
        replace(file, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Why others could change what is inside {@code dir}, or null when they cannot: {@code dir} (links
     * resolved, it is the real directory that counts) must be a directory owned by root or by us, and
     * writable by no one else, except that a sticky directory ({@code /tmp}) is accepted when
     * {@code stickyOk}: there others may add names but never rename or remove ours.
     */
    public static String othersCanWrite(Path dir, boolean stickyOk) throws IOException {
        Path real = dir.toRealPath();
        if (!Files.isDirectory(real)) {
            return "not a directory";
        }
        int mode = (Integer) Files.getAttribute(real, "unix:mode");
        int uid = (Integer) Files.getAttribute(real, "unix:uid");
        if (uid != 0 && uid != ourUid()) {
            return String.format("owned by uid %d, not by root or us (uid %d)", uid, ourUid());
        }
        if ((mode & 0022) != 0 && !(stickyOk && (mode & 01000) != 0)) {
            return String.format("writable by others (mode %o)%s", mode & 07777, stickyOk ? " and not sticky" : "");
        }
        return null;
    }

    /**
     * Makes {@code dir} ready to take files a command writes by fixed names (graph record's graph files
     * and SHA256SUMS): created (with its parents) when absent, so it is ours; when it exists, it must be
     * a real folder (not a symbolic link) that only root or we can change. Refused: a shared folder such
     * as {@code /tmp} itself, where another user could have planted a file, link or FIFO at one of the
     * names before we came, and a folder inside one others can write without the sticky bit (they could
     * swap ours for a link). Bad input naming {@code option} and the folder.
     */
    public static void ownFolder(String option, Path dir) {
        try {
            if (Files.isSymbolicLink(dir)) {
                throw new BadInput(option + " " + dir
                        + ": is a symbolic link; files are written only into a real folder"
                        + " (name it directly)");
            }
            Path parent = dir.toAbsolutePath().normalize().getParent();
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                try {
                    Files.createDirectory(dir);
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    throw new BadInput(option + " " + dir
                            + ": appeared while it was being created; choose another folder");
                }
            }
            String why = othersCanWrite(dir, false);
            if (why != null) {
                throw new BadInput(option + " " + dir + ": " + why + "; others could have planted files at the names"
                        + " written there (name a new folder: it is created)");
            }
            String above = parent == null ? null : othersCanWrite(parent, true);
            if (above != null) {
                throw new BadInput(option + " " + dir + ": its parent " + parent + " is " + above
                        + "; others could replace the folder");
            }
        } catch (IOException e) {
            throw new BadInput(option + " " + dir + ": cannot use as the output folder: " + Io.reason(e), e);
        }
    }

    /** Our effective uid: the owner of {@code /proc/self}. */
    static int ourUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /**
     * Removes {@code dir} and everything beneath it without following any symbolic link (a link is
     * removed, never its target). Nothing happens when {@code dir} is absent; a symlink at {@code dir}
     * itself is removed, not descended into.
     */
    public static void removeTree(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            // walkFileTree does not follow links unless asked (FOLLOW_LINKS is not given).
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null && !(e instanceof NoSuchFileException)) {
                        throw e;
                    }
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove scratch folder " + dir, e);
        }
    }
}
