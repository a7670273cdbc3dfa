package heimdall.lab.probe;

import heimdall.lab.Refusal;
import heimdall.lab.sys.Scratch;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a command under {@code heimdall-trace} (ptrace, every thread and child followed) and reads
 * the events back. The command's stdout and stderr are kept (the first 64 KiB of each) rather than
 * mixed into ours, so a probe's output stays readable.
 */
public final class Tracer {
    private static final int KEEP = 64 * 1024;
    /** heimdall-trace's own failure status (bad usage, ptrace refused, ...). */
    public static final int TRACER_FAILED = 125;

    private final Path tracer;
    private final boolean maps;
    private final int stackWords;

    /**
     * @param maps also record each process's executable mappings (at exit_group and execve)
     * @param stackWords also record this many words at the stack pointer of each call (0 to 64)
     */
    public Tracer(Path tracer, boolean maps, int stackWords) {
        if (stackWords < 0 || stackWords > 64) {
            throw new IllegalArgumentException("stackWords must be 0 to 64, not " + stackWords);
        }
        this.tracer = tracer;
        this.maps = maps;
        this.stackWords = stackWords;
    }

    /** A tracer using the native build's {@code heimdall-trace}, recording calls only (what the probe needs). */
    public static Tracer standard() {
        return new Tracer(NativeExecutables.tracer(), false, 0);
    }

    /**
     * A tracer that also records mappings and {@code stackWords} stack words per call: what a graph
     * recorder needs to attribute a call to its call site rather than to libc's wrapper.
     */
    public static Tracer withCallSites(int stackWords) {
        return new Tracer(NativeExecutables.tracer(), true, stackWords);
    }

    /**
     * One traced run.
     *
     * @param status the command's exit status, 128+signal when a signal killed it
     * @param events every event, in entry order
     */
    public record Run(int status, List<TraceEvent> events, String stdout, String stderr) {
        public Run {
            events = List.copyOf(events);
        }

        /** The syscall events alone, in entry order. */
        public List<TraceEvent.Syscall> syscalls() {
            List<TraceEvent.Syscall> out = new ArrayList<>();
            for (TraceEvent e : events) {
                if (e instanceof TraceEvent.Syscall s) {
                    out.add(s);
                }
            }
            return out;
        }
    }

    /**
     * Traces {@code command} to completion. A refusal when the tracer itself could not work (no
     * ptrace permission, a kernel without PTRACE_GET_SYSCALL_INFO), with its message.
     */
    public Run run(List<String> command) throws IOException, InterruptedException {
        return run(command, null);
    }

    /** {@link #run(List)} with {@code dir} as the command's working folder (null: this process's). */
    public Run run(List<String> command, Path dir) throws IOException, InterruptedException {
        return run(command, dir, Map.of());
    }

    /**
     * {@link #run(List, Path)} with {@code environment} added to this process's environment (a name given
     * replaces this process's value): the environment the command will be run in elsewhere, so that what is
     * recorded is what that run does.
     */
    public Run run(List<String> command, Path dir, Map<String, String> environment)
            throws IOException, InterruptedException {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command to trace");
        }
        try (Scratch scratch = Scratch.create("heimdall-trace-")) {
            Path files = scratch.path();
            Path trace = files.resolve("trace.jsonl");
            Path out = files.resolve("stdout");
            Path err = files.resolve("stderr");
            // --parent: the tracer, and with it every tracee, dies with this JVM (PR_SET_PDEATHSIG, then
            // EXITKILL). The death signal follows this thread, which waits for the tracer below.
            List<String> argv = new ArrayList<>(List.of(
                    tracer.toString(),
                    "-o",
                    trace.toString(),
                    "--parent",
                    String.valueOf(ProcessHandle.current().pid())));
            if (maps) {
                argv.add("--maps");
            }
            if (stackWords > 0) {
                argv.addAll(List.of("--stack", String.valueOf(stackWords)));
            }
            argv.add("--");
            argv.addAll(command);
            ProcessBuilder pb = new ProcessBuilder(argv);
            pb.environment().putAll(environment);
            if (dir != null) {
                pb.directory(dir.toFile());
            }
            Process p = pb.redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            int status;
            try {
                status = p.waitFor();
            } catch (InterruptedException e) {
                p.destroyForcibly(); // the tracer's death takes the tracees with it (PTRACE_O_EXITKILL)
                throw e;
            }
            String stderr = head(err);
            if (status == TRACER_FAILED && stderr.contains("heimdall-trace:")) {
                throw new Refusal("tracing " + command.get(0) + " failed: " + stderr.strip());
            }
            List<TraceEvent> events = Files.exists(trace) ? TraceReader.read(trace) : List.of();
            return new Run(status, events, head(out), stderr);
        }
    }

    private static String head(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        byte[] all = Files.readAllBytes(file);
        int n = Math.min(all.length, KEEP);
        return new String(all, 0, n, StandardCharsets.UTF_8);
    }
}
