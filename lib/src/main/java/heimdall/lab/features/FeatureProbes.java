package heimdall.lab.features;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.BrokerBench;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.child.RunningChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floors;
import heimdall.lab.follower.HookProbe;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.NativeLib;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Observes the running kernel's {@link Feature}s, each by asking the kernel itself: a file it
 * publishes, a real user notification answered the way the feature needs, a BPF program loaded,
 * a filtered child's {@code /proc/PID/status}. The probes reuse the project's own code (the broker's
 * bench and supervisors, the follower's {@link HookProbe}, the measured child) rather than new
 * kernel calls. Needs root for the BPF and broker probes; a probe that cannot run says why, and its
 * feature is "not observable" rather than guessed.
 */
public final class FeatureProbes {
    private FeatureProbes() {}

    static final Path ACTIONS_AVAIL = Path.of("/proc/sys/kernel/seccomp/actions_avail");
    /** How long a probe's child or tool may take (a TCG guest is tens of times slower than the host). */
    static final Duration DEADLINE = Duration.ofSeconds(120);

    /** Every feature of the running kernel, predicted from its version and observed, in {@link Feature} order. */
    public static List<FeatureRecord> observeAll(Consumer<String> progress) {
        KernelVersion v = KernelVersion.running();
        List<FeatureRecord> out = new ArrayList<>();
        FilteredTask task = filteredTask();
        try (Scratch job = Scratch.create("heimdall-lab-features-")) {
            for (Feature f : Feature.values()) {
                FeatureRecord r = switch (f) {
                    case ACTIONS_AVAIL -> actionsAvail(v);
                    case ACTION_CACHE -> actionCache(v, task);
                    case ADDFD_SEND -> addfdSend(v, job);
                    case SYNC_WAKE_UP -> syncWakeUp(v, job);
                    case BPF_TRAMPOLINES -> trampolines(v);
                    case TASK_STORAGE_TRACING -> taskStorage(v);
                    case SSB_STIBP_FORCED -> speculation(v, task);
                    case LANDLOCK_ABI -> landlock(v);
                };
                progress.accept(String.format(
                        Locale.ROOT,
                        "feature %-34s predicted %-10s observed %s",
                        f.label(),
                        r.predicted().length() > 10 ? "(list)" : r.predicted(),
                        r.observed() == null
                                ? "not observable"
                                : r.observed() + (Boolean.FALSE.equals(r.agrees()) ? " (differs)" : "")));
                out.add(r);
            }
        }
        return out;
    }

    /** The ABI the kernel answers; 0 when it has no Landlock (absent, or not enabled in {@code lsm=}). */
    static FeatureRecord landlock(KernelVersion v) {
        int abi = NativeLib.hl_landlock_abi_now();
        String how = abi > 0
                ? "landlock_create_ruleset(NULL, 0, VERSION) answered " + abi
                : "landlock_create_ruleset(VERSION) failed with " + Errno.name(-abi)
                        + " (ENOSYS: not built in; EOPNOTSUPP: built in but not enabled)";
        return FeatureRecord.of(Feature.LANDLOCK_ABI, v, String.valueOf(Math.max(0, abi)), how);
    }

    static FeatureRecord actionsAvail(KernelVersion v) {
        try {
            String text =
                    Files.readString(ACTIONS_AVAIL, StandardCharsets.US_ASCII).strip();
            return FeatureRecord.of(Feature.ACTIONS_AVAIL, v, text, "read from " + ACTIONS_AVAIL);
        } catch (IOException e) {
            return FeatureRecord.of(Feature.ACTIONS_AVAIL, v, null, ACTIONS_AVAIL + " not readable: " + e.getMessage());
        }
    }

    /**
     * The action cache is visible only through {@code /proc/PID/seccomp_cache} (CONFIG_SECCOMP_CACHE_DEBUG,
     * off in Debian's and most kernels): with it, the filtered child's cache lists getppid as allowed.
     * Without it, it is not observable here (kernel-bitmap's timings are the indirect evidence).
     */
    static FeatureRecord actionCache(KernelVersion v, FilteredTask task) {
        if (task.problem() != null) {
            return FeatureRecord.of(Feature.ACTION_CACHE, v, null, "no filtered child to look at: " + task.problem());
        }
        if (task.seccompCache() == null) {
            return FeatureRecord.of(
                    Feature.ACTION_CACHE,
                    v,
                    null,
                    "not observable: the filtered child has no /proc/PID/seccomp_cache "
                            + "(CONFIG_SECCOMP_CACHE_DEBUG off); kernel-bitmap's timings are the indirect evidence");
        }
        boolean allowed =
                task.seccompCache().lines().anyMatch(l -> l.matches("\\S+\\s+" + Call.GETPPID.nr() + "\\s+ALLOW"));
        return FeatureRecord.of(
                Feature.ACTION_CACHE,
                v,
                Feature.yes(allowed),
                "/proc/PID/seccomp_cache of a child under the " + "abcdf floor "
                        + (allowed ? "lists getppid as ALLOW" : "does not list getppid"));
    }

    /**
     * A real brokered openat (the broker's own bench, a few calls through the native supervisor): its
     * descriptor is installed and the call answered with one {@code SECCOMP_IOCTL_NOTIF_ADDFD} carrying
     * {@code SECCOMP_ADDFD_FLAG_SEND}. A kernel without the flag refuses it with EINVAL (errno 22),
     * which the supervisor hands the child as the call's answer.
     */
    static FeatureRecord addfdSend(KernelVersion v, Scratch job) {
        try {
            brokerProbe(job, "addfd", Answer.BROKER, false);
            return FeatureRecord.of(
                    Feature.ADDFD_SEND, v, "yes", "20 brokered openat calls answered by ADDFD with SEND");
        } catch (Refusal e) {
            String why = e.getMessage();
            if (why != null && why.contains("first errno 22")) {
                return FeatureRecord.of(
                        Feature.ADDFD_SEND,
                        v,
                        "no",
                        "ADDFD with SECCOMP_ADDFD_FLAG_SEND refused with EINVAL on a " + "real notification: " + why);
            }
            return FeatureRecord.of(
                    Feature.ADDFD_SEND, v, null, "not observable: the broker probe was refused: " + why);
        } catch (IOException | RuntimeException e) {
            return FeatureRecord.of(Feature.ADDFD_SEND, v, null, "not observable: the broker probe failed: " + e);
        }
    }

    /**
     * A listener given {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP} by the supervisor's own start
     * ({@code SECCOMP_IOCTL_NOTIF_SET_FLAGS}); a kernel before 6.6 refuses the ioctl (EINVAL).
     */
    static FeatureRecord syncWakeUp(KernelVersion v, Scratch job) {
        try {
            brokerProbe(job, "sync", Answer.CONTINUE, true);
            return FeatureRecord.of(
                    Feature.SYNC_WAKE_UP,
                    v,
                    "yes",
                    "SECCOMP_IOCTL_NOTIF_SET_FLAGS with "
                            + "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP accepted; 20 calls answered");
        } catch (Refusal e) {
            String why = e.getMessage();
            if (why != null && why.contains("errno 22") && why.contains("synchronous wake-up")) {
                return FeatureRecord.of(
                        Feature.SYNC_WAKE_UP, v, "no", "SECCOMP_IOCTL_NOTIF_SET_FLAGS refused with EINVAL: " + why);
            }
            return FeatureRecord.of(
                    Feature.SYNC_WAKE_UP, v, null, "not observable: the broker probe was refused: " + why);
        } catch (IOException | RuntimeException e) {
            return FeatureRecord.of(Feature.SYNC_WAKE_UP, v, null, "not observable: the broker probe failed: " + e);
        }
    }

    /** A few calls through the native supervisor, unpinned (so a refusal names the feature, not a CPU). */
    private static void brokerProbe(Scratch job, String name, Answer answer, boolean sync) throws IOException {
        Path dir = job.newDirectory(name);
        BrokerBench.run(
                new BrokerBench.Config(
                        20, 2, 1, answer, List.of(Supervisor.Kind.NATIVE), sync, Cpus.measuring(), -1, null),
                dir,
                line -> {});
    }

    /** fentry on the kernel's own test function: refused at load where the kernel has no trampolines. */
    static FeatureRecord trampolines(KernelVersion v) {
        try {
            HookProbe.Result trivial = HookProbe.probe(HookProbe.Point.FENTRY_TRIVIAL);
            HookProbe.Result seccomp = HookProbe.probe(HookProbe.Point.FENTRY_SECURE_COMPUTING);
            return FeatureRecord.of(
                    Feature.BPF_TRAMPOLINES,
                    v,
                    Feature.yes(trivial.usable()),
                    trivial + "; " + seccomp
                            + (seccomp.usable()
                                    ? " (the follower's design (b) can load)"
                                    : " (the follower's design (b) cannot load)"));
        } catch (Refusal e) {
            return FeatureRecord.of(Feature.BPF_TRAMPOLINES, v, null, "not observable: " + e.getMessage());
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            return FeatureRecord.of(Feature.BPF_TRAMPOLINES, v, null, "not observable: the hook probe failed: " + e);
        }
    }

    /**
     * The kernel's own answer through {@code bpftool feature probe kernel}: the task-storage map type
     * exists and {@code bpf_task_storage_get} is among raw tracepoint programs' helpers (the follower's
     * tracepoint hook keeps its cursors there).
     */
    static FeatureRecord taskStorage(KernelVersion v) {
        JsonNode probe;
        try {
            probe = bpftoolProbe();
        } catch (IOException | RuntimeException e) {
            return FeatureRecord.of(Feature.TASK_STORAGE_TRACING, v, null, "not observable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FeatureRecord.of(Feature.TASK_STORAGE_TRACING, v, null, "not observable: interrupted");
        }
        boolean map = probe.path("map_types").path("have_task_storage_map_type").asBoolean(false);
        boolean helper = false;
        for (JsonNode h : probe.path("helpers").path("raw_tracepoint_available_helpers")) {
            helper |= "bpf_task_storage_get".equals(h.asText());
        }
        return FeatureRecord.of(
                Feature.TASK_STORAGE_TRACING,
                v,
                Feature.yes(map && helper),
                "bpftool feature probe kernel: "
                        + "task_storage map type " + (map ? "available" : "absent") + ", bpf_task_storage_get "
                        + (helper ? "available" : "absent") + " to raw tracepoint programs");
    }

    private static JsonNode bpftoolProbe() throws IOException, InterruptedException {
        Path bpftool = List.of(Path.of("/usr/sbin/bpftool"), Path.of("/usr/bin/bpftool")).stream()
                .filter(p -> Files.isExecutable(p))
                .findFirst()
                .orElseThrow(() -> new IOException("bpftool is not installed (/usr/sbin/bpftool)"));
        Process p = new ProcessBuilder(bpftool.toString(), "-j", "feature", "probe", "kernel")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        p.getOutputStream().close();
        // read on this thread: the output is bounded (tens of kB), and the deadline below ends a stuck tool
        Thread killer = new Thread(
                () -> {
                    try {
                        if (!p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                            p.destroyForcibly();
                        }
                    } catch (InterruptedException e) {
                        p.destroyForcibly();
                    }
                },
                "heimdall-bpftool-deadline");
        killer.setDaemon(true);
        killer.start();
        byte[] out = p.getInputStream().readNBytes(4 << 20);
        p.destroy();
        int rc = p.waitFor();
        killer.interrupt();
        if (rc != 0) {
            throw new IOException("bpftool feature probe kernel exited with " + rc);
        }
        return new ObjectMapper().readTree(out);
    }

    /**
     * SSB and STIBP of a task that installed a filter, as {@code /proc/PID/status} says them: "thread
     * force mitigated" (SSB) or a "force" STIBP state means the filter forced the mitigation on.
     */
    static FeatureRecord speculation(KernelVersion v, FilteredTask task) {
        if (task.problem() != null) {
            return FeatureRecord.of(
                    Feature.SSB_STIBP_FORCED, v, null, "no filtered child to look at: " + task.problem());
        }
        String ssb = task.ssb();
        String ib = task.indirectBranch();
        String said = "filtered child: Speculation_Store_Bypass: " + ssb + "; SpeculationIndirectBranch: " + ib
                + "; this JVM (no filter): " + statusLine(Path.of("/proc/self/status"), "Speculation_Store_Bypass:");
        if (ssb == null || ssb.startsWith("not vulnerable") || ssb.equals("unknown")) {
            return FeatureRecord.of(Feature.SSB_STIBP_FORCED, v, null, "not observable on this CPU: " + said);
        }
        boolean forced = ssb.contains("force") || ib != null && ib.contains("force");
        return FeatureRecord.of(Feature.SSB_STIBP_FORCED, v, forced ? Feature.FORCED : Feature.NOT_FORCED, said);
    }

    /**
     * What a child under the abcdf static floor shows of itself, read while it is in its warm-up.
     *
     * @param problem why there is no child to look at, or null
     */
    record FilteredTask(String ssb, String indirectBranch, String seccompCache, String problem) {}

    /**
     * Starts a child under the abcdf floor, reads its status (and seccomp_cache, where there is one) mid-run, ends it.
     */
    static FilteredTask filteredTask() {
        ChildSpec spec = ChildSpec.of(Call.GETPPID, ChildSpec.MAX_WARMUP, 1)
                .withCpu(Cpus.measuring())
                .withPrograms(Floors.staticFloor("static floor, abcdf", Fixtures.profile("abcdf"))
                        .bytes());
        try (RunningChild child = MeasuredChild.start(spec)) {
            if (!child.awaitPhase(Phase.WARMUP, DEADLINE)) {
                return new FilteredTask(
                        null,
                        null,
                        null,
                        "the filtered child did not reach its warm-up within " + DEADLINE.toSeconds() + " s (phase "
                                + child.phase() + ")");
            }
            Path proc = Path.of("/proc", Integer.toString(child.pid()));
            String ssb = statusLine(proc.resolve("status"), "Speculation_Store_Bypass:");
            String ib = statusLine(proc.resolve("status"), "SpeculationIndirectBranch:");
            String cache = null;
            if (Files.exists(proc.resolve("seccomp_cache"), LinkOption.NOFOLLOW_LINKS)) {
                cache = Files.readString(proc.resolve("seccomp_cache"), StandardCharsets.US_ASCII);
            }
            child.kill();
            return new FilteredTask(ssb, ib, cache, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new FilteredTask(null, null, null, "interrupted");
        } catch (IOException | RuntimeException e) {
            return new FilteredTask(null, null, null, String.valueOf(e.getMessage()));
        }
    }

    /** The value of the line starting with {@code key} in a status file, or null. */
    static String statusLine(Path status, String key) {
        try {
            return Files.readAllLines(status, StandardCharsets.US_ASCII).stream()
                    .filter(l -> l.startsWith(key))
                    .map(l -> l.substring(key.length()).strip())
                    .findFirst()
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }
}
