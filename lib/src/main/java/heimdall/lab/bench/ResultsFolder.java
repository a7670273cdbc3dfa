package heimdall.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.CreatorMark;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.HostFacts;
import heimdall.lab.sys.Renames;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.VmFacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A results folder: written once, never overwritten. Either chosen by the user ({@code --out DIR},
 * which must not exist or be empty) or allocated as {@code results/<yyyy-mm-dd>-<host>-<reproduction>[-N]/},
 * where N counts up until a name is free; the directory is created atomically so two runs never share
 * one. (Folders made before the reproduction was in the name are {@code <date>-<host>[-N]}.)
 *
 * <p>The run writes into a hidden temporary folder beside the target, {@code .<name>.partial-<random>}
 * in the same parent (mode 0700, created exclusively, carrying a {@link CreatorMark}), and
 * {@link #publish()} renames it into place once it is complete (or complete and marked interrupted).
 * So a run killed at any moment (SIGKILL, a full disk) leaves either no folder at the target or a
 * readable one, never a part-written one; the next run that writes results into the same parent removes
 * the temporary a dead run of ours left there ({@link CreatorMark#sweep}). Until then {@link #path()}
 * is the temporary, afterwards the target.
 *
 * <p>A run that ends before measuring publishes nothing: an absent {@code --out} stays absent, the
 * user's own empty one stays empty and can be given to {@code --out} again.
 */
public final class ResultsFolder {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code summary.json}'s schema, as {@link SummaryJson#SCHEMA} (the one constant) writes and reads it. */
    public static final int SUMMARY_SCHEMA = SummaryJson.SCHEMA;

    /**
     * Where the results go: {@code --out}, or the first free {@code results/<date>-...[-N]} name (then {@link
     * #allocated}).
     */
    private final Path target;
    /** The allocated form of the target's name, numbered until free at publishing; null for {@code --out}. */
    private final String allocated;
    /** {@code --out} was an empty folder of the user's (ours, checked); publishing replaces it while still empty. */
    private final boolean targetExisted;

    private volatile Path dir;
    private volatile boolean published;
    /**
     * What this run wrote, kept so the plots and distributions are drawn from memory ({@link #written}):
     * each JSON file's bytes as written, and the samples file's counts.
     */
    private final Map<String, byte[]> jsonWritten = new ConcurrentHashMap<>();

    private volatile SamplesFile samples;
    /** {@code table.md} as written, printed from here ({@link #tableWritten}). */
    private volatile String tableWritten;
    /** A {@code --quick} run's folder ({@link #markQuick}). */
    private volatile boolean quick;
    /** Folders of this JVM not yet published: removed by a shutdown hook, so an exit leaves no temporary. */
    private static final Set<ResultsFolder> UNPUBLISHED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> UNPUBLISHED.forEach(ResultsFolder::abandon), "heimdall-results-reaper"));
    }

    private ResultsFolder(Path target, String allocated, boolean targetExisted) {
        this.target = target;
        this.allocated = allocated;
        this.targetExisted = targetExisted;
        Path parent = target.toAbsolutePath().getParent();
        CreatorMark.sweep(parent, ResultsFolder::isTemporaryName);
        this.dir = makeTemporary(parent, target.getFileName().toString());
        UNPUBLISHED.add(this);
    }

    /** The hidden temporaries' names: {@code .<name>.partial-<random>}. */
    private static final String PARTIAL = ".partial-";

    static boolean isTemporaryName(String n) {
        return n.startsWith(".") && n.lastIndexOf(PARTIAL) > 0;
    }

    private static Path makeTemporary(Path parent, String name) {
        String base = "." + (name.length() > 180 ? name.substring(0, 180) : name) + PARTIAL;
        SecureRandom random = new SecureRandom();
        for (int i = 0; ; i++) {
            Path candidate = parent.resolve(base + Long.toHexString(random.nextLong() >>> 1));
            try {
                Path made = Files.createDirectory(
                        candidate, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                try {
                    CreatorMark.mark(made);
                } catch (IOException | RuntimeException e) {
                    SafeFiles.removeTree(made);
                    throw e;
                }
                return made;
            } catch (FileAlreadyExistsException taken) {
                if (i > 100) {
                    throw new UncheckedIOException("cannot make a temporary results folder in " + parent, taken);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot make a temporary results folder in " + parent + ": " + Io.reason(e), e);
            }
        }
    }

    /** Where the run writes now: the hidden temporary until {@link #publish()}, then the results folder. */
    public Path path() {
        return dir;
    }

    /** Where the results are (or will be once published); for messages that name the results folder. */
    public Path target() {
        return published ? dir : target;
    }

    /** Whether {@link #publish()} has put the folder in place. */
    public boolean published() {
        return published;
    }

    /**
     * Puts the finished folder in place and returns where it is; idempotent. The marker goes, the mode
     * becomes a results folder's (0755 less the umask's usual bits; the temporary was 0700), then:
     * <ul>
     *   <li>{@code --out} absent at the start: renamed with {@code RENAME_NOREPLACE}, so a folder that
     *   appeared there meanwhile (anyone's, even empty) is never replaced;
     *   <li>{@code --out} the user's empty folder: renamed with plain {@code rename(2)}, which replaces an
     *   empty directory in one step and fails on a non-empty one, so results are never mixed into or
     *   written over anything (the folder was checked to be ours and writable by no one else);
     *   <li>{@code results/<date>-...}: the first free name of {@code -N}, each tried with
     *   {@code RENAME_NOREPLACE}.
     * </ul>
     * When the target cannot be taken the results stay in the temporary, unmarked (never swept), and the
     * refusal names it.
     */
    public synchronized Path publish() {
        if (published) {
            return dir;
        }
        try {
            CreatorMark.unmark(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path to = target;
            if (allocated != null) {
                // someone's earlier results at a name: never reused, the next number is tried
                for (int n = 2; !Renames.renameNoReplace(dir, to); n++) {
                    to = target.resolveSibling(allocated + "-" + n);
                }
            } else if (targetExisted) {
                try {
                    Files.move(dir, to, StandardCopyOption.ATOMIC_MOVE);
                } catch (DirectoryNotEmptyException | FileAlreadyExistsException changed) {
                    throw notPlaced("is no longer empty");
                } catch (FileSystemException other) {
                    // rename(2)'s ENOTEMPTY arrives as a plain FileSystemException
                    throw notPlaced(
                            String.valueOf(other.getReason())
                                            .toLowerCase(Locale.ROOT)
                                            .contains("not empty")
                                    ? "is no longer empty"
                                    : "cannot be replaced: " + Io.reason(other));
                }
            } else if (!Renames.renameNoReplace(dir, to)) {
                throw notPlaced("appeared while the run went on");
            }
            dir = to;
            published = true;
            UNPUBLISHED.remove(this);
            return to;
        } catch (IOException e) {
            UNPUBLISHED.remove(this);
            throw new UncheckedIOException(
                    "cannot put the results folder in place at " + target + " (results kept in " + dir + ")", e);
        }
    }

    private Refusal notPlaced(String why) {
        UNPUBLISHED.remove(this); // kept, and unmarked: what was measured is not removed by anyone
        return new Refusal("--out " + target + ": " + why + "; results are never written over anything, so they "
                + "were left in " + dir + " (rename it yourself)");
    }

    /**
     * Removes the unpublished temporary and everything in it (links removed, never followed); nothing
     * happens once published. What a run that failed or was stopped before it could be kept leaves:
     * nothing at the target (the user's own empty {@code --out} stays as it was).
     */
    public synchronized void abandon() {
        if (published) {
            return;
        }
        UNPUBLISHED.remove(this);
        forgetWritten();
        SafeFiles.removeTree(dir);
    }

    /** What {@link #written} holds is gone with the files. */
    private void forgetWritten() {
        jsonWritten.clear();
        samples = null;
        tableWritten = null;
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
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a results folder under " + root, e);
        }
        // The name is taken for real when the run is published (RENAME_NOREPLACE, counting up from base).
        return new ResultsFolder(root.resolve(base), base, false);
    }

    /**
     * The default results folder for a run of {@code reproduction} started now on this host: {@link #allocate}
     * under the project's {@code results/} ({@link Fixtures#resultsRoot()}).
     */
    public static ResultsFolder defaultFolder(String reproduction) {
        return allocate(Fixtures.resultsRoot(), LocalDate.now(), Host.capture().hostname(), reproduction);
    }

    /**
     * Uses {@code dir} as chosen with {@code --out}: absent (its parents are created; the folder itself
     * appears only when published), or an empty directory of our own. Refused (bad input): a symbolic link at {@code
     * dir} (the run would
     * write wherever it points), an existing folder someone else owns or can write into, or one inside
     * a folder others can write into without the sticky bit (they could swap ours for a link).
     */
    public static ResultsFolder chosen(Path dir) {
        try {
            if (Files.isSymbolicLink(dir)) {
                throw new BadInput("--out " + dir
                        + ": is a symbolic link; results are written only into a real folder (name it directly)");
            }
            Path parent = dir.toAbsolutePath().getParent();
            try {
                Files.createDirectories(parent);
            } catch (FileAlreadyExistsException notDir) {
                throw new BadInput(
                        "--out " + dir + ": cannot create: " + notDir.getFile() + " is not a directory", notDir);
            }
            String unsafe = SafeFiles.othersCanWrite(parent, true);
            if (unsafe != null) {
                throw new BadInput("--out " + dir + ": its parent " + parent + " is " + unsafe
                        + "; others could replace the folder");
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
                    throw new BadInput("--out " + dir + ": an existing folder others could change: " + why
                            + "; choose a new name");
                }
            }
            // Written beside it under a hidden name, put in place by publish(): absent or empty until then.
            return new ResultsFolder(dir, null, existed);
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
    public Path writeEnvironment(
            String reproduction,
            Optional<Interruption.Cause> interruption,
            Instant started,
            Instant finished,
            Host host,
            Object settings) {
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
    private static ObjectNode merge(ObjectNode into, JsonNode more, String what) {
        if (!more.isObject()) {
            throw new IllegalArgumentException(
                    "environment.json: " + what + " must be one JSON object, not " + more.getNodeType());
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
        String quickLine = quick ? QUICK_LINE + "\n\n" : ""; // below an interruption, above everything else
        return writeText(
                "table.md",
                interruption
                        .map(c -> "**" + Character.toUpperCase(c.said().charAt(0))
                                + c.said().substring(1) + ": " + shortfall + ".**\n\n" + quickLine + table)
                        .orElse(quickLine + table));
    }

    /** What a quick run's table and first screen say at the top. */
    public static final String QUICK_LINE = "quick run: for trying, not for quoting";

    /**
     * Marks this folder as a {@code --quick} run's: its {@link #writeTable table} says {@link #QUICK_LINE}
     * at the top (the reproduce command's first screen says it too).
     */
    public void markQuick() {
        quick = true;
    }

    /** Whether {@link #markQuick} was called. */
    public boolean quick() {
        return quick;
    }

    /**
     * Writes {@code summary.json} as {@link SummaryJson#summary} makes it: the reproduction's name, its
     * schema, whether a signal stopped the run (and which: {@code "interruption": "terminated (SIGTERM)"};
     * {@code "signal"} is null for a notebook or jshell interrupt), and its rows. The kind names the folder
     * and fixes the row type, so that what is written is what {@code Results.load} reads back.
     */
    public <R extends ResultRow> Path writeSummary(
            ReproductionKind<R, ?> kind, Optional<Interruption.Cause> interruption, List<? extends R> rows) {
        return writeJson(
                "summary.json",
                SummaryJson.summary(
                        kind.name(),
                        interruption.map(Interruption.Cause::said).orElse(null),
                        interruption
                                .filter(Interruption.Cause::isSignal)
                                .map(Interruption.Cause::name)
                                .orElse(null),
                        kind.cast(rows)));
    }

    /**
     * Writes a run's three files from the one copy in memory: {@code summary.json} (its rows, marked with
     * the stop), {@code environment.json} (the host's facts and the run's settings) and {@code table.md}
     * (the kind's {@link ReproductionKind#table table} of the same run, under the stop's and the quick
     * line). Only the framework calls it, once per run; the table it wrote is kept for printing
     * ({@link #tableWritten}).
     */
    public <R extends ResultRow, S> void write(
            ReproductionKind<R, S> kind, Recorded<R, S> run, Optional<Interruption.Cause> interruption) {
        writeSummary(kind, interruption, run.rows());
        if (run.host() != null) {
            writeEnvironment(kind.name(), interruption, run.started(), run.finished(), run.host(), run.settings());
        } else {
            writeEnvironment(kind.name(), interruption, run.settings());
        }
        writeTable(interruption, kind.shortfall(), kind.table(run));
    }

    /** {@code table.md} as this run wrote it (its first lines included), if it wrote one. */
    public Optional<String> tableWritten() {
        return Optional.ofNullable(tableWritten);
    }

    /**
     * What a run that ended early leaves: before {@link #publish()}, the temporary and everything in it
     * is removed ({@link #abandon()}), so nothing appears at the target. After it, the folder is removed
     * when it holds nothing and this run made it ({@code results/...} or an absent {@code --out}); a
     * folder the user made is kept, empty and so usable as {@code --out} again.
     *
     * @return whether no folder is left at the target (false: the user's own, left empty)
     */
    public boolean discardIfEmpty() {
        if (!published) {
            abandon();
            return !targetExisted;
        }
        try {
            Path plots = dir.resolve("plots");
            if (Files.isDirectory(plots, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> s = Files.list(plots)) {
                    if (s.findAny().isEmpty()) {
                        Files.delete(plots);
                    }
                }
            }
            if (targetExisted) {
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
     * Removes everything the run wrote (part-written files included): before {@link #publish()} the
     * temporary goes whole; after it, the folder's content (it was absent or empty when this run took
     * it, so all of it is this run's), then the folder itself if this run made it. What an interruption
     * leaves when the reproduction kept nothing partial. Links are removed, never followed.
     *
     * @return whether no folder is left at the target (false: the user's own, left empty)
     */
    public boolean discardWritten() {
        if (!published) {
            abandon();
            return !targetExisted;
        }
        forgetWritten();
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.delete(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    if (!d.equals(dir)) {
                        Files.delete(d);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the part-written " + dir, e);
        }
        return discardIfEmpty();
    }

    /**
     * Creates the folder's {@code samples.arrow} ({@link SamplesFile#create}) and keeps it, so that what
     * it counts ({@link SamplesFile#counts}) is what the plots and distributions.json are made from.
     */
    public SamplesFile createSamples() {
        SamplesFile file = SamplesFile.create(dir.resolve("samples.arrow"));
        samples = file;
        return file;
    }

    /**
     * What this run wrote into the folder, from memory: summary.json's and environment.json's bytes (null
     * when not written) and the samples' counts (null without a {@link #createSamples} samples.arrow).
     * Empty when the run wrote no summary.json here.
     */
    public Optional<Written> written() {
        byte[] summary = jsonWritten.get("summary.json");
        if (summary == null) {
            return Optional.empty();
        }
        SamplesFile s = samples;
        return Optional.of(new Written(summary, jsonWritten.get("environment.json"), s == null ? null : s.counts()));
    }

    /**
     * A folder's files as its run wrote them, held in memory (the arrays are the folder's: read, never change).
     *
     * @param summary summary.json's bytes
     * @param environment environment.json's bytes, or null
     * @param counts samples.arrow's samples counted, or null when the run wrote none through {@link #createSamples}
     */
    public record Written(byte[] summary, byte[] environment, SampleCounts counts) {}

    /** Deletes a file this run wrote into the folder (e.g. an empty samples file), if it is there. */
    public void deleteOwn(String name) {
        if (name.equals("samples.arrow")) {
            samples = null;
        }
        jsonWritten.remove(name);
        try {
            Files.deleteIfExists(dir.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir.resolve(name), e);
        }
    }

    /** Writes {@code value} as indented JSON into a new file; an existing entry (file, link, FIFO) is an error. */
    public Path writeJson(String name, Object value) {
        Path file = dir.resolve(name);
        try {
            byte[] bytes = JSON.writeValueAsBytes(value);
            SafeFiles.writeNew(file, bytes);
            jsonWritten.put(name, bytes); // the plots are drawn from this copy, not from the file
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
            text = VmFacts.current().map(ResultsFolder::vmHeader).orElse("") + text;
        }
        try {
            SafeFiles.writeNew(file, text.getBytes(StandardCharsets.UTF_8));
            if (name.equals("table.md")) {
                tableWritten = text;
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The first line of a guest's {@code table.md}: the kernel, and under TCG that its figures are emulated. */
    static String vmHeader(VmFacts vm) {
        return "**Measured in a VM (" + vm.kernel() + ", kernel " + vm.release() + ", " + vm.vcpus() + " vCPUs, "
                + vm.accelerator() + (vm.emulated() ? "), emulated (TCG): ratios within this folder only" : ")")
                + ".**\n\n";
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
