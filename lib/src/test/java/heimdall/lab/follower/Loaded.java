package heimdall.lab.follower;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The kernel's list of loaded BPF programs ({@code bpftool prog show}), filtered to ours by name. */
final class Loaded {
    private static final Pattern LINE = Pattern.compile("^(\\d+): \\S+\\s+name (\\S+)");

    private Loaded() {}

    /** Ids of loaded programs whose name begins with {@link Follower#PROGRAM_PREFIX}, ascending. */
    static List<Integer> ours() {
        List<Integer> ids = new ArrayList<>();
        for (String line : bpftool("prog", "show")) {
            Matcher m = LINE.matcher(line);
            if (m.find() && m.group(2).startsWith(Follower.PROGRAM_PREFIX)) {
                ids.add(Integer.parseInt(m.group(1)));
            }
        }
        return ids;
    }

    /**
     * Ours loaded now that were not in {@code before}, waiting up to two seconds for them to go: a
     * program whose last descriptor closed is freed after an RCU grace period, not at the close.
     */
    static List<Integer> newSince(List<Integer> before) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (true) {
            List<Integer> now = new ArrayList<>(ours());
            now.removeAll(before);
            if (now.isEmpty() || System.nanoTime() > deadline) {
                return now;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return now;
            }
        }
    }

    /** Program ids process {@code pid} holds descriptors of (its fdinfo's prog_id lines). */
    static List<Integer> heldBy(long pid) throws IOException {
        List<Integer> ids = new ArrayList<>();
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fdinfo"))) {
            for (Path p : (Iterable<Path>) fds::iterator) {
                try {
                    for (String line : Files.readAllLines(p)) {
                        if (line.startsWith("prog_id:")) {
                            ids.add(Integer.parseInt(line.substring(8).trim()));
                        }
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor closed between the listing and the read
                }
            }
        }
        return ids;
    }

    static Path bpftoolPath() {
        for (String p : List.of("/usr/sbin/bpftool", "/usr/bin/bpftool", "/sbin/bpftool")) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        return Path.of("/usr/sbin/bpftool");
    }

    private static List<String> bpftool(String... args) {
        List<String> argv = new ArrayList<>(List.of(bpftoolPath().toString()));
        argv.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            List<String> out =
                    new String(p.getInputStream().readAllBytes()).lines().toList();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("bpftool " + String.join(" ", args) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bpftool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
