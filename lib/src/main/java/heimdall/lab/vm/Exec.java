package heimdall.lab.vm;

import heimdall.lab.Io;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A helper program run to its end (apt-get, dpkg-deb, cpio, xz): its status and its output, each kept to
 * {@link #KEEP} bytes, so a chatty tool cannot fill the heap. A program that outlives its deadline is
 * killed and reported as such.
 */
record Exec(List<String> argv, int status, String out, String err, boolean timedOut) {
    /** Bytes of stdout and of stderr kept. */
    static final int KEEP = 1 << 20;

    /** Runs {@code argv} in {@code dir} (null: ours) with stdin empty, killed after {@code deadline}. */
    static Exec run(List<String> argv, Path dir, Duration deadline) {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + argv.get(0) + ": " + Io.reason(e), e);
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try {
            boolean ended = p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
            if (!ended) {
                p.destroyForcibly();
                p.waitFor();
            }
            return new Exec(List.copyOf(argv), p.exitValue(), out.join(), err.join(), !ended);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + argv.get(0), e);
        }
    }

    private static String drain(InputStream in) {
        try (in) {
            byte[] kept = in.readNBytes(KEEP);
            in.transferTo(OutputStream.nullOutputStream());
            return new String(kept, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether it ended by itself with status 0. */
    boolean ok() {
        return !timedOut && status == 0;
    }

    /** One line saying how it failed: the program, its status (or the deadline) and its last stderr lines. */
    String failure() {
        String how = timedOut ? "did not finish in time and was killed" : "ended with status " + status;
        String tail = err.strip();
        List<String> lines = tail.lines().toList();
        if (lines.size() > 3) {
            tail = String.join(" / ", lines.subList(lines.size() - 3, lines.size()));
        } else {
            tail = String.join(" / ", lines);
        }
        return String.join(" ", argv.get(0), how) + (tail.isEmpty() ? "" : ": " + tail);
    }
}
