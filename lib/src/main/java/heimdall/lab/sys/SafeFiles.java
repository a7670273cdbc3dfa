package heimdall.lab.sys;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * Files written by a process that runs as root, where a name may have been planted by someone else.
 * Every file the harness makes for itself is created exclusively ({@code O_CREAT|O_EXCL}, which the
 * kernel never resolves through a symbolic link, plus {@code O_NOFOLLOW}): a planted symlink, FIFO or
 * file at the name is an error, never written through or waited on.
 *
 * <p>A file written whole ({@link #writeNew(Path, byte[])}, {@link #replace(Path, byte[])},
 * {@link #writeOutput}) never appears part-written, not even on a full disk or when the JVM is killed:
 * it is written into a temporary beside it, synced, and linked or renamed into place. {@link #newFile}
 * streams straight into its name, for files in folders no one reads until they are complete (a
 * results folder's hidden temporary, a scratch folder).
 */
public final class SafeFiles {
    private SafeFiles() {}

    /** {@code O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW}: a new file, nothing that was there before. */
    private static final OpenOption[] NEW = {
        StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS
    };

    /** The random part of a temporary file's name: unpredictable, so nothing can be planted there first. */
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Opens a new file for writing; any existing entry at {@code file} (file, symlink, FIFO) is an error. */
    public static OutputStream newFile(Path file) throws IOException {
        return Files.newOutputStream(file, NEW);
    }

    /** Options for {@link java.nio.channels.FileChannel#open}: a new file, exclusively, links not followed. */
    public static OpenOption[] newFileOptions() {
        return NEW.clone();
    }

    /**
     * What goes into a file written whole ({@link #writeNew(Path, Content)}, {@link #replace(Path, Content)}):
     * all of it, or an exception, and then nothing of it is kept. The stream is buffered; closing it is
     * harmless (the file is closed by the caller).
     */
    @FunctionalInterface
    public interface Content {
        /** Writes the file's content into {@code out}. */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code bytes} into a new file, whole or not at all (see {@link #writeNew(Path, Content)}); returns {@code
     * file}.
     */
    public static Path writeNew(Path file, byte[] bytes) throws IOException {
        return writeNew(file, out -> out.write(bytes));
    }

    /**
     * Writes a new file whole or not at all: the content goes into a temporary file made exclusively
     * beside {@code file} ({@code .NAME.tmp-RANDOM}), is synced, and is then hard-linked to the name
     * ({@code link(2)} never replaces an entry and never follows a link planted at the name, so this is
     * {@code O_EXCL} for the finished file), and the temporary is removed. A full disk, an exception in
     * {@code content} or an entry already at {@code file} leaves nothing behind: not the temporary,
     * not a part of the file; a temporary a killed run left beside it is removed by the next write of
     * the same name ({@link CreatorMark#sweepFiles}). A file system without hard links gets a rename that refuses an
     * existing
     * name (checked just before, so not atomic against a racing writer in the same folder).
     */
    public static Path writeNew(Path file, Content content) throws IOException {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(file.toString()); // early, before writing it all
        }
        Path tmp = writeTemporary(file, content);
        try {
            try {
                Files.createLink(file, tmp);
            } catch (UnsupportedOperationException | FileSystemException noLinks) {
                if (noLinks instanceof FileAlreadyExistsException taken) {
                    throw taken;
                }
                if (noLinks instanceof FileSystemException f && !"Operation not permitted".equals(f.getReason())) {
                    throw f;
                }
                Files.move(tmp, file); // no REPLACE_EXISTING: an entry at the name is refused
            }
        } finally {
            Files.deleteIfExists(tmp);
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
            throw new BadInput(
                    option + " " + file + ": cannot write: no such file or directory (its folder does not exist)", e);
        } catch (IOException e) {
            throw new BadInput(option + " " + file + ": cannot write: " + Io.reason(e), e);
        }
    }

    /** {@link #replace(Path, Content)} with these bytes. */
    public static void replace(Path file, byte[] bytes) throws IOException {
        replace(file, out -> out.write(bytes));
    }

    /**
     * Writes a named file as a command-line tool does, but whole or not at all: the folders on the way
     * are the caller's choice and are followed; the content goes into a temporary file made exclusively
     * beside {@code file}, is synced, and is renamed over the name ({@code rename(2)}: an existing
     * regular file is replaced in one step, keeping its permission bits; a reader sees the old file or
     * the new one, never a part). A full disk or an exception in {@code content} leaves the old file as
     * it was (or no file) and no temporary. A symbolic link or anything other than a regular file at the
     * name is refused, because the caller named that path, not wherever a link planted there points;
     * a character device the user named ({@code /dev/null}, {@code /dev/full}) is written in place.
     */
    public static void replace(Path file, Content content) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new FileSystemException(
                    file.toString(), null, "is a symbolic link; not followed (name the file it points to)");
        }
        String kind = nonRegularKind(file);
        if (kind != null) {
            throw new FileSystemException(file.toString(), null, kind);
        }
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            // a character device: nothing to rename over, and nothing part-written to leave behind
            try (FileChannel ch = FileChannel.open(
                            file,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            LinkOption.NOFOLLOW_LINKS);
                    OutputStream out = stream(ch)) {
                content.writeTo(out);
            }
            return;
        }
        Path tmp = writeTemporary(file, content);
        try {
            try {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
            } catch (NoSuchFileException absent) {
                // a new file: the temporary's own mode (0666 less the umask) is the one it gets
            }
            // rename(2) replaces the entry at the name itself: a link swapped in after the check is
            // replaced, never followed; a directory swapped in makes the rename fail.
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Writes {@code content} into a new temporary file beside {@code file} (created exclusively, links
     * not followed) and syncs it; on any failure the temporary is removed and the failure rethrown.
     */
    private static Path writeTemporary(Path file, Content content) throws IOException {
        Path abs = file.toAbsolutePath();
        String name = abs.getFileName() == null ? "" : abs.getFileName().toString();
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            throw new FileSystemException(file.toString(), null, "names a folder, not a file");
        }
        // .NAME.tmp-<pid>-<start>-RANDOM: a temporary a killed run left is removed by the next writer of NAME
        String prefix = "." + (name.length() > 180 ? name.substring(0, 180) : name) + ".tmp-";
        CreatorMark.sweepFiles(abs.getParent(), prefix);
        String base = prefix + CreatorMark.tag() + "-";
        Path tmp = null;
        for (int i = 0; tmp == null; i++) {
            Path candidate = abs.resolveSibling(base + Long.toHexString(RANDOM.nextLong() >>> 1));
            try {
                FileChannel.open(candidate, NEW).close();
                tmp = candidate;
            } catch (FileAlreadyExistsException taken) {
                if (i > 100) {
                    throw taken;
                }
            }
        }
        boolean done = false;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            try (OutputStream out = stream(ch)) {
                content.writeTo(out);
            }
            ch.force(true); // the data is on disk before the name points at it
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
        return tmp;
    }

    /** A buffered stream into {@code ch} whose close flushes but leaves {@code ch} open. */
    private static OutputStream stream(FileChannel ch) {
        OutputStream raw = Channels.newOutputStream(ch);
        return new BufferedOutputStream(
                new FilterOutputStream(raw) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        raw.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush();
                    }
                },
                1 << 16);
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
        replace(file, text.getBytes(StandardCharsets.UTF_8));
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
            return String.format(Locale.ROOT, "owned by uid %d, not by root or us (uid %d)", uid, ourUid());
        }
        if ((mode & 0022) != 0 && !(stickyOk && (mode & 01000) != 0)) {
            return String.format(
                    Locale.ROOT, "writable by others (mode %o)%s", mode & 07777, stickyOk ? " and not sticky" : "");
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
                } catch (FileAlreadyExistsException raced) {
                    throw new BadInput(
                            option + " " + dir + ": appeared while it was being created; choose another folder");
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
