package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The job's files, made in a private scratch folder (never a predictable name), created exclusively:
 * {@code in/} (what {@code readBeneath(in/)} and the broker admit) with {@code data.txt} at depths 1, 10
 * and 30 ({@code in/d/.../data.txt}), and {@code out/} beside it with {@code secret.txt} at the refused
 * depths. Every measured name is given from {@code in/} as the child's working directory, as the broker
 * resolves it.
 */
final class JobTree {
    /** The admitted names' depths (components of the name). */
    static final List<Integer> ADMITTED_DEPTHS = List.of(1, 10, 30);

    /**
     * The refused names' depths: from {@code in/} the shortest name of a file outside is
     * {@code ../out/secret.txt}, three components.
     */
    static final List<Integer> REFUSED_DEPTHS = List.of(3, 10, 30);

    static final String DATA = "data.txt";
    static final String SECRET = "secret.txt";
    static final String DIR = "d";

    final Path root;
    final Path in;
    final Path out;

    private JobTree(Path root, Path in, Path out) {
        this.root = root;
        this.in = in;
        this.out = out;
    }

    /** Makes the tree inside {@code job}. */
    static JobTree make(Scratch job) {
        Path in = job.newDirectory("in");
        Path out = job.newDirectory("out");
        try {
            for (int depth : ADMITTED_DEPTHS) {
                write(in.resolve(admitted(depth)), "heimdall-lab: a file the policy admits\n");
            }
            for (int depth : REFUSED_DEPTHS) {
                write(in.resolve(refused(depth)).normalize(), "heimdall-lab: a file the policy refuses\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the job's files in " + job.path(), e);
        }
        return new JobTree(job.path(), in, out);
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        SafeFiles.writeNew(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code d/d/.../data.txt}: {@code depth} components. */
    static String admitted(int depth) {
        return String.join("/", dirs(depth - 1)) + (depth > 1 ? "/" : "") + DATA;
    }

    /** {@code ../out/d/.../secret.txt}: {@code depth} components (at least 3). */
    static String refused(int depth) {
        if (depth < 3) {
            throw new IllegalArgumentException("a refused name from in/ has at least 3 components");
        }
        List<String> parts = new ArrayList<>(List.of("..", "out"));
        parts.addAll(dirs(depth - 3));
        parts.add(SECRET);
        return String.join("/", parts);
    }

    private static List<String> dirs(int n) {
        List<String> d = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            d.add(DIR);
        }
        return d;
    }
}
