package heimdall.lab.reproduce;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.bench.Interruption;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.Summary;
import heimdall.lab.results.SummaryJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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

    /** What a guest's part gave: its rows and its facts for environment.json. */
    record Outcome(List<KernelMatrixRow> rows, Guest settings) {}

    /**
     * A guest's facts in the parent's environment.json.
     *
     * @param folder the guest's folder, relative to the parent's
     * @param exitStatus {@code ./lab vm run}'s exit status, or null when it was ended (deadline, stop)
     * @param vm the guest folder's {@code vm} object, as the guest recorded it (null: none written)
     */
    record Guest(@JsonProperty("kernel") String kernel, @JsonProperty("folder") String folder,
            @JsonProperty("exit_status") Integer exitStatus, @JsonProperty("vm") JsonNode vm) {}

    /** The guest folder's name beneath {@code kernels/}: {@code debian:6.1} is {@code debian-6.1}. */
    static String slug(String kernel) {
        return kernel.replaceAll("[^A-Za-z0-9.]", "-");
    }

    static Outcome run(KernelMatrix.Options o, String kernel, Path folder, Consumer<String> progress) {
        Path home = Fixtures.home().toAbsolutePath().normalize();
        Path out = folder.toAbsolutePath().normalize().resolve("kernels").resolve(slug(kernel));
        String rel = "kernels/" + slug(kernel);
        if (!out.startsWith(home)) {
            return refused(kernel, rel, null, null, "the guest shares only the checkout (" + home + ") read-write, and the results "
                    + "folder " + folder + " is outside it; run without --out or with --out inside the checkout");
        }
        List<String> argv = new ArrayList<>(List.of(home.resolve("lab").toString(), "vm", "run", "--kernel", kernel, "--",
                "reproduce", "kernel-matrix", "--kernels", "host", "--out", out.toString()));
        if (o.quick()) {
            argv.add("--quick");
        }
        progress.accept("kernel-matrix: " + kernel + ": " + String.join(" ", argv.subList(1, argv.size())));
        Deque<String> tail = new ArrayDeque<>();
        Integer status;
        try {
            Files.createDirectories(out.getParent());
            Process p = new ProcessBuilder(argv).directory(home.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            Thread reader = new Thread(() -> relay(p, kernel, tail, progress), "heimdall-guest-output");
            reader.setDaemon(true);
            reader.start();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(o.guestMinutes());
            while (!p.waitFor(1, TimeUnit.SECONDS)) {
                if (Interruption.stopRequested() || System.nanoTime() - deadline > 0) {
                    break;
                }
            }
            if (p.isAlive()) {
                // ./lab vm ends QEMU and the guest's work on SIGTERM; a second chance, then SIGKILL
                boolean stopped = Interruption.stopRequested();
                p.destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
                reader.join(2_000);
                return refused(kernel, rel, null, readVm(out), stopped ? "stopped while the guest ran"
                        : "the guest's part did not finish within " + o.guestMinutes() + " minutes; ended" + lastLines(tail));
            }
            reader.join(5_000);
            status = p.exitValue();
        } catch (IOException e) {
            return refused(kernel, rel, null, null, "cannot start ./lab vm run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return refused(kernel, rel, null, readVm(out), "interrupted while the guest ran");
        }
        JsonNode vm = readVm(out);
        if (!Files.isRegularFile(out.resolve("summary.json"), LinkOption.NOFOLLOW_LINKS)) {
            return refused(kernel, rel, status, vm, "./lab vm run exited " + status + " and the guest wrote no summary.json"
                    + lastLines(tail));
        }
        Summary s;
        try {
            s = SummaryJson.read(out);
        } catch (BadInput e) {
            return refused(kernel, rel, status, vm, "the guest's summary.json is not a kernel-matrix summary: " + e.getMessage());
        }
        if (s.kind() != heimdall.lab.results.ResultKind.KERNEL_MATRIX) {
            return refused(kernel, rel, status, vm, "the guest's folder is a " + s.kind().reproduction() + " folder");
        }
        boolean emulated = vm == null || !vm.path("emulated").isBoolean() || vm.path("emulated").booleanValue();
        List<KernelMatrixRow> rows = new ArrayList<>();
        for (ResultRow r : s.rows()) {
            rows.add(((KernelMatrixRow) r).asKernel(kernel, emulated));
        }
        if (status != 0) {
            rows.add(KernelMatrix.kernelRow(kernel, rows.isEmpty() ? "?" : rows.get(0).kernelRelease(), emulated, "refused",
                    "./lab vm run exited " + status + lastLines(tail)));
        }
        return new Outcome(rows, new Guest(kernel, rel, status, vm));
    }

    /**
     * The guest folder's {@code vm} facts (null: no environment.json, or none recorded). A folder
     * whose {@code vm} facts are missing is taken as emulated: never a native figure by default.
     */
    private static JsonNode readVm(Path out) {
        Path env = out.resolve("environment.json");
        if (!Files.isRegularFile(env, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            JsonNode vm = SummaryJson.tree(env, Files.readAllBytes(env)).get("vm");
            return vm == null || !vm.isObject() ? null : vm;
        } catch (IOException | BadInput e) {
            return null;
        }
    }

    private static Outcome refused(String kernel, String rel, Integer status, JsonNode vm, String why) {
        return new Outcome(List.of(KernelMatrix.kernelRow(kernel, "?", true, "refused", why)), new Guest(kernel, rel, status, vm));
    }

    /** Copies the guest's output to progress, prefixed, keeping the last lines for a refusal. */
    private static void relay(Process p, String kernel, Deque<String> tail, Consumer<String> progress) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
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
