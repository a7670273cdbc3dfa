package heimdall.lab.reproduce.workloadcost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Refusal;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Policy;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.broker.SupervisorOptions;
import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.follower.Divergence;
import heimdall.lab.follower.Follower;
import heimdall.lab.follower.KernelTables;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.sys.DieWithJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run of one workload under one mechanism: {@code heimdall-workload} forks the program, installs the
 * filter ({@code bpf}, or none) right before its exec and reports wall time and rusage; for a brokered
 * mechanism its listener is copied here ({@code pidfd_getfd}) and a supervisor of this process answers it;
 * for Landlock the child enforces the ruleset on itself; for the follower the child is held before its exec
 * while the follower is attached here, armed for that exec.
 */
final class OneRun {
    private OneRun() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The SIGSYS of a seccomp kill. */
    static final int SIGSYS = 31;

    /**
     * What a run needs besides a filter.
     *
     * @param tmp the program's {@code TMPDIR} (every mechanism's runs alike), or null to leave the environment
     * @param landlock the ruleset's description the child enforces on itself, or null
     * @param follow the follower's tables, or null
     */
    record Extra(Path tmp, Path landlock, KernelTables follow) {
        static final Extra NONE = new Extra(null, null, null);

        Extra with(Path landlock, KernelTables follow) {
            return new Extra(tmp, landlock, follow);
        }
    }

    /**
     * What one run gave.
     *
     * @param exit the exit status, or null (a signal ended it, or it could not be executed)
     * @param signal the signal that ended it, or null
     * @param execErrno why the program could not be executed, or null
     * @param wallNs wall time from the go to its exit
     * @param userUs user CPU (its children waited for included)
     * @param systemUs system CPU
     * @param supervisorUs this process's CPU over the run (the supervisor's, when there is one)
     * @param nvcsw voluntary context switches
     * @param nivcsw involuntary context switches
     * @param minflt minor faults
     * @param majflt major faults
     * @param outBytes stdout's length
     * @param outHash stdout's FNV-1a 64 hash
     * @param ssb {@code Speculation_Store_Bypass} of the program as it ended
     * @param ib {@code SpeculationIndirectBranch} of the program as it ended (STIBP's per-task state)
     * @param killedByNr the call a seccomp kill named, or null
     * @param notified calls that reached the supervisor, or null without one
     * @param brokered calls the supervisor opened itself (the broker answer)
     * @param stderr the first bytes of its stderr
     * @param followed calls the kernel follower stepped, or null without it
     * @param divergence what the follower killed the program at, or null
     */
    record Result(
            Integer exit,
            Integer signal,
            Integer execErrno,
            long wallNs,
            long userUs,
            long systemUs,
            long supervisorUs,
            long nvcsw,
            long nivcsw,
            long minflt,
            long majflt,
            long outBytes,
            String outHash,
            String ssb,
            String ib,
            Integer killedByNr,
            Long notified,
            long brokered,
            String stderr,
            Long followed,
            Divergence divergence) {
        /** Exit status and stdout, what must not change under a mechanism. */
        String outcome() {
            return exit + "/" + signal + "/" + outBytes + "/" + outHash;
        }

        /** One phrase: {@code "exit 3"}, {@code "killed by signal 31"}, {@code "not executed (errno 2)"}. */
        String said() {
            if (execErrno != null) {
                return "not executed (errno " + execErrno + ")";
            }
            return signal != null ? "killed by signal " + signal : "exit " + exit;
        }
    }

    /**
     * The policy of the broker-broker rows ({@link Mechanism#BROKER_BROKER_JAVA}, {@link
     * Mechanism#BROKER_BROKER_NATIVE}): a read-only open of a relative name from the working folder is the
     * broker's (opened beneath the workload's folder, which is its working folder); every other open continues,
     * as the program asked it ({@link Policy#relativeReadsBrokered()}, which both supervisors run).
     */
    static Policy inputsBeneathIn() {
        return Policy.relativeReadsBrokered();
    }

    /** Runs {@code w} once under {@code m}, with {@code bpf} installed (null for none). */
    static Result run(Workload w, Mechanism m, Path bpf) throws IOException, InterruptedException {
        return run(w, m, bpf, Extra.NONE);
    }

    /** Runs {@code w} once under {@code m}, with {@code bpf} installed (null for none) and {@code extra}. */
    static Result run(Workload w, Mechanism m, Path bpf, Extra extra) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(DieWithJvm.command(launcher(w, m, bpf, extra)))
                .redirectError(ProcessBuilder.Redirect.PIPE);
        pb.environment().putAll(environment(extra));
        Process p = pb.start();
        Supervisor sup = null;
        SupervisorStats stats = null;
        Follower follower = null;
        Follower.Stats followed = null;
        Divergence divergence = null;
        try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                OutputStream in = p.getOutputStream()) {
            String line = out.readLine();
            if (m.brokered()) {
                if (line == null || !line.startsWith("listener ")) {
                    throw helperFailed(p, line);
                }
                int fd = Supervisor.copyListener(
                        (int) p.pid(), Integer.parseInt(line.substring(9).trim()));
                SupervisorOptions o = SupervisorOptions.defaults().brokeringBeneath(w.dir());
                sup = m.answer.kind() == Answer.Kind.BROKER
                        ? Supervisor.start(m.supervisor, fd, o, inputsBeneathIn())
                        : Supervisor.start(m.supervisor, fd, o, m.answer);
                in.write('\n');
                in.flush();
                line = null;
            }
            if (extra.follow() != null) {
                line = line == null ? out.readLine() : line;
                if (line == null || !line.startsWith("pid ")) {
                    throw helperFailed(p, line);
                }
                // armed for the child's exec: its calls from the first one after exec are stepped
                follower = Follower.attach(
                        extra.follow(), Integer.parseInt(line.substring(4).trim()), Enforcers.HOOK);
                in.write('\n');
                in.flush();
                line = null;
            }
            long cpu0 = jvmCpuNs();
            String result = line;
            for (String l = result == null ? out.readLine() : result; l != null; l = out.readLine()) {
                result = l;
            }
            long cpu1 = jvmCpuNs();
            int status = p.waitFor();
            if (sup != null) {
                stats = sup.stop();
            }
            if (follower != null) {
                followed = follower.stats();
                if (followed.killed()) {
                    List<Divergence> ds = follower.poll(100);
                    if (ds.isEmpty()) {
                        throw new Refusal("the follower killed the program and reported no divergence");
                    }
                    divergence = ds.get(0);
                }
            }
            if (status != 0 || result == null || !result.startsWith("{")) {
                throw helperFailed(p, result);
            }
            JsonNode j = JSON.readTree(result);
            return new Result(
                    intOrNull(j, "exit"),
                    intOrNull(j, "signal"),
                    intOrNull(j, "exec_errno"),
                    j.get("wall_ns").asLong(),
                    j.get("utime_us").asLong(),
                    j.get("stime_us").asLong(),
                    (cpu1 - cpu0) / 1000,
                    j.get("nvcsw").asLong(),
                    j.get("nivcsw").asLong(),
                    j.get("minflt").asLong(),
                    j.get("majflt").asLong(),
                    j.get("out_bytes").asLong(),
                    j.get("out_hash").asText(),
                    j.get("ssb").asText(),
                    j.path("ib").asText(""),
                    intOrNull(j, "killed_by_nr"),
                    stats == null ? null : stats.received(),
                    stats == null ? 0 : stats.brokered(),
                    j.get("stderr").asText(),
                    followed == null ? null : followed.calls(),
                    divergence);
        } finally {
            if (sup != null && stats == null) {
                sup.stop();
            }
            if (follower != null) {
                follower.close();
            }
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor();
            }
        }
    }

    /**
     * {@code heimdall-workload}'s command line for a run of {@code w} under {@code m}: the launcher of every run,
     * and of the follower's recording ({@link Enforcers#follower}), so that the program is recorded with the
     * stdin, stdout and stderr, folder and descriptors it is enforced with. The launcher's options change what
     * it does around the child (a filter, a listener, a ruleset, a hold before the exec), never the program's
     * descriptors, folder or environment.
     */
    static List<String> launcher(Workload w, Mechanism m, Path bpf, Extra extra) {
        List<String> argv = new ArrayList<>(
                List.of(NativeExecutables.find("heimdall-workload").toString()));
        if (bpf != null) {
            argv.addAll(List.of("-f", bpf.toString()));
        }
        if (m.brokered()) {
            argv.add("-l");
        }
        if (extra.landlock() != null) {
            argv.addAll(List.of("-L", extra.landlock().toString()));
        }
        if (extra.follow() != null) {
            argv.add("-w");
        }
        argv.addAll(List.of("-C", w.dir().toString(), "--"));
        argv.addAll(w.command());
        return argv;
    }

    /** What a run adds to this process's environment: {@code TMPDIR} when {@code extra} names one. */
    static Map<String, String> environment(Extra extra) {
        return extra.tmp() == null ? Map.of() : Map.of("TMPDIR", extra.tmp().toString());
    }

    /**
     * The program's own outcome from {@code heimdall-workload}'s report line (the last line of its stdout), or
     * null when the line is not its report.
     */
    static JsonNode report(String stdout) throws IOException {
        String s = stdout.strip();
        String last = s.substring(s.lastIndexOf('\n') + 1);
        return last.startsWith("{") ? JSON.readTree(last) : null;
    }

    private static Refusal helperFailed(Process p, String line) throws IOException, InterruptedException {
        if (p.isAlive()) {
            p.destroyForcibly();
        }
        p.waitFor();
        String err = new String(p.getErrorStream().readNBytes(2000), StandardCharsets.UTF_8).strip();
        return new Refusal("heimdall-workload failed (exit " + p.exitValue() + "): "
                + (err.isEmpty() ? String.valueOf(line) : err));
    }

    private static Integer intOrNull(JsonNode j, String key) {
        JsonNode v = j.get(key);
        return v == null || v.isNull() ? null : v.asInt();
    }

    /**
     * This JVM's CPU time so far, every thread (a native supervisor's pthread included), in nanoseconds: the
     * sum of {@code /proc/self/task/TID/schedstat}'s first field (time on a CPU, ns, not the 10 ms ticks of
     * {@code /proc/self/stat}). A thread that ended in between is missed; the supervisor's ends after the
     * second reading.
     */
    static long jvmCpuNs() {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat"), StandardCharsets.US_ASCII);
                    int sp = s.indexOf(' ');
                    sum += Long.parseLong(sp < 0 ? s.strip() : s.substring(0, sp));
                } catch (IOException | NumberFormatException e) {
                    // the thread ended while we read: its time is not counted
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading /proc/self/task", e);
        }
        return sum;
    }
}
