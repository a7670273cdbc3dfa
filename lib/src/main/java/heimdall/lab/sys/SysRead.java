package heimdall.lab.sys;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads one kernel file for the host record: the text, or {@code null} with the reason written into
 * the record's {@code unread} map under the field's name, so environment.json says why a value is
 * missing instead of guessing one.
 */
final class SysRead {
    private SysRead() {}

    /** The file's text, trimmed; {@code null} (and {@code unread.put(field, why)}) when it cannot be read. */
    static String text(Path file, Map<String, String> unread, String field) {
        try {
            return Files.readString(file).trim();
        } catch (IOException | RuntimeException e) {
            unread.put(field, why(file, e));
            return null;
        }
    }

    /** The file's lines; {@code null} (and {@code unread.put(field, why)}) when it cannot be read. */
    static List<String> lines(Path file, Map<String, String> unread, String field) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | RuntimeException e) {
            unread.put(field, why(file, e));
            return null;
        }
    }

    /** The file's bytes; {@code null} (and {@code unread.put(field, why)}) when it cannot be read. */
    static byte[] bytes(Path file, Map<String, String> unread, String field) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            unread.put(field, why(file, e));
            return null;
        }
    }

    /** A short reason naming the file: absent, permission denied, or the exception's own words. */
    static String why(Path file, Exception e) {
        if (e instanceof NoSuchFileException) {
            return file + " does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return file + ": permission denied";
        }
        return file + ": " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
