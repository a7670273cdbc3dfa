package heimdall.lab.analysis;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import java.nio.file.Path;

/**
 * Reads a results folder a user names for {@code ./lab compare} the way a root tool reads hostile
 * input ({@link HostileFiles}): the folder is opened once, without following a link at its name, and
 * its {@code summary.json} and {@code environment.json} are opened relative to that descriptor,
 * without following links or blocking on a FIFO, checked to be regular files on the open descriptor,
 * and read once, bounded; what is parsed is that copy.
 */
public final class CompareFiles {
    /** summary.json of a full floor-cost run is well under 1 MiB; 64 MiB leaves room and bounds the heap. */
    static final long LIMIT = 64L << 20;

    private CompareFiles() {}

    /**
     * The folder loaded from its files as read here; bad input naming the folder or file and why. Also
     * how a folder another process wrote (a guest's, in a shared checkout) is read.
     */
    public static Results load(Path dir) {
        try (HostileFiles.Folder folder = HostileFiles.Folder.open(dir, "not a results folder")) {
            byte[] summary = folder.readIfExists("summary.json", LIMIT)
                    .orElseThrow(() ->
                            new BadInput(dir.resolve("summary.json") + ": missing (is " + dir + " a results folder?)"));
            byte[] environment = folder.readIfExists("environment.json", LIMIT).orElse(null);
            return Results.parse(dir, summary, environment);
        }
    }
}
