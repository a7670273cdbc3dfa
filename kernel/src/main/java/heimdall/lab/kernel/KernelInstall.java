package heimdall.lab.kernel;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes the kernelspec: {@code kernel.json} and a {@code lib/} folder holding every class path entry
 * of the JVM that runs the installer (the kernel, the library and their dependencies), so the
 * kernelspec keeps working when the checkout moves or is rebuilt.
 *
 * <p>{@code ./lab kernel install [--user | --prefix DIR] [--name NAME]}: with {@code --prefix} the spec
 * goes to {@code DIR/share/jupyter/kernels/NAME} (what {@code jupyter kernelspec install --prefix}
 * does); otherwise (or with {@code --user}) to the user's Jupyter data folder.
 */
public final class KernelInstall {
    /** The kernelspec's folder name, which notebooks name in {@code metadata.kernelspec.name}. */
    public static final String DEFAULT_NAME = "heimdall-lab";

    public static final String DISPLAY_NAME = "Java (heimdall-lab)";
    static final List<String> JVM_OPTIONS = List.of(
            // Arrow's memory module reflects into java.nio.
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            // JShell's documentation reads the library's sources (LibrarySources).
            LibrarySources.JSHELL_OPENS,
            "-Djava.awt.headless=true");

    private KernelInstall() {}

    /** The kernelspec folder for a prefix, as Jupyter searches it. */
    public static Path specDir(Path prefix, String name) {
        return prefix.resolve("share/jupyter/kernels").resolve(name);
    }

    /** The user's Jupyter data folder, as jupyter_core finds it on Linux. */
    static Path userDataDir(Map<String, String> env) {
        if (env.get("JUPYTER_DATA_DIR") != null) {
            return Path.of(env.get("JUPYTER_DATA_DIR"));
        }
        String xdg = env.get("XDG_DATA_HOME");
        // $HOME first, as jupyter_core's expanduser does; Java's user.home comes from the passwd entry.
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".local/share");
        return base.resolve("jupyter");
    }

    /**
     * Installs into {@code dir} (replacing what an earlier install left there) with the given class
     * path, and returns {@code dir}.
     */
    public static Path install(Path dir, List<Path> classpath) throws IOException {
        Path lib = dir.resolve("lib");
        if (Files.exists(lib)) {
            deleteTree(lib);
        }
        Files.createDirectories(lib);
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (Path entry : classpath) {
            if (Files.isDirectory(entry)) {
                // A build's classes folder (tests run the kernel from target/classes).
                Path copy = lib.resolve("classes-" + n++);
                copyTree(entry, copy);
                entries.add(copy.toAbsolutePath().toString());
            } else if (Files.isRegularFile(entry)) {
                Path copy = lib.resolve(entry.getFileName().toString());
                if (Files.exists(copy)) {
                    copy = lib.resolve(n++ + "-" + entry.getFileName());
                }
                Files.copy(entry, copy, StandardCopyOption.REPLACE_EXISTING);
                entries.add(copy.toAbsolutePath().toString());
            }
        }
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(JVM_OPTIONS);
        argv.add("-cp");
        argv.add(String.join(java.io.File.pathSeparator, entries));
        argv.add(LabKernel.class.getName());
        argv.add("{connection_file}");

        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("argv", argv);
        spec.put("display_name", DISPLAY_NAME);
        spec.put("language", "java");
        spec.put("interrupt_mode", "message");
        spec.put("env", Map.of());
        spec.put("metadata", Map.of("debugger", false));
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("kernel.json").toFile(), spec);
        return dir;
    }

    /** The class path of this JVM, entry by entry. */
    static List<Path> ownClasspath() {
        List<Path> out = new ArrayList<>();
        for (String e : CellEvaluator.splitPath(System.getProperty("java.class.path", ""))) {
            out.add(Path.of(e).toAbsolutePath());
        }
        return out;
    }

    /** {@code ./lab kernel install [--user | --prefix DIR] [--name NAME]}. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(HELP);
            return;
        }
        if (!args[0].equals("install")) {
            usage("unknown subcommand '" + args[0] + "' (only: install)");
        }
        String name = DEFAULT_NAME;
        Path dir = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--user" -> dir = null;
                case "--prefix" -> {
                    if (i + 1 >= args.length) {
                        usage("--prefix needs a folder");
                    }
                    dir = Path.of(args[++i]).toAbsolutePath();
                }
                case "--name" -> {
                    if (i + 1 >= args.length || !args[i + 1].matches("[A-Za-z0-9._-]+")) {
                        usage("--name needs a name of letters, digits, '.', '_' or '-'");
                    }
                    name = args[++i];
                }
                case "--help", "-h" -> {
                    System.out.println(HELP);
                    return;
                }
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        Path target =
                dir == null ? userDataDir(System.getenv()).resolve("kernels").resolve(name) : specDir(dir, name);
        Files.createDirectories(target);
        install(target, ownClasspath());
        System.out.println("installed kernelspec '" + name + "' (" + DISPLAY_NAME + ") in " + target);
    }

    static final String HELP = """
            usage: ./lab kernel install [--user | --prefix DIR] [--name NAME]

            Registers the heimdall-lab Java kernel with Jupyter: writes kernel.json and copies the kernel's
            jars beside it. --user (the default) installs into the user's Jupyter data folder
            (~/.local/share/jupyter/kernels/NAME); --prefix DIR into DIR/share/jupyter/kernels/NAME
            (e.g. --prefix /usr/local for every user, or a venv). NAME defaults to heimdall-lab.
            The kernel honours IJava's variables IJAVA_CLASSPATH, IJAVA_STARTUP_SCRIPTS_PATH,
            IJAVA_STARTUP_SCRIPT, IJAVA_COMPILER_OPTS and IJAVA_TIMEOUT.""";

    private static void usage(String why) {
        System.err.println("lab kernel install: error: " + why + " (./lab kernel install --help)");
        System.exit(2);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            walk.forEach(p -> {
                try {
                    Path dest = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.delete(p);
            }
        }
    }
}
