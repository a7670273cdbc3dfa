package heimdall.lab.graph;

import heimdall.lab.BadInput;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * SHA-256 pins in {@code sha256sum} format ({@code <hex>  <file name>} per line, {@code *} before a
 * name allowed), as kept in {@code fixtures/graphs/SHA256SUMS}. A pinned file whose digest differs is
 * bad input: the checked-in graph is not the one the results were computed from.
 */
public final class Pins {
    /** The pin file's name, looked for beside the graph files. */
    public static final String FILE_NAME = "SHA256SUMS";

    private final Path source;
    private final Map<String, String> byName;

    private Pins(Path source, Map<String, String> byName) {
        this.source = source;
        this.byName = byName;
    }

    /** Reads a pin file; a malformed line is bad input naming the line. */
    public static Pins load(Path file) {
        Map<String, String> pins = new LinkedHashMap<>();
        try {
            int no = 0;
            for (String line : Files.readAllLines(file)) {
                no++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.trim().split("\\s+", 2);
                if (parts.length != 2 || !parts[0].matches("[0-9a-fA-F]{64}")) {
                    throw BadInput.at(file, "line " + no, "not '<sha256 hex>  <file name>'");
                }
                String name = parts[1].startsWith("*") ? parts[1].substring(1) : parts[1];
                pins.put(Path.of(name).getFileName().toString(), parts[0].toLowerCase());
            }
        } catch (IOException e) {
            throw BadInput.at(file, "file", "cannot read: " + e.getMessage());
        }
        return new Pins(file, pins);
    }

    /** The pins beside {@code file} (its directory's SHA256SUMS), if that file exists. */
    public static Optional<Pins> beside(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        Path sums = dir == null ? null : dir.resolve(FILE_NAME);
        return sums != null && Files.isRegularFile(sums) ? Optional.of(load(sums)) : Optional.empty();
    }

    /** The pinned digest for a file name, if listed. */
    public Optional<String> pinFor(Path file) {
        return Optional.ofNullable(byName.get(file.getFileName().toString()));
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
            throw BadInput.at(file, "sha256", "pinned " + pin.get() + " in " + source + " but the file's digest is " + actual);
        }
        return Optional.of(actual);
    }

    /** The SHA-256 of a file's bytes, lower-case hex. */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int r; (r = in.read(buf)) > 0; ) {
                md.update(buf, 0, r);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw BadInput.at(file, "file", "cannot read: " + e.getMessage());
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
     * Pins {@code files} in {@code dir}'s SHA256SUMS: their lines are written anew, other files' lines
     * kept, all sorted by file name; the file is made if missing.
     */
    public static void rewrite(Path dir, List<Path> files) throws IOException {
        Path sums = dir.resolve(FILE_NAME);
        Map<String, String> lines = new TreeMap<>();
        if (Files.exists(sums)) {
            for (String line : Files.readAllLines(sums)) {
                String[] parts = line.trim().split("\\s+", 2);
                if (parts.length == 2) {
                    lines.put(parts[1].replaceFirst("^\\*", ""), line);
                }
            }
        }
        for (Path p : files) {
            lines.put(p.getFileName().toString(), line(p));
        }
        SafeFiles.replace(sums, String.join("\n", lines.values()) + (lines.isEmpty() ? "" : "\n"));
    }
}
