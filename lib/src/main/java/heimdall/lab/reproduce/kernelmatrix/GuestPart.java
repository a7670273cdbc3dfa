package heimdall.lab.reproduce.kernelmatrix;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.analysis.CompareFiles;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Session;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.RowStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One non-host kernel's part of kernel-matrix: {@code ./lab vm run --kernel K -- reproduce kernel-matrix
 * --kernels host --out <folder>/kernels/<K>} as a child process of ours, under a deadline, ended when
 * this run is stopped. The guest writes an ordinary kernel-matrix folder into the shared checkout;
 * its rows are read back (strictly, as any folder) and renamed to the kernel asked for, and its
 * environment.json's {@code vm.emulated} marks them. A guest that fails, is refused or passes its
 * deadline gives one refused row naming the step and the last lines it printed.
 */
final class GuestPart {
    private GuestPart() {}

    /** How long {@code ./lab vm run} has after SIGTERM to end QEMU and its guest before it is killed. */
    static final long GRACE_SECONDS = 30;

    /** What a guest's part gave: its rows and its facts for environment.json. */
    record Outcome(List<KernelMatrixRow> rows, Guest settings) {}

    /**
     * A guest's facts in the parent's environment.json.
     *
     * @param folder the guest's folder, relative to the parent's
     * @param exitStatus {@code ./lab vm run}'s exit status, or null when it was ended (deadline, stop)
     * @param vm the guest folder's {@code vm} object, as the guest recorded it (null: none written)
     */
    record Guest(
            @JsonProperty("kernel") String kernel,
            @JsonProperty("folder") String folder,
            @JsonProperty("exit_status") Integer exitStatus,
            @JsonProperty("vm") JsonNode vm) {}

    /** The guest folder's name beneath {@code kernels/}: {@code debian:6.1} is {@code debian-6.1}. */
    static String slug(String kernel) {
        return kernel.replaceAll("[^A-Za-z0-9.]", "-");
    }

    /** The guest's part, writing beneath {@code folder}; the session's stop ends the guest. */
    static Outcome run(KernelMatrix.Options o, String kernel, Path folder, Session session) {
        Path home = Fixtures.home().toAbsolutePath().normalize();
        return run(o, kernel, folder, session, home, home.resolve("lab"), Duration.ofMinutes(o.guestMinutes()));
    }

    /** As below, called outside the framework ({@link Session#join}). */
    static Outcome run(
            KernelMatrix.Options o,
            String kernel,
            Path folder,
            Consumer<String> progress,
            Path home,
            Path lab,
            Duration deadlineAfter) {
        return run(o, kernel, folder, Session.join(progress), home, lab, deadlineAfter);
    }

    /**
     * As {@link #run(KernelMatrix.Options, String, Path, Session)} with the checkout the guest shares
     * ({@code home}), the {@code ./lab} to run and the deadline given (tests run a stand-in).
     */
    static Outcome run(
            KernelMatrix.Options o,
            String kernel,
            Path folder,
            Session session,
            Path home,
            Path lab,
            Duration deadlineAfter) {
        Consumer<String> progress = session.progress();
        Path out = folder.toAbsolutePath().normalize().resolve("kernels").resolve(slug(kernel));
        String rel = "kernels/" + slug(kernel);
        if (!out.startsWith(home)) {
            return refused(
                    kernel,
                    rel,
                    null,
                    null,
                    "the guest shares only the checkout (" + home + ") read-write, and the results " + "folder "
                            + folder + " is outside it; run without --out or with --out inside the checkout");
        }
        // ./lab vm's own deadline is ours; ours adds a minute for it to end QEMU and say so itself
        long vmTimeout = Math.max(60, deadlineAfter.toSeconds() - 60);
        List<String> argv = new ArrayList<>(List.of(
                lab.toString(),
                "vm",
                "run",
                "--kernel",
                kernel,
                "--timeout",
                Long.toString(vmTimeout),
                "--",
                "reproduce",
                "kernel-matrix",
                "--kernels",
                "host",
                "--out",
                out.toString()));
        if (o.quick()) {
            argv.add("--quick");
        }
        progress.accept("kernel-matrix: " + kernel + ": " + String.join(" ", argv.subList(1, argv.size())));
        Deque<String> tail = new ArrayDeque<>();
        Integer status;
        try {
            Files.createDirectories(out.getParent());
            Process p = new ProcessBuilder(argv)
                    .directory(home.toFile())
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            Thread reader = new Thread(() -> relay(p, kernel, tail, progress), "heimdall-guest-output");
            reader.setDaemon(true);
            reader.start();
            long deadline = System.nanoTime() + deadlineAfter.toNanos();
            while (!p.waitFor(1, TimeUnit.SECONDS)) {
                if (session.stopRequested() || System.nanoTime() - deadline > 0) {
                    break;
                }
            }
            if (p.isAlive()) {
                // ./lab vm ends QEMU and the guest's work on SIGTERM; a second chance, then SIGKILL
                boolean stopped = session.stopRequested();
                p.destroy();
                if (!p.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
                reader.join(2_000);
                return refused(
                        kernel,
                        rel,
                        null,
                        null,
                        stopped
                                ? "stopped while the guest ran"
                                : "the guest's part did not finish within " + deadlineAfter.toSeconds() + " s; ended"
                                        + lastLines(tail));
            }
            reader.join(5_000);
            status = p.exitValue();
        } catch (IOException e) {
            return refused(kernel, rel, null, null, "cannot start ./lab vm run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return refused(kernel, rel, null, null, "interrupted while the guest ran");
        }
        // The guest's folder is read as any folder a user names: no link followed, no FIFO blocked on,
        // each file read once and parsed from that copy.
        if (!Files.isRegularFile(out.resolve("summary.json"), LinkOption.NOFOLLOW_LINKS)) {
            return refused(
                    kernel,
                    rel,
                    status,
                    null,
                    "./lab vm run exited " + status + " and the guest wrote no summary.json" + lastLines(tail));
        }
        Results loaded;
        try {
            loaded = CompareFiles.load(out);
        } catch (BadInput e) {
            return refused(kernel, rel, status, null, "the guest's folder does not load: " + e.getMessage());
        }
        if (loaded.kind().rowType() != KernelMatrixRow.class) {
            return refused(
                    kernel,
                    rel,
                    status,
                    null,
                    "the guest's folder is a " + loaded.kind().name() + " folder");
        }
        JsonNode env = loaded.environmentJson();
        JsonNode vm = env != null && env.get("vm") != null && env.get("vm").isObject() ? env.get("vm") : null;
        // Emulated unless the guest's own record says otherwise: never a native figure by default.
        boolean emulated = vm == null
                || !vm.path("emulated").isBoolean()
                || vm.path("emulated").booleanValue();
        List<KernelMatrixRow> rows = new ArrayList<>();
        for (KernelMatrixRow r : loaded.kernelMatrix()) {
            if (!"host".equals(r.kernel().name())) {
                return refused(
                        kernel,
                        rel,
                        status,
                        vm,
                        "the guest's folder holds a row of kernel \""
                                + r.kernel().name() + "\"; its part measures only its own (host)");
            }
            rows.add(r.withKernel(new KernelMatrixRow.Kernel(kernel, r.kernel().release(), emulated)));
        }
        if (status != 0) {
            rows.add(KernelMatrix.kernelRow(
                    kernel,
                    rows.isEmpty() ? "?" : rows.get(0).kernel().release(),
                    emulated,
                    RowStatus.REFUSED,
                    "./lab vm run exited " + status + lastLines(tail)));
        }
        return new Outcome(rows, new Guest(kernel, rel, status, vm));
    }

    private static Outcome refused(String kernel, String rel, Integer status, JsonNode vm, String why) {
        return new Outcome(
                List.of(KernelMatrix.kernelRow(kernel, "?", true, RowStatus.REFUSED, why)),
                new Guest(kernel, rel, status, vm));
    }

    /** Copies the guest's output to progress, prefixed, keeping the last lines for a refusal. */
    private static void relay(Process p, String kernel, Deque<String> tail, Consumer<String> progress) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String shown = line.length() > 400 ? line.substring(0, 400) + "…" : line;
                progress.accept("[" + kernel + "] " + shown);
                synchronized (tail) {
                    tail.addLast(shown);
                    if (tail.size() > 5) {
                        tail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the guest's output ended with the process
        }
    }

    private static String lastLines(Deque<String> tail) {
        synchronized (tail) {
            return tail.isEmpty() ? "" : "; its last lines: " + String.join(" / ", tail);
        }
    }
}
