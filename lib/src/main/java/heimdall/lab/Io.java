package heimdall.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reading and writing the files a user names on the command line, with failures turned into
 * {@link BadInput} that names the file, what was being done and why ({@code "out.bpf: cannot write:
 * no space left on device"}), so the command line reports them with status 2 and no stack trace.
 */
public final class Io {
    private Io() {}

    /**
     * Why an I/O operation failed, in words: {@code "no such file or directory"}, {@code "permission
     * denied"}, {@code "is a directory"}, {@code "no space left on device"}, … (without the file name).
     */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (why == null || why.isBlank()) {
            return e.getClass().getSimpleName();
        }
        // The JDK passes strerror() through ("No space left on device"): lower-case it for our sentences.
        return why.length() > 1 && Character.isUpperCase(why.charAt(0)) && Character.isLowerCase(why.charAt(1))
                ? why.substring(0, 1).toLowerCase(Locale.ROOT) + why.substring(1)
                : why;
    }

    /**
     * One line for an I/O failure that carries no file of ours: the file the JDK names (if any) and the
     * reason, e.g. {@code "/nonexistent/x: no such file or directory"}.
     */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + reason(e);
        }
        return reason(e);
    }

    /** Bad input: {@code file: cannot ACTION: reason}. */
    public static BadInput failed(Path file, String action, IOException e) {
        return new BadInput(file + ": cannot " + action + ": " + reason(e), e);
    }

    /**
     * The bytes of {@code file}, at most {@code limit} of them: a larger file is refused without reading
     * past the limit, so a user's file cannot exhaust the heap; a symbolic link at the name, a FIFO, a
     * device or a directory is refused before anything is read ({@link HostileFiles}).
     *
     * @throws BadInput naming the file and the reason when it cannot be read or is over the limit
     */
    public static byte[] read(Path file, long limit) {
        // One opener for every file a user or a shared folder supplies: no link followed at the name, no
        // FIFO waited on, regular files only, bounded (see HostileFiles).
        return HostileFiles.read(file, limit);
    }

    /**
     * {@code file} when it is a file that can be read (not a directory, not missing), else bad input
     * naming it and the reason; for checking a user's file before work starts.
     */
    public static Path requireReadable(Path file) {
        if (file.toString().isEmpty()) {
            throw new BadInput("empty file name: name a file");
        }
        if (Files.isDirectory(file)) {
            throw new BadInput(file + ": cannot read: is a directory");
        }
        if (!Files.exists(file)) {
            throw new BadInput(file + ": cannot read: no such file or directory");
        }
        if (!Files.isReadable(file)) {
            throw new BadInput(file + ": cannot read: permission denied");
        }
        return file;
    }

    /** {@link #read(Path, long)} as UTF-8 text; bytes that are not UTF-8 are bad input, never replaced. */
    public static String readString(Path file, long limit) {
        byte[] bytes = read(file, limit);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new BadInput(file + ": cannot read: not UTF-8 text", e);
        }
    }

    /**
     * One line for the I/O failure behind {@code t} (itself or a cause), or null when there is none:
     * what was being done when a wrapper said so ({@code "cannot write /r/summary.json"}), the file the
     * JDK names, and the reason ({@code "no space left on device"}).
     */
    public static String failureOf(Throwable t) {
        String context = null;
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof UncheckedIOException u
                    && u.getCause() != null
                    && u.getMessage() != null
                    && !u.getMessage().equals(u.getCause().toString())) {
                context = u.getMessage();
            }
            if (c instanceof IOException io) {
                String d = describe(io);
                if (context == null) {
                    return d;
                }
                // The wrapper usually names the file already; the JDK's name is then left out.
                return context + ": "
                        + (io instanceof FileSystemException f && f.getFile() != null && !context.contains(f.getFile())
                                ? d
                                : reason(io));
            }
        }
        return null;
    }
}
