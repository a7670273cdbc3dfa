package heimdall.lab.reproduce.workloadcost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Refusal;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Policy;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.broker.SupervisorOptions;
import heimdall.lab.broker.SupervisorStats;
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

/**
 * One run of one workload under one mechanism: {@code heimdall-workload} forks the program, installs the
 * filter ({@code bpf}, or none) right before its exec and reports wall time and rusage; for a brokered
 * mechanism its listener is copied here ({@code pidfd_getfd}) and a supervisor of this process answers it.
 */
final class OneRun {
    private OneRun() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** AT_FDCWD, as the kernel passes it in a 64-bit register. */
    private static final int AT_FDCWD = -100;

    private static final long O_ACCMODE = 3;
    private static final long O_CREAT = 0100;

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
            String stderr) {
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
     * The policy of {@link Mechanism#BROKER_BROKER_JAVA}: a read-only open of a relative name from the working
     * folder is the broker's (opened beneath the workload's folder, which is its working folder); every other
     * open continues, as the program asked it.
     */
    static Policy inputsBeneathIn() {
        return n -> {
            boolean fromCwd = switch (n.call()) {
                case OPEN -> true;
                case OPENAT -> (int) n.arg(0) == AT_FDCWD;
                default -> false; // openat2 and creat: as the program asked
            };
            if (!fromCwd || (n.openFlags() & (O_ACCMODE | O_CREAT)) != 0) {
                return Answer.CONTINUE;
            }
            return n.readPath() > 0 && n.pathByte(0) != '/' ? Answer.BROKER : Answer.CONTINUE;
        };
    }

    /** Runs {@code w} once under {@code m}, with {@code bpf} installed (null for none). */
    static Result run(Workload w, Mechanism m, Path bpf) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(
                List.of(NativeExecutables.find("heimdall-workload").toString()));
        if (bpf != null) {
            argv.addAll(List.of("-f", bpf.toString()));
        }
        if (m.brokered()) {
            argv.add("-l");
        }
        argv.addAll(List.of("-C", w.dir().toString(), "--"));
        argv.addAll(w.command());
        Process p = new ProcessBuilder(DieWithJvm.command(argv))
                .redirectError(ProcessBuilder.Redirect.PIPE)
                .start();
        Supervisor sup = null;
        SupervisorStats stats = null;
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
                        ? Supervisor.start(fd, o, inputsBeneathIn())
                        : Supervisor.start(m.supervisor, fd, o, m.answer);
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
                    j.get("stderr").asText());
        } finally {
            if (sup != null && stats == null) {
                sup.stop();
            }
            if (p.isAlive()) {
                p.destroyForcibly();
                p.waitFor();
            }
        }
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
