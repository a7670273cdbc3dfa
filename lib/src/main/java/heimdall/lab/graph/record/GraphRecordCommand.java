package heimdall.lab.graph.record;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Pins;
import heimdall.lab.probe.Tracer;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab graph record -- CMD...}: traces a run with ptrace and writes its executable syscall projection. */
public final class GraphRecordCommand implements Command {
    /**
     * Stack words recorded per call: enough for libc's deeper paths (stdio, pthread_create) to reach a program frame.
     */
    public static final int DEFAULT_STACK_WORDS = 64;

    private final PrintStream out;

    public GraphRecordCommand() {
        this(System.out);
    }

    GraphRecordCommand(PrintStream out) {
        this.out = out;
    }

    private static final CommandOptions OPTIONS =
            CommandOptions.of(Set.of("--no-symbols"), Set.of("--out", "--program", "--stack"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "graph record";
    }

    @Override
    public String summary() {
        return "trace a command with ptrace and write its executable syscall graph (Arrow pair, pinned)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab graph record [--out DIR] [--program NAME] [--stack N] [--no-symbols] -- CMD [ARGS...]

                Runs CMD under heimdall-trace (ptrace; every thread followed, mappings and N stack words per
                call recorded) and projects the run of CMD's own process (its threads; processes it forks are
                other programs and are left out) onto an executable syscall graph:

                  site      one per (syscall, call site); the call site is the return address into the
                            program's own code (first plausible return address outside libc, the loader and
                            the vDSO in the recorded stack words; the syscall's ip when the program makes it
                            inline or no program frame is found). function = symbol (addr2line) and
                            object+0xoffset.
                  next      each thread's observed successions (a site followed by itself: an again edge)
                  entries   main (the main thread); thread:<site> for other threads: the call site of the
                            clone/clone3 that created them when it is in program code, else the thread's
                            first call site in program code (its start routine's); signal:<NAME> for handled
                            signals (a delivery closed by rt_sigreturn)
                  terminal  the last call of each thread that ended

                Writes DIR/NAME.exec.nodes.arrow and DIR/NAME.exec.edges.arrow and rewrites their lines in
                DIR/SHA256SUMS (other lines kept), then imports the pair with its pins and prints whether the
                import accepts it. A syscall number outside 0..511 is written as a null syscall, which import
                refuses.

                  --out DIR      where to write (default: the current folder)
                  --program NAME file name prefix (default: CMD's file name)
                  --stack N      stack words recorded per call, 1 to 64 (default 64)
                  --no-symbols   do not run addr2line for function names

                Exit status: 0 written (and imported); 1 refused: the traced command failed, tracing was not
                possible, or the written graph does not import (the files are kept, the reason printed); 2 bad input.
                """;
    }

    @Override
    public int run(List<String> argv) throws IOException, InterruptedException {
        Args args = Args.parse("graph record", argv, OPTIONS).atMost(0);
        List<String> command = args.afterDashes();
        if (command.isEmpty()) {
            throw new BadInput("graph record: no command after -- (./lab graph record --help)");
        }
        int stack = args.intValue("--stack", DEFAULT_STACK_WORDS, 1, 64);
        Path dir = Path.of(args.value("--out").orElse("."));
        String program = args.value("--program")
                .orElse(Path.of(command.get(0)).getFileName().toString());
        if (!program.matches("[A-Za-z0-9._+-]+")) {
            throw new BadInput("option --program: '" + program + "' must be a plain file name prefix");
        }
        Result r = record(command, dir, program, stack, !args.flag("--no-symbols"));
        GraphRecorder.Recording rec = r.recording();
        out.printf(
                Locale.ROOT,
                "recorded %s: %,d calls in %d thread(s) %s, %d signal frame(s)%n",
                String.join(" ", command),
                rec.calls(),
                rec.threads().values().stream().mapToInt(List::size).sum(),
                rec.threads().keySet(),
                rec.signalFrames());
        out.printf(
                Locale.ROOT,
                "sites %d (unmapped %d), edges %d, entries %s%n",
                rec.sites().size(),
                rec.unmapped(),
                rec.edges().size(),
                rec.sites().stream()
                        .flatMap(s -> s.firstOf().stream())
                        .distinct()
                        .sorted()
                        .toList());
        out.println("wrote " + r.nodes() + " and " + r.edges() + ", pinned in " + dir.resolve(Pins.FILE_NAME));
        try {
            GraphFiles.Imported imp = GraphFiles.readPinned(r.nodes(), r.edges());
            out.printf(
                    Locale.ROOT,
                    "import: ok, %d sites, entries %s%n",
                    imp.graph().siteCount(),
                    imp.graph().entries());
            return 0;
        } catch (Refusal e) {
            out.println("import: refused: " + e.getMessage());
            return 1;
        }
    }

    /** What one recording wrote. */
    public record Result(GraphRecorder.Recording recording, Path nodes, Path edges, int status) {}

    /**
     * Traces {@code command}, records its projection and writes it pinned into {@code dir}.
     *
     * @throws Refusal when tracing is impossible or the command fails (a failed run is not the
     *     program's projection)
     */
    public static Result record(List<String> command, Path dir, String program, int stackWords, boolean symbols)
            throws IOException, InterruptedException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            SafeFiles.ownFolder("--out", dir); // refused before the command runs, not after
        }
        Tracer.Run run = Tracer.withCallSites(stackWords).run(command);
        if (run.status() != 0) {
            throw new Refusal("the traced command " + command + " ended with status " + run.status()
                    + (run.stderr().isBlank() ? "" : ": " + run.stderr().strip()));
        }
        GraphRecorder.Recording rec =
                GraphRecorder.record(run.events(), symbols ? Symbols.addr2line() : Symbols.none());
        // Only into a folder we made or one nobody else can change: in a shared folder a planted
        // SHA256SUMS (a FIFO, a link, another user's file with an extra pin line) would be used.
        SafeFiles.ownFolder("--out", dir);
        Path nodes = dir.resolve(program + GraphFiles.NODES_SUFFIX);
        Path edges = dir.resolve(program + GraphFiles.EDGES_SUFFIX);
        GraphFiles.writeNodes(rec.sites(), nodes);
        GraphFiles.writeEdges(rec.edges(), edges);
        Pins.rewrite(dir, List.of(nodes, edges));
        return new Result(rec, nodes, edges, run.status());
    }
}
