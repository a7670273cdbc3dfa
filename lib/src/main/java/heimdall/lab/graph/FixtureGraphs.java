package heimdall.lab.graph;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checked-in graph fixtures and the one command that regenerates them with their pins:
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *   -cp "lib/target/classes:$(cat lib/target/runtime-classpath.txt)" \
 *   heimdall.lab.graph.FixtureGraphs fixtures/graphs
 * </pre>
 *
 * (also {@code fixtures/graphs/regenerate.sh}). It writes the Arrow pair of each fixture and rewrites
 * their lines of {@code SHA256SUMS}, keeping lines for other files.
 */
public final class FixtureGraphs {
    private FixtureGraphs() {}

    /** Marker calls of the abcdf program, fixed for the whole project (the C fixture makes them too). */
    public static final int A_GETPPID = 110;

    public static final int B_GETUID = 102;
    public static final int C_GETGID = 104;
    public static final int D_GETEUID = 107;
    public static final int F_GETEGID = 108;
    /** The handler's call: {@code write} to stderr (async-signal-safe). */
    public static final int WRITE = 1;
    /** The abcdf program's thread entry. */
    public static final String MAIN = "main";
    /** The abcdf program's handler entry. */
    public static final String SIGUSR1 = "signal:SIGUSR1";

    /**
     * The abcdf program {@code A { B C D }* F}: {@code main} starts at A (getppid), loops over B
     * (getuid), C (getgid), D (geteuid) zero or more times, and ends at F (getegid), a terminal site.
     * A {@code SIGUSR1} handler, as a real projection records it: the handler's {@code write}, then
     * {@code rt_sigreturn} from the libc restorer, which ends the signal frame.
     *
     * <p>Site ids: A=1, B=2, C=3, D=4, F=5, handler write=6, restorer rt_sigreturn=7.
     */
    public static Graph abcdf() {
        return Graph.builder()
                .site(1, A_GETPPID, "A", "main", false, MAIN)
                .site(2, B_GETUID, "B", "main", false)
                .site(3, C_GETGID, "C", "main", false)
                .site(4, D_GETEUID, "D", "main", false)
                .site(5, F_GETEGID, "F", "main", true)
                .site(6, WRITE, "usr1_write", "on_sigusr1", false, SIGUSR1)
                .site(7, Graph.RT_SIGRETURN, "usr1_return", "__restore_rt", false)
                .next(1, 2)
                .next(2, 3)
                .next(3, 4)
                .next(4, 2)
                .next(1, 5)
                .next(4, 5)
                .next(6, 7)
                .build();
    }

    /** Fixture programs by name, as written by {@link #main}. */
    public static Map<String, Graph> all() {
        Map<String, Graph> m = new TreeMap<>();
        m.put("abcdf", abcdf());
        return m;
    }

    /** Writes every fixture into {@code args[0]} (default {@code fixtures/graphs}) and updates its pins. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "fixtures/graphs");
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, Graph> e : all().entrySet()) {
            written.addAll(GraphFiles.write(e.getValue(), dir, e.getKey()));
        }
        Pins.rewrite(dir, written);
        written.forEach(p -> System.out.println("wrote " + p));
        System.out.println("pinned in " + dir.resolve(Pins.FILE_NAME));
    }
}
