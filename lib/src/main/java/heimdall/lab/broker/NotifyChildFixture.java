package heimdall.lab.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * TEST FIXTURE, not the measured child: drives {@code native/test/notify-child.c}, a small process
 * whose {@code openat} calls are notified to a listener, for the broker's tests and
 * {@code ./lab broker bench} until the measured child ({@code heimdall-runner}) is merged.
 *
 * <p>The listener reaches this JVM with {@code pidfd_getfd}; the fixture then closes its own copy, so
 * {@link #takeListener()} returns the only reference (closing it makes the child's calls fail with
 * {@code ENOSYS}). Every reply is awaited with a timeout, so a call that hangs fails loudly instead of
 * hanging the caller.
 */
public final class NotifyChildFixture implements AutoCloseable {
    /** How long to wait for one reply before declaring the child stuck. */
    public static final long REPLY_TIMEOUT_SECONDS = 30;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final OutputStream commands;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<JsonNode> unclaimed = new ArrayList<>();
    private final int pid;
    private final int cpu;
    private int listener = -1;
    private boolean listenerTaken;
    private int serverPid;

    /**
     * How to start the fixture.
     *
     * @param cpu pin the child to this CPU, -1 not pinned
     * @param filter install the notifying filter (false: the same calls with no filter, a baseline)
     * @param extra null, or {@code before}/{@code after}: a second, allow-all program installed before
     *     or after the notifying one (a stacked floor)
     * @param workDir the child's working directory (what a {@code CONTINUE}d relative openat resolves
     *     against)
     * @param program null for the fixture's own notifying program ({@code openat} notified, the rest
     *     allowed), or a file of raw {@code struct sock_filter} instructions installed instead (with the
     *     new listener), e.g. {@link heimdall.lab.floor.Floors#brokerFloor()} compiled
     * @param jail (root) the child first enters a mount namespace of its own whose root is an empty
     *     tmpfs, the old root detached ({@code pivot_root}): the jail of issue 29
     * @param user null, or {@code UID:GID[:G1,G2..]} (root): the ids and groups the child takes on
     *     before it installs its filter (after the jail)
     */
    public record Options(
            int cpu, boolean filter, String extra, Path workDir, Path program, boolean jail, String user) {
        public Options(int cpu, boolean filter, String extra, Path workDir) {
            this(cpu, filter, extra, workDir, null, false, null);
        }

        public static Options in(Path workDir) {
            return new Options(-1, true, null, workDir);
        }

        public Options onCpu(int cpu) {
            return new Options(cpu, filter, extra, workDir, program, jail, user);
        }

        public Options withFilter(boolean filter) {
            return new Options(cpu, filter, extra, workDir, program, jail, user);
        }

        public Options stacked(String extra) {
            return new Options(cpu, filter, extra, workDir, program, jail, user);
        }

        /** The notifying program from {@code file} (raw instructions) instead of the fixture's own. */
        public Options withProgram(Path file) {
            return new Options(cpu, filter, extra, workDir, file, jail, user);
        }

        /** In the jail of issue 29 (root). */
        public Options jailed() {
            return new Options(cpu, filter, extra, workDir, program, true, user);
        }

        /** Running as {@code uid}:{@code gid} with {@code groups} (root). */
        public Options as(int uid, int gid, int... groups) {
            StringBuilder b = new StringBuilder().append(uid).append(':').append(gid);
            for (int i = 0; i < groups.length; i++) {
                b.append(i == 0 ? ':' : ',').append(groups[i]);
            }
            return new Options(cpu, filter, extra, workDir, program, jail, b.toString());
        }
    }

    /** The result of one {@code openat} in the child. */
    public record OpenResult(int pid, String path, int fd, int errno, int bytes, byte[] content) {
        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    /**
     * One {@code race} command's counts: of {@code opens} calls, {@code marked} returned a file whose
     * content starts with the marker (what the supervisor must never serve), {@code served} another
     * file, and the rest failed ({@code EACCES}, {@code ENOENT}, any other errno).
     */
    public record RaceResult(
            long opens, long marked, long served, long eacces, long enoent, long other, int firstOtherErrno) {}

    /** One {@code bench} command's samples. */
    public record BenchRun(long[] samplesNs, long errors, int firstErrno, long timerNs, int cpu) {}

    private NotifyChildFixture(Process process, int pid, int cpu) {
        this.process = process;
        this.commands = process.getOutputStream();
        this.pid = pid;
        this.cpu = cpu;
    }

    /**
     * Starts {@code native/test/fuse-freeze} instead (root only): the same protocol, its openat
     * notified, and a {@link #freeze()} whose name lies in a FUSE page that is never served. Its server
     * runs as a thread of the child, or with {@code serverProcess} in a process of its own that killing
     * the child does not end ({@link #serverPid()}); {@code mountDir} must be an empty directory.
     */
    public static NotifyChildFixture startFuseFreeze(Path mountDir, boolean serverProcess, Path workDir)
            throws IOException {
        BrokerNative.require();
        List<String> cmd = new ArrayList<>();
        cmd.add(NativeLib.file("fuse-freeze").toString());
        if (serverProcess) {
            cmd.add("--server-process");
        }
        cmd.add(mountDir.toString());
        return launch(cmd, workDir, -1, true);
    }

    /**
     * Starts {@code native/test/fork-pressure} instead: a correct program with a heap of
     * {@code heapMib} MiB, every page touched (so that its fork copies page tables and its mprotect
     * walks them, holding its memory-map lock for tens of milliseconds), its openat notified; see
     * {@link #pressure}.
     */
    public static NotifyChildFixture startForkPressure(int heapMib, Path workDir) throws IOException {
        BrokerNative.require();
        List<String> cmd = List.of(NativeLib.file("fork-pressure").toString(), "--heap-mib", Integer.toString(heapMib));
        return launch(cmd, workDir, -1, true);
    }

    /**
     * One fork-pressure run's tallies: {@code opens} calls made, {@code wrong} of them served a file
     * whose content was not the expected one, {@code errors} failed ({@code firstErrno} the first's
     * errno); {@code ops} forks or mprotects made by the main thread ({@code failedOps} failed), the
     * longest and the mean of them.
     */
    public record PressureRun(
            long opens,
            long wrong,
            long errors,
            int firstErrno,
            long openMaxNs,
            long ops,
            long failedOps,
            long opMaxNs,
            long opMeanNs) {}

    /**
     * fork-pressure: for {@code ms} milliseconds one thread opens {@code path} every 200 µs (each read
     * must give {@code expected}) while the main thread forks a helper ({@code fork}), mprotects its heap
     * ({@code mprotect}), or both in turn ({@code both}) every 20 ms.
     */
    public PressureRun pressure(String mode, long ms, String path, byte[] expected) throws IOException {
        checkPath(mode);
        checkPath(path);
        send("run " + mode + " " + ms + " " + path + " " + HexFormat.of().formatHex(expected));
        long timeout = TimeUnit.MILLISECONDS.toSeconds(ms) + REPLY_TIMEOUT_SECONDS;
        JsonNode j = await(x -> x.path("op").asText().equals("ran"), timeout);
        if (j.has("error")) {
            throw new Refusal("fork-pressure run: " + j.get("error").asText());
        }
        return new PressureRun(
                j.get("opens").asLong(),
                j.get("wrong").asLong(),
                j.get("errors").asLong(),
                j.get("first_errno").asInt(),
                j.get("open_max_ns").asLong(),
                j.get("ops").asLong(),
                j.get("failed_ops").asLong(),
                j.get("op_max_ns").asLong(),
                j.get("op_mean_ns").asLong());
    }

    /** Starts the child and, with a filter, takes its listener over. */
    public static NotifyChildFixture start(Options options) throws IOException {
        BrokerNative.require();
        List<String> cmd = new ArrayList<>();
        cmd.add(NativeLib.file("notify-child").toString());
        if (options.cpu() >= 0) {
            cmd.add("--cpu");
            cmd.add(Integer.toString(options.cpu()));
        }
        if (!options.filter()) {
            cmd.add("--no-filter");
        }
        if (options.extra() != null) {
            cmd.add("--extra");
            cmd.add(options.extra());
        }
        if (options.program() != null) {
            cmd.add("--program");
            cmd.add(options.program().toString());
        }
        if (options.jail()) {
            cmd.add("--jail");
        }
        if (options.user() != null) {
            cmd.add("--user");
            cmd.add(options.user());
        }

        return launch(cmd, options.workDir(), options.cpu(), options.filter());
    }

    private static NotifyChildFixture launch(List<String> cmd, Path workDir, int cpu, boolean filter)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        Process p = pb.start();
        NotifyChildFixture f = new NotifyChildFixture(p, (int) p.pid(), cpu);
        f.startReader();
        try {
            JsonNode hello = f.await(j -> j.path("op").asText().equals("hello"));
            if (hello.has("error")) {
                throw new Refusal(Path.of(cmd.get(0)).getFileName() + " could not start: "
                        + hello.get("error").asText());
            }
            f.serverPid = hello.path("server").asInt(0);
            if (filter) {
                int remote = hello.get("listener").asInt();
                int fd = BrokerNative.hl_pidfd_getfd(f.pid, remote);
                if (fd < 0) {
                    throw new Refusal("pidfd_getfd of the child's listener: " + Libc.describe(-fd)
                            + " (needs ptrace access to the child, Linux 5.6)");
                }
                f.listener = fd;
                f.send("close-listener");
                f.await(j -> j.path("op").asText().equals("ok"));
            }
            return f;
        } catch (RuntimeException | IOException e) {
            f.close();
            throw e;
        }
    }

    private void startReader() {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = r.readLine()) != null) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        // the child is gone; await() reports the missing reply
                    }
                },
                "notify-child-reader-" + process.pid());
        t.setDaemon(true);
        t.start();
    }

    /** The child's pid. */
    public int pid() {
        return pid;
    }

    /** The CPU the child pinned itself to, -1 not pinned. */
    public int cpu() {
        return cpu;
    }

    /** Hands the listener over: the caller (a supervisor) now owns it. */
    public int takeListener() {
        if (listener < 0 || listenerTaken) {
            throw new IllegalStateException("no listener to take (started without a filter, or taken already)");
        }
        listenerTaken = true;
        return listener;
    }

    private void send(String line) throws IOException {
        commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
    }

    /** Waits for the next line matching {@code which}, keeping the others for later awaits. */
    private JsonNode await(Predicate<JsonNode> which) throws IOException {
        return await(which, REPLY_TIMEOUT_SECONDS);
    }

    /** {@link #await(Predicate)} with a timeout of {@code seconds}. */
    private JsonNode await(Predicate<JsonNode> which, long seconds) throws IOException {
        for (Iterator<JsonNode> it = unclaimed.iterator(); it.hasNext(); ) {
            JsonNode j = it.next();
            if (which.test(j)) {
                it.remove();
                return j;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (; ; ) {
            long left = deadline - System.nanoTime();
            String line;
            try {
                // In slices: a child that died (killed by its supervisor) fails the wait at once, not at the timeout.
                line = left > 0 ? lines.poll(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS) : null;
                if (line == null && left > 0 && !process.isAlive()) {
                    line = lines.poll(200, TimeUnit.MILLISECONDS); // what it printed last, still on its way
                    if (line == null) {
                        throw new IOException("notify-child (pid " + pid + ") ended before its reply: exit status "
                                + process.exitValue()
                                + (process.exitValue() > 128 ? " (signal " + (process.exitValue() - 128) + ")" : ""));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for notify-child");
            }
            if (line == null && System.nanoTime() - deadline < 0) {
                continue;
            }
            if (line == null) {
                throw new IOException("notify-child (pid " + pid + ") gave no reply within " + seconds
                        + " s: its call hangs" + (process.isAlive() ? "" : " (it exited " + process.exitValue() + ")"));
            }
            JsonNode j = JSON.readTree(line);
            if (which.test(j)) {
                return j;
            }
            unclaimed.add(j);
        }
    }

    private static OpenResult openResult(JsonNode j) {
        byte[] content = HexFormat.of().parseHex(j.get("content_hex").asText());
        return new OpenResult(
                j.get("pid").asInt(),
                j.get("path").asText(),
                j.get("fd").asInt(),
                j.get("errno").asInt(),
                j.get("bytes").asInt(),
                content);
    }

    /** {@code openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC)} in the child; reads up to 256 bytes. */
    public OpenResult open(String path) throws IOException {
        return open(path, -1);
    }

    /** {@code openat(AT_FDCWD, path, flags)} in the child ({@code flags} -1: read-only, close-on-exec). */
    public OpenResult open(String path, int flags) throws IOException {
        checkPath(path);
        send(flags < 0 ? "open " + path : "open " + path + " " + flags);
        return openResult(
                await(j -> j.path("op").asText().equals("open") && j.path("pid").asInt() == pid));
    }

    /**
     * One open by name of {@code kind} in the child ({@code open}, {@code openat}, {@code creat},
     * {@code openat2}, {@code x32-open}, {@code x32-openat}, {@code i386-open}); reads up to 256 bytes.
     * For {@code openat2}: {@code flags} and {@code resolve} of a {@code struct open_how} of
     * {@code size} bytes whose last byte is {@code tail} (when {@code size > 24} and {@code tail >= 0}).
     */
    public OpenResult call(String kind, String path, long flags, long resolve, long size, int tail) throws IOException {
        checkPath(kind);
        checkPath(path);
        send("call " + kind + " " + path + " " + flags + " " + resolve + " " + size + " " + tail);
        return openResult(
                await(j -> j.path("op").asText().equals("open") && j.path("pid").asInt() == pid));
    }

    /** {@link #call} in a forked worker sharing the filter (it may be killed: {@link #reap()}); its pid. */
    public int forkCall(String kind, String path, long flags, long resolve, long size, int tail) throws IOException {
        checkPath(kind);
        checkPath(path);
        send("fork-call " + kind + " " + path + " " + flags + " " + resolve + " " + size + " " + tail);
        return await(j -> j.path("op").asText().equals("forked")).get("pid").asInt();
    }

    /**
     * {@link #forkCall} of {@code kind} on {@code path} with {@code flags} in a worker that first takes on
     * {@code uid}, {@code gid} and {@code groups} (the child must be root); its pid, for
     * {@link #awaitWorkerOpen}.
     */
    public int forkAs(int uid, int gid, int[] groups, String kind, String path, long flags) throws IOException {
        checkPath(kind);
        checkPath(path);
        StringBuilder g = new StringBuilder();
        for (int x : groups) {
            g.append(g.length() == 0 ? "" : ",").append(x);
        }
        send("fork-as " + uid + " " + gid + " " + (g.length() == 0 ? "-" : g) + " " + kind + " " + path + " " + flags);
        return await(j -> j.path("op").asText().equals("forked")).get("pid").asInt();
    }

    /**
     * The jail attack's steps (notify-child's {@code escape}): each one's errno, 0 when it worked;
     * {@code host} counts the steps that reached anything (0 is the only right answer).
     */
    public record Escape(Map<String, Integer> steps) {
        public int step(String name) {
            Integer v = steps.get(name);
            if (v == null) {
                throw new IllegalStateException("no step " + name + " in " + steps);
            }
            return v;
        }

        public int host() {
            return step("host");
        }
    }

    /** Runs the jail attack from {@code dir} (asked of the broker) towards the host's paths. */
    public Escape escape(String dir, Path hostDir, Path hostSocket, Path hostBinary) throws IOException {
        for (String p : List.of(dir, hostDir.toString(), hostSocket.toString(), hostBinary.toString())) {
            checkPath(p);
        }
        send("escape " + dir + " " + hostDir + " " + hostSocket + " " + hostBinary);
        JsonNode j = await(x -> x.path("op").asText().equals("escape"));
        if (j.has("error")) {
            throw new Refusal("notify-child escape: " + j.get("error").asText());
        }
        Map<String, Integer> steps = new LinkedHashMap<>();
        j.fields().forEachRemaining(e -> {
            if (!e.getKey().equals("op")) {
                steps.put(e.getKey(), e.getValue().asInt());
            }
        });
        return new Escape(steps);
    }

    /** A forked worker makes the raw call {@code nr} with numeric arguments and exits; its pid. */
    public int forkSys(int nr, long... args) throws IOException {
        StringBuilder b = new StringBuilder("fork-sys ").append(nr);
        for (long a : args) {
            b.append(' ').append(a);
        }
        send(b.toString());
        return await(j -> j.path("op").asText().equals("forked")).get("pid").asInt();
    }

    /** Forks a worker sharing the child's filter that opens {@code path} and exits; its pid. */
    public int forkOpen(String path) throws IOException {
        checkPath(path);
        send("fork-open " + path);
        return await(j -> j.path("op").asText().equals("forked")).get("pid").asInt();
    }

    /** fuse-freeze's FUSE server process, 0 when it is a thread of the child (or for notify-child). */
    public int serverPid() {
        return serverPid;
    }

    /**
     * fuse-freeze: a thread of the child calls openat on a name in the never-served FUSE page, and
     * 20 ms later a forked worker opens {@code path}; the worker's pid.
     */
    public int freeze(String path) throws IOException {
        checkPath(path);
        send("freeze " + path);
        JsonNode j = await(x -> x.path("op").asText().equals("freezing"));
        if (j.has("error")) {
            throw new Refusal("fuse-freeze freeze: " + j.get("error").asText());
        }
        return j.get("worker").asInt();
    }

    /**
     * fuse-freeze: the errno (0: none) of the frozen call, once it returned (it does when its supervisor
     * answers it without reading the page), waiting up to {@code seconds}.
     */
    public int awaitFuseFrozenOpen(long seconds) throws IOException {
        return await(j -> j.path("op").asText().equals("frozen-open"), seconds)
                .get("errno")
                .asInt();
    }

    /** A worker's open and how long its call took in the worker (fuse-freeze's workers time it). */
    public record TimedOpen(OpenResult result, long ns) {}

    /** The timed result a fuse-freeze worker printed. */
    public TimedOpen awaitTimedWorkerOpen(int workerPid) throws IOException {
        JsonNode j =
                await(x -> x.path("op").asText().equals("open") && x.path("pid").asInt() == workerPid);
        return new TimedOpen(openResult(j), j.path("ns").asLong(-1));
    }

    /** Whether the child process is still alive. */
    public boolean alive() {
        return process.isAlive();
    }

    /** A {@code uffd-open} worker: its pid, and the pid of its child holding the userfaultfd. */
    public record FrozenWorker(int pid, int holder) {}

    /**
     * Forks a worker whose {@code openat} names a page registered with userfaultfd and never served
     * (see {@code uffd-open} in notify-child.c); returns once the worker is about to make that call.
     *
     * @throws Refusal naming the errno when the worker cannot set up userfaultfd
     */
    public FrozenWorker uffdOpen() throws IOException {
        send("uffd-open");
        int worker =
                await(j -> j.path("op").asText().equals("forked")).get("pid").asInt();
        JsonNode j = await(x -> x.path("op").asText().equals("uffd"));
        if (j.has("error")) {
            throw new Refusal("notify-child uffd-open: " + j.get("error").asText() + " (errno "
                    + j.path("errno").asInt() + ")");
        }
        return new FrozenWorker(worker, j.get("holder").asInt());
    }

    /** The errno (0: none) of a {@code uffd-open} worker's frozen call, once it returned. */
    public int awaitFrozenOpen(FrozenWorker w) throws IOException {
        return await(j -> j.path("op").asText().equals("uffd-open")
                        && j.path("pid").asInt() == w.pid())
                .get("errno")
                .asInt();
    }

    /** The result a worker printed. */
    public OpenResult awaitWorkerOpen(int workerPid) throws IOException {
        return openResult(
                await(j -> j.path("op").asText().equals("open") && j.path("pid").asInt() == workerPid));
    }

    /** Waits for one worker to end; the signal that killed it (0 if it exited). */
    public int reap() throws IOException {
        send("reap");
        return await(j -> j.path("op").asText().equals("reaped")).get("signal").asInt();
    }

    /** {@code warmup} untimed then {@code calls} timed {@code openat(path)}+close in the child. */
    public BenchRun bench(int calls, int warmup, String path) throws IOException {
        checkPath(path);
        send("bench " + calls + " " + warmup + " " + path);
        JsonNode j = await(x -> x.path("op").asText().equals("bench"));
        if (j.has("error")) {
            throw new Refusal("notify-child bench: " + j.get("error").asText());
        }
        JsonNode s = j.get("samples_ns");
        // A run counts only with every sample it was asked for: a short reply is a failed run, not a smaller one.
        if (s == null || !s.isArray() || s.size() != calls) {
            throw new Refusal("notify-child bench: " + (s == null || !s.isArray() ? "no" : s.size() + " of " + calls)
                    + " samples in its reply");
        }
        long[] samples = new long[s.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = s.get(i).asLong();
        }
        return new BenchRun(
                samples,
                j.get("errors").asLong(),
                j.get("first_errno").asInt(),
                j.get("timer_ns").asLong(),
                j.get("cpu").asInt());
    }

    /**
     * The flipping-name attack: a second thread of the child rewrites one name buffer between
     * {@code a} and {@code b} without pause while the child makes {@code opens} {@code openat} calls on
     * that buffer; counts the opens whose content starts with {@code marker}.
     */
    public RaceResult race(int opens, String a, String b, String marker) throws IOException {
        checkPath(a);
        checkPath(b);
        checkPath(marker);
        send("race " + opens + " " + a + " " + b + " " + marker);
        JsonNode j = await(x -> x.path("op").asText().equals("race"));
        if (j.has("error")) {
            throw new Refusal("notify-child race: " + j.get("error").asText());
        }
        return new RaceResult(
                j.get("opens").asLong(),
                j.get("marked").asLong(),
                j.get("served").asLong(),
                j.get("eacces").asLong(),
                j.get("enoent").asLong(),
                j.get("other").asLong(),
                j.get("first_other_errno").asInt());
    }

    private static void checkPath(String path) {
        if (path.isEmpty() || path.contains(" ") || path.contains("\n")) {
            throw new IllegalArgumentException(
                    "fixture paths must be non-empty and contain no space or newline: '" + path + "'");
        }
    }

    /** Asks the child to exit (kills it if it does not) and closes the listener unless taken. */
    @Override
    public void close() {
        try {
            send("exit");
            commands.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (listener >= 0 && !listenerTaken) {
            BrokerNative.hl_close(listener);
            listener = -1;
        }
    }
}
