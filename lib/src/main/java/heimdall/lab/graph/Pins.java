package heimdall.lab.graph;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.Io;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * SHA-256 pins in {@code sha256sum} format ({@code <hex>  <file name>} per line, {@code *} before a
 * name allowed), as kept in {@code fixtures/graphs/SHA256SUMS}. A pinned file whose digest differs is
 * bad input: the checked-in graph is not the one the results were computed from.
 *
 * <p>Pins are security input and fail closed. The file is read through {@link HostileFiles} (a link,
 * FIFO or directory at its name is refused with the reason, not taken for "no pins"), must be UTF-8,
 * and a pin names a file by its path relative to the folder of {@code SHA256SUMS}, as
 * {@code sha256sum -c} reads it there: a line for {@code other/dir/abcdf.exec.nodes.arrow} or
 * {@code /etc/x} pins those files, never {@code abcdf.exec.nodes.arrow} beside it. A file named twice
 * (even as {@code ./name}) is refused, since which line would count is then a guess.
 */
public final class Pins {
    /** The pin file's name, looked for beside the graph files. */
    public static final String FILE_NAME = "SHA256SUMS";
    /** A pin file lists a few files; 4 MiB bounds what is read. */
    static final long MAX_BYTES = 4L << 20;

    private final Path source;
    /** Digest by the name as written, normalized ({@code ./a} is {@code a}), relative to the source's folder. */
    private final Map<String, String> byName;

    private Pins(Path source, Map<String, String> byName) {
        this.source = source;
        this.byName = byName;
    }

    /** Reads a pin file; a malformed line is bad input naming the line. */
    public static Pins load(Path file) {
        return parse(file, HostileFiles.read(file, MAX_BYTES));
    }

    /** Pins from a pin file's bytes (read once by the caller); {@code file} names it in errors. */
    static Pins parse(Path file, byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw BadInput.at(file, "file", "not UTF-8 text (a pin file lists '<sha256 hex>  <file name>' lines)");
        }
        Map<String, String> pins = new LinkedHashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        int no = 0;
        for (String line : text.split("\n", -1)) {
            no++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.strip().split("\\s+", 2);
            if (parts.length != 2 || !parts[0].matches("[0-9a-fA-F]{64}")) {
                throw BadInput.at(file, "line " + no, "not '<sha256 hex>  <file name>'");
            }
            String name = key(file, no, parts[1].startsWith("*") ? parts[1].substring(1) : parts[1]);
            Integer first = lineOf.putIfAbsent(name, no);
            if (first != null) {
                throw BadInput.at(
                        file,
                        "line " + no,
                        "'" + name + "' is pinned twice (also on line " + first + "); a file has one pin");
            }
            pins.put(name, parts[0].toLowerCase(Locale.ROOT));
        }
        return new Pins(file, pins);
    }

    /** A pinned name as the folder of SHA256SUMS resolves it: normalized, {@code ./} and {@code a/../} removed. */
    private static String key(Path file, int no, String name) {
        try {
            String k = Path.of(name).normalize().toString();
            if (k.isEmpty()) {
                throw BadInput.at(file, "line " + no, "names no file");
            }
            return k;
        } catch (InvalidPathException e) {
            throw BadInput.at(file, "line " + no, "not a file name");
        }
    }

    /**
     * The pins beside {@code file} (its directory's SHA256SUMS), if that name holds nothing. Anything
     * but a regular file there (a link, a FIFO, a directory) is bad input, never "no pins".
     */
    public static Optional<Pins> beside(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null) {
            return Optional.empty();
        }
        Path sums = dir.resolve(FILE_NAME);
        return HostileFiles.readIfExists(sums, MAX_BYTES).map(bytes -> parse(sums, bytes));
    }

    /**
     * The pinned digest of {@code file}, if a line names it: {@code file} must be in the folder of this
     * SHA256SUMS, and a line must name it by that folder's relative path (its file name).
     */
    public Optional<String> pinFor(Path file) {
        Path folder = source.toAbsolutePath().normalize().getParent();
        Path at = file.toAbsolutePath().normalize();
        if (folder == null || !folder.equals(at.getParent())) {
            return Optional.empty();
        }
        return pinNamed(at.getFileName().toString());
    }

    /** The pinned digest of the file a line names as {@code name} (relative to this SHA256SUMS's folder). */
    public Optional<String> pinNamed(String name) {
        return Optional.ofNullable(byName.get(Path.of(name).normalize().toString()));
    }

    public Path source() {
        return source;
    }

    /**
     * Checks {@code file} against its pin.
     *
     * @return the file's digest, or empty when the file is not listed
     * @throws BadInput when listed and the digest differs
     */
    public Optional<String> verify(Path file) {
        Optional<String> pin = pinFor(file);
        if (pin.isEmpty()) {
            return Optional.empty();
        }
        String actual = sha256(file);
        if (!actual.equals(pin.get())) {
            throw BadInput.at(
                    file, "sha256", "pinned " + pin.get() + " in " + source + " but the file's digest is " + actual);
        }
        return Optional.of(actual);
    }

    /** The SHA-256 of a file's bytes, lower-case hex. */
    public static String sha256(Path file) {
        try (FileChannel in = HostileFiles.channel(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            while (in.read(buf) > 0) {
                md.update(buf.flip());
                buf.clear();
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw BadInput.at(file, "file", "cannot read: " + Io.reason(e));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The SHA-256 of {@code bytes}, lower-case hex. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One {@code sha256sum} line for a file. */
    public static String line(Path file) {
        return sha256(file) + "  " + file.getFileName();
    }

    /**
     * Pins {@code files} (in {@code dir}) in {@code dir}'s SHA256SUMS: their lines are written anew, other
     * files' lines kept, all sorted by name; the file is made if missing. The existing file is read as
     * {@link #load} reads it (a malformed or doubly pinned one is refused, not patched) and replaced
     * through {@link SafeFiles#replace} (a link or FIFO at the name is refused). Callers write only into
     * a folder others cannot change ({@link SafeFiles#ownFolder}).
     */
    public static void rewrite(Path dir, List<Path> files) throws IOException {
        Path sums = dir.resolve(FILE_NAME);
        Map<String, String> lines = new TreeMap<>();
        HostileFiles.readIfExists(sums, MAX_BYTES)
                .map(bytes -> parse(sums, bytes))
                .ifPresent(p -> p.byName.forEach((name, sha) -> lines.put(name, sha + "  " + name)));
        for (Path p : files) {
            lines.put(p.getFileName().toString(), line(p));
        }
        SafeFiles.replace(sums, String.join("\n", lines.values()) + (lines.isEmpty() ? "" : "\n"));
    }
}
