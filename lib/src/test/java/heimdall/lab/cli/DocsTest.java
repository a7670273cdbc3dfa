package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import heimdall.lab.testing.LabJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs cannot rot: the README stays short and reaches every page of {@code docs/}; every relative link
 * resolves; the generated pages are what the code makes now; and every shell command the docs show is run —
 * here, as written, from the checkout's top (a fresh JVM of the built library, as {@code ./lab} runs it), or,
 * for the few that take minutes, by the named CI step or test that runs exactly that command
 * ({@link #RUN_ELSEWHERE}, each entry checked to be still shown somewhere, so the list cannot go stale).
 */
class DocsTest {
    private static final Path TOP = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```sh[^\\n]*\\n(.*?)^```");

    /**
     * Commands shown in the docs that take minutes, with what runs them: never run twice in CI, never
     * unchecked. A command here must appear in the docs, word for word.
     */
    static final Map<String, String> RUN_ELSEWHERE = Map.ofEntries(
            Map.entry("./lab test", "CI itself: .ci/run is CI's settings plus exactly ./lab test"),
            Map.entry("./lab vm run --kernel debian:6.1 -- --version", "./lab test's guest step (vm_guest_step)"),
            Map.entry(
                    "./lab vm run --kernel debian:6.1 -- reproduce follower-cost --quick",
                    "./lab test's guest step (vm_guest_step): follower-cost quick in the 6.1 guest"),
            Map.entry("container/build-base.sh", "container/ci.sh (the container job, last step of ./lab test)"),
            Map.entry("mkdir -m 755 out", "container/ci.sh makes its results folder so"),
            Map.entry(
                    "container/podman-here.sh build --network host -f container/Containerfile -t localhost/heimdall-lab .",
                    "container/ci.sh"),
            Map.entry(
                    "container/podman-here.sh run --rm --privileged --security-opt seccomp=unconfined --network none"
                            + " -v \"$PWD/out:/results\" localhost/heimdall-lab --quick",
                    "container/ci.sh"),
            Map.entry(
                    "apt-get install jupyter-notebook jupyter-nbconvert python3-nbclient",
                    "setup/packages test (./lab test's install step)"),
            Map.entry("./lab kernel install --user", "KernelInstallTest (kernel module) and notebooks/run"),
            Map.entry(
                    "/usr/bin/python3 -m jupyter nbconvert --to notebook --execute"
                            + " --ExecutePreprocessor.kernel_name=heimdall-lab --output-dir \"$(mktemp -d)\""
                            + " notebooks/floor-cost.ipynb",
                    "notebooks/run (./lab test), for every notebook"));

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(TOP.resolve("README.md")));
        try (Stream<Path> s = Files.walk(TOP.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void theReadmeIsShortAndReachesEveryPage() throws IOException {
        List<String> readme = Files.readAllLines(TOP.resolve("README.md"));
        assertTrue(readme.size() <= 200, "README.md has " + readme.size() + " lines; at most 200 (the rest in docs/)");
        Set<Path> seen = new LinkedHashSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(TOP.resolve("README.md")));
        while (!todo.isEmpty()) {
            Path page = todo.pop();
            if (!seen.add(page)) {
                continue;
            }
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.contains("://") || target.startsWith("mailto:")) {
                    continue;
                }
                Path to = page.getParent().resolve(target).normalize();
                assertTrue(Files.exists(to), TOP.relativize(page) + " links to " + target + ", which does not exist");
                if (to.toString().endsWith(".md") && to.startsWith(TOP.resolve("docs"))) {
                    todo.push(to);
                }
            }
        }
        for (Path p : pages()) {
            assertTrue(seen.contains(p), TOP.relativize(p) + " is not reachable from README.md by links");
        }
    }

    @Test
    void theGeneratedPagesAreWhatTheCodeMakes() throws IOException {
        Map<String, String> made = new LinkedHashMap<>();
        made.put("cli.md", DocsReference.cli());
        made.put("results-format.md", DocsReference.resultsFormat());
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> page : made.entrySet()) {
            // every fresh copy first, so that the message's cp lines mend every stale page at once
            Path fresh = Path.of("target", "docs", page.getKey()).toAbsolutePath();
            Files.createDirectories(fresh.getParent());
            Files.writeString(fresh, page.getValue(), StandardCharsets.UTF_8);
            Path committed = TOP.resolve("docs").resolve(page.getKey());
            if (!Files.exists(committed) || !Files.readString(committed).equals(page.getValue())) {
                stale.add("cp " + fresh + " " + committed);
            }
        }
        assertEquals(List.of(), stale, "generated docs pages differ from what the code makes now; mend with");
    }

    /** Every command in a {@code ```sh} block, continuation lines joined, comments and blank lines left out. */
    static Map<String, Path> commands() throws IOException {
        Map<String, Path> commands = new LinkedHashMap<>();
        for (Path page : pages()) {
            Matcher block = FENCE.matcher(Files.readString(page));
            while (block.find()) {
                String joined = block.group(1).replace("\\\n", " ");
                for (String line : joined.split("\n")) {
                    String cmd = line.replaceAll("\\s+#.*$", "")
                            .replaceAll("\\s+", " ")
                            .trim();
                    if (!cmd.isEmpty() && !cmd.startsWith("#")) {
                        commands.putIfAbsent(cmd, page);
                    }
                }
            }
        }
        return commands;
    }

    @Test
    void everyListedLongCommandIsStillShown() throws IOException {
        Set<String> shown = commands().keySet();
        for (String c : RUN_ELSEWHERE.keySet()) {
            assertTrue(shown.contains(c), "RUN_ELSEWHERE lists '" + c + "', which no page shows any more");
        }
    }

    @Test
    void everyShownCommandRuns() throws Exception {
        List<String> failures = new ArrayList<>();
        Set<String> ran = new java.util.HashSet<>();
        for (Map.Entry<String, Path> e : commands().entrySet()) {
            String cmd = e.getKey();
            if (RUN_ELSEWHERE.containsKey(cmd)) {
                continue;
            }
            // a reproduction shown with and without --quick runs once, quick
            if (!ran.add(
                    cmd.startsWith("./lab reproduce ") && !cmd.contains("--quick") && !cmd.contains("--help")
                            ? cmd + " --quick"
                            : cmd)) {
                continue;
            }
            if (!cmd.startsWith("./lab ")) {
                failures.add(TOP.relativize(e.getValue()) + ": '" + cmd + "' is neither a ./lab command nor listed in"
                        + " DocsTest.RUN_ELSEWHERE with what runs it");
                continue;
            }
            String failure = run(cmd);
            if (failure != null) {
                failures.add(TOP.relativize(e.getValue()) + ": " + failure);
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " documented command(s) failed:\n" + String.join("\n", failures));
        }
    }

    /** Runs one documented {@code ./lab} line from the checkout's top; null when it exits 0. */
    private static String run(String cmd) throws Exception {
        LabJvm lab = LabJvm.lab().home(TOP).classPath(LabJvm.libraryClassPath());
        List<String> words =
                new ArrayList<>(List.of(cmd.substring("./lab ".length()).split(" ")));
        Path out = null;
        if (words.size() >= 2 && words.get(0).equals("reproduce") && !words.contains("--help")) {
            // a reproduction shown with its full defaults runs here with --quick (minutes otherwise), into a
            // folder of the test's own
            if (!words.contains("--quick")) {
                words.add("--quick");
            }
            out = Files.createTempDirectory("docs-reproduce");
            words.add("--out");
            words.add(out.resolve("folder").toString());
        }
        List<String> argv = lab.command(words);
        Path log = Files.createTempFile("docs-command", ".log");
        try {
            Process p = new ProcessBuilder(argv)
                    .directory(TOP.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            p.getOutputStream().close();
            int limit = out == null ? 120 : 900; // a quick reproduction takes about a minute on a quiet machine
            if (!p.waitFor(limit, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                return "'" + cmd + "' did not end within " + limit + " s";
            }
            if (p.exitValue() != 0) {
                String printed = Files.readString(log);
                return "'" + cmd + "' exited " + p.exitValue() + ":\n"
                        + printed.substring(Math.max(0, printed.length() - 2000));
            }
            return null;
        } finally {
            Files.deleteIfExists(log);
            if (out != null) {
                try (Stream<Path> walk = Files.walk(out)) {
                    walk.sorted(Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
