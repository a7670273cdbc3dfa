package heimdall.lab.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.HostFacts;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A results folder: written once, never overwritten. Either chosen by the user ({@code --out DIR},
 * which must not exist or be empty) or allocated as {@code results/<yyyy-mm-dd>-<host>-<reproduction>[-N]/},
 * where N counts up until a name is free; the directory is created atomically so two runs never share
 * one. (Folders made before the reproduction was in the name are {@code <date>-<host>[-N]}.)
 *
 * <p>Nothing is put in it until there is something to keep ({@code plots/} is made by the plots), so
 * a run that ends before measuring leaves an empty folder the user can give to {@code --out} again,
 * and {@link #discardIfEmpty()} removes it only when this run made it.
 */
public final class ResultsFolder {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code summary.json}'s schema: 1 was a bare array of rows; 2 wraps them with the run's facts. */
    public static final int SUMMARY_SCHEMA = 2;

    private final Path dir;
    private final boolean madeHere;

    private ResultsFolder(Path dir, boolean madeHere) {
        this.dir = dir;
        this.madeHere = madeHere;
    }

    /** The folder's path. */
    public Path path() {
        return dir;
    }

    /**
     * Allocates a fresh {@code <root>/<date>-<host>-<reproduction>[-N]} folder, so its name says which
     * reproduction made it ({@code 2026-12-01-vm-floor-cost-2}).
     */
    public static ResultsFolder allocate(Path root, LocalDate date, String host, String reproduction) {
        String base = date + "-" + host.replaceAll("[^A-Za-z0-9._-]", "_") + "-"
                + reproduction.replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            Files.createDirectories(root);
            for (int n = 1; ; n++) {
                Path candidate = root.resolve(n == 1 ? base : base + "-" + n);
                try {
                    Files.createDirectory(candidate);
                    return new ResultsFolder(candidate, true);
                } catch (FileAlreadyExistsException taken) {
                    // someone's earlier results: never reuse, try the next number
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a results folder under " + root, e);
        }
    }

    /**
     * Uses {@code dir} as chosen with {@code --out}: absent (then created, with its parents), or an
     * empty directory of our own. Refused (bad input): a symbolic link at {@code dir} (the run would
     * write wherever it points), an existing folder someone else owns or can write into, or one inside
     * a folder others can write into without the sticky bit (they could swap ours for a link).
     */
    public static ResultsFolder chosen(Path dir) {
        try {
            if (Files.isSymbolicLink(dir)) {
                throw new BadInput("--out " + dir + ": is a symbolic link; results are written only into a real folder (name it directly)");
            }
            Path parent = dir.toAbsolutePath().getParent();
            try {
                Files.createDirectories(parent);
            } catch (FileAlreadyExistsException notDir) {
                throw new BadInput("--out " + dir + ": cannot create: " + notDir.getFile() + " is not a directory", notDir);
            }
            String unsafe = SafeFiles.othersCanWrite(parent, true);
            if (unsafe != null) {
                throw new BadInput("--out " + dir + ": its parent " + parent + " is " + unsafe + "; others could replace the folder");
            }
            boolean existed = Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
            if (existed) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BadInput("--out " + dir + ": exists and is not a directory");
                }
                try (Stream<Path> entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new BadInput("--out " + dir
                                + ": exists and is not empty; results are never overwritten, choose another folder");
                    }
                }
                String why = SafeFiles.othersCanWrite(dir, false);
                if (why != null) {
                    throw new BadInput("--out " + dir + ": an existing folder others could change: " + why + "; choose a new name");
                }
            } else {
                try {
                    Files.createDirectory(dir);
                } catch (FileAlreadyExistsException raced) {
                    throw new BadInput("--out " + dir + ": appeared while it was being created; choose another folder");
                }
            }
            return new ResultsFolder(dir, !existed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create results folder " + dir, e);
        }
    }

    /**
     * Writes {@code environment.json}: the reproduction and whether (and how) a stop cut it short, the
     * same three keys for every reproduction, then {@code started} and {@code finished}, the host's facts
     * ({@link HostFacts}) and the reproduction's own {@code settings}: a record whose Jackson properties
     * (named and ordered with {@code @JsonProperty}/{@code @JsonPropertyOrder}) follow in their order.
     */
    public Path writeEnvironment(String reproduction, Optional<Interruption.Cause> interruption, Instant started, Instant finished,
            Host host, Object settings) {
        ObjectNode facts = JSON.createObjectNode();
        facts.put("started", started.toString());
        facts.put("finished", finished.toString());
        merge(facts, JSON.valueToTree(HostFacts.of(host)), "the host's facts");
        return writeEnvironment(reproduction, interruption, merge(facts, JSON.valueToTree(settings), "the settings"));
    }

    /**
     * Writes {@code environment.json}: the reproduction and whether (and how) a stop cut it short, the
     * same three keys for every reproduction, then {@code facts}, a record (or a map) that Jackson writes as
     * one object, its properties in their order. A fact may not repeat one of the three.
     */
    public Path writeEnvironment(String reproduction, Optional<Interruption.Cause> interruption, Object facts) {
        ObjectNode env = JSON.createObjectNode();
        env.put("reproduction", reproduction);
        env.put("interrupted", interruption.isPresent());
        env.put("interruption", interruption.map(Interruption.Cause::said).orElse(null));
        return writeJson("environment.json", merge(env, JSON.valueToTree(facts), "the facts"));
    }

    /** Adds {@code more}'s properties after {@code into}'s; a name already there is a bug in the caller, not data. */
    private static ObjectNode merge(ObjectNode into, com.fasterxml.jackson.databind.JsonNode more, String what) {
        if (!more.isObject()) {
            throw new IllegalArgumentException("environment.json: " + what + " must be one JSON object, not " + more.getNodeType());
        }
        more.fields().forEachRemaining(e -> {
            if (into.has(e.getKey())) {
                throw new IllegalArgumentException("environment.json: " + what + " repeat the key " + e.getKey());
            }
            into.set(e.getKey(), e.getValue());
        });
        return into;
    }

    /** The JVM that ran the measurement, as {@code environment.json}'s {@code java} gives it. */
    public static String javaVm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }

    /**
     * Writes {@code table.md}; after a stop its first line says so in bold, with what falls short
     * ({@code shortfall}, e.g. "fewer runs than asked (runs_completed in summary.json)"), so a reader of the
     * table alone cannot take a partial run for a whole one.
     */
    public Path writeTable(Optional<Interruption.Cause> interruption, String shortfall, String table) {
        return writeText("table.md", interruption.map(c -> "**" + Character.toUpperCase(c.said().charAt(0)) + c.said().substring(1)
                + ": " + shortfall + ".**\n\n" + table).orElse(table));
    }

    /**
     * Writes {@code summary.json}: the reproduction's name, {@link #SUMMARY_SCHEMA}, whether a signal
     * stopped the run (and which: {@code "interruption": "terminated (SIGTERM)"}; {@code "signal"} is
     * null for a notebook or jshell interrupt), and its rows.
     */
    public Path writeSummary(String reproduction, Optional<Interruption.Cause> interruption, List<?> rows) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("reproduction", reproduction);
        top.put("schema_version", SUMMARY_SCHEMA);
        top.put("interrupted", interruption.isPresent());
        top.put("interruption", interruption.map(Interruption.Cause::said).orElse(null));
        top.put("signal", interruption.filter(Interruption.Cause::isSignal).map(Interruption.Cause::name).orElse(null));
        top.put("rows", rows);
        return writeJson("summary.json", top);
    }

    /**
     * Removes the folder when it holds nothing and this run made it ({@code results/...} or an absent
     * {@code --out}): a run that wrote nothing leaves nothing. A folder the user made is kept, empty
     * and so usable as {@code --out} again.
     *
     * @return whether the folder is gone
     */
    public boolean discardIfEmpty() {
        try {
            Path plots = dir.resolve("plots");
            if (Files.isDirectory(plots, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> s = Files.list(plots)) {
                    if (s.findAny().isEmpty()) {
                        Files.delete(plots);
                    }
                }
            }
            if (!madeHere) {
                return false;
            }
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    return false;
                }
            }
            Files.delete(dir);
            return true;
        } catch (IOException e) {
            return false; // left as it is: results folders are never overwritten anyway
        }
    }

    /**
     * Removes everything in the folder (it was absent or empty when this run took it, so all of it is
     * this run's, part-written files included), then the folder itself if this run made it: what an
     * interruption leaves when the reproduction kept nothing partial. Links are removed, never followed.
     *
     * @return whether the folder is gone
     */
    public boolean discardWritten() {
        try {
            Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) throws IOException {
                    Files.delete(f);
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    if (!d.equals(dir)) {
                        Files.delete(d);
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the part-written " + dir, e);
        }
        return discardIfEmpty();
    }

    /** Deletes a file this run wrote into the folder (e.g. an empty samples file), if it is there. */
    public void deleteOwn(String name) {
        try {
            Files.deleteIfExists(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir.resolve(name), e);
        }
    }

    /** Writes {@code value} as indented JSON into a new file; an existing entry (file, link, FIFO) is an error. */
    public Path writeJson(String name, Object value) {
        Path file = dir.resolve(name);
        try (OutputStream out = SafeFiles.newFile(file)) {
            JSON.writeValue(out, value);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Writes text into a new file; an existing entry (file, link, FIFO) is an error. A {@code table.md} written in a
     * {@code ./lab vm} guest starts with a line saying so ({@link #vmHeader}), so no reader takes emulated figures
     * for native ones.
     */
    public Path writeText(String name, String text) {
        Path file = dir.resolve(name);
        if (name.equals("table.md")) {
            text = heimdall.lab.vm.VmFacts.current().map(ResultsFolder::vmHeader).orElse("") + text;
        }
        try {
            SafeFiles.writeNew(file, text.getBytes(StandardCharsets.UTF_8));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The first line of a guest's {@code table.md}: the kernel, and under TCG that its figures are emulated. */
    static String vmHeader(heimdall.lab.vm.VmFacts vm) {
        return "**Measured in a VM (" + vm.kernel() + ", kernel " + vm.release() + ", " + vm.vcpus() + " vCPUs, "
                + vm.accelerator() + (vm.emulated() ? "), emulated (TCG): ratios within this folder only" : ")") + ".**\n\n";
    }

    /** A path for a new file inside the folder (e.g. {@code plots/x.png}), checked not to exist (links included). */
    public Path newFile(String name) {
        Path file = dir.resolve(name);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException(file + " exists: results are never overwritten");
        }
        return file;
    }
}
