package heimdall.lab.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import heimdall.lab.BadInput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.stream.Stream;

/**
 * A results folder: written once, never overwritten. Either chosen by the user ({@code --out DIR},
 * which must not exist or be empty) or allocated as {@code results/<yyyy-mm-dd>-<host>[-N]/}, where
 * N counts up until a name is free; the directory is created atomically so two runs never share one.
 */
public final class ResultsFolder {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;

    private ResultsFolder(Path dir) {
        this.dir = dir;
    }

    /** The folder's path. */
    public Path path() {
        return dir;
    }

    /** Allocates a fresh {@code <root>/<date>-<host>[-N]} folder. */
    public static ResultsFolder allocate(Path root, LocalDate date, String host) {
        String base = date + "-" + host.replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            Files.createDirectories(root);
            for (int n = 1; ; n++) {
                Path candidate = root.resolve(n == 1 ? base : base + "-" + n);
                try {
                    Files.createDirectory(candidate);
                    Files.createDirectory(candidate.resolve("plots"));
                    return new ResultsFolder(candidate);
                } catch (FileAlreadyExistsException taken) {
                    // someone's earlier results: never reuse, try the next number
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a results folder under " + root, e);
        }
    }

    /** Uses {@code dir} as chosen with {@code --out}; refused when it exists and is not empty. */
    public static ResultsFolder chosen(Path dir) {
        try {
            if (Files.exists(dir)) {
                if (!Files.isDirectory(dir)) {
                    throw new BadInput("--out " + dir + ": exists and is not a directory");
                }
                try (Stream<Path> entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new BadInput("--out " + dir
                                + ": exists and is not empty; results are never overwritten, choose another folder");
                    }
                }
            }
            Files.createDirectories(dir.resolve("plots"));
            return new ResultsFolder(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create results folder " + dir, e);
        }
    }

    /** Writes {@code value} as indented JSON into a new file; an existing file is an error. */
    public Path writeJson(String name, Object value) {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW)) {
            JSON.writeValue(out, value);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Writes text into a new file; an existing file is an error. */
    public Path writeText(String name, String text) {
        Path file = dir.resolve(name);
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** A path for a new file inside the folder (e.g. {@code plots/x.png}), checked not to exist. */
    public Path newFile(String name) {
        Path file = dir.resolve(name);
        if (Files.exists(file)) {
            throw new IllegalStateException(file + " exists: results are never overwritten");
        }
        return file;
    }
}
