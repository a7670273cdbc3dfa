package heimdall.lab.cli;

import heimdall.lab.Printable;
import heimdall.lab.analysis.CompareCommand;
import heimdall.lab.analysis.DistillCommand;
import heimdall.lab.broker.BrokerBenchCommand;
import heimdall.lab.child.ChildRunCommand;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandLookup;
import heimdall.lab.explore.ExploreAbCommand;
import heimdall.lab.explore.ExploreCheckCommand;
import heimdall.lab.follower.FollowCheckCommand;
import heimdall.lab.follower.FollowCommand;
import heimdall.lab.graph.GraphInfoCommand;
import heimdall.lab.graph.record.GraphRecordCommand;
import heimdall.lab.probe.ProfileGenCommand;
import heimdall.lab.probe.ProfileProbeCommand;
import heimdall.lab.probe.ProfileRegenCommand;
import heimdall.lab.reproduce.ReproduceCommand;
import heimdall.lab.reproduce.graphjmh.GraphJmhCommand;
import heimdall.lab.vm.VmFetchCommand;
import heimdall.lab.vm.VmKernelsCommand;
import heimdall.lab.vm.VmRunCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code ./lab} entry point: picocli's command tree ({@link CommandTree}) over {@link #commands()}.
 * Exit status ({@link ExitStatus}): 0 success, 1 refusal, 2 bad input or usage, or a file that cannot
 * be read or written, or memory exhausted (the message names the file or limit and the reason), 3 an
 * internal error (a bug).
 */
public final class Main {
    private Main() {}

    /**
     * Every command, in the order {@code ./lab --help} lists them. A new command is registered by one
     * line here; its name's first word is its group.
     */
    static List<Command> commands() {
        return List.of(
                // one line per command; keep grouped by concern
                new ReproduceCommand(),
                new CompareCommand(),
                new BpfCommands.CompileCmd(),
                new BpfCommands.DisasmCmd(),
                new BpfCommands.StatsCmd(),
                new BpfCommands.SyscallTableCmd(),
                new ProfileProbeCommand(),
                new ProfileGenCommand(),
                new ProfileRegenCommand(),
                new ChildRunCommand(),
                new BrokerBenchCommand(),
                new GraphInfoCommand(),
                new GraphRecordCommand(),
                new FollowCommand(),
                new FollowCheckCommand(),
                new GraphJmhCommand(),
                new DistillCommand(),
                new ExploreCheckCommand(),
                new ExploreAbCommand(),
                new VmRunCommand(Main::select),
                new VmKernelsCommand(),
                new VmFetchCommand());
    }

    /** {@link #commands()}, then those the {@code ./lab} script runs itself, then {@code completion}. */
    static List<Command> everyCommand() {
        List<Command> all = new ArrayList<>(commands());
        all.addAll(ScriptCommand.ALL);
        all.add(new CompletionCommand(() -> CommandTree.build(everyCommand())));
        return all;
    }

    /**
     * The command {@code argv} selects, walked through the same command tree {@code ./lab} dispatches with (a
     * group's word, then its command's), for a command line run elsewhere ({@code ./lab vm run}).
     */
    static Optional<CommandLookup.Selected> select(List<String> argv) {
        CommandLine at = CommandTree.build(everyCommand());
        for (int i = 0; i < argv.size(); i++) {
            CommandLine next = at.getSubcommands().get(argv.get(i));
            if (next == null) {
                return Optional.empty();
            }
            if (next.getCommand() instanceof CommandTree.Leaf leaf) {
                return Optional.of(new CommandLookup.Selected(leaf.command, argv.subList(i + 1, argv.size())));
            }
            at = next;
        }
        return Optional.empty();
    }

    public static void main(String[] argv) {
        int status = run(Arrays.asList(argv), System.out, System.err);
        // PrintStream swallows write errors: a report that never reached its file (stdout redirected
        // to a full disk) must not end with status 0. checkError() flushes first.
        if (System.out.checkError() && status == 0) {
            System.err.println("lab: error: cannot write standard output (the disk is full, or its reader "
                    + "closed it): the output is incomplete");
            status = 2;
        }
        System.exit(status);
    }

    /**
     * Runs one command line with the given streams for the dispatcher's own messages, and returns
     * the exit status instead of exiting (for tests, jshell and notebooks).
     */
    public static int run(List<String> argv, PrintStream out, PrintStream err) {
        return run(everyCommand(), argv, out, err);
    }

    /** {@link #run(List, PrintStream, PrintStream)} over the given commands. */
    static int run(List<Command> commands, List<String> argv, PrintStream out, PrintStream err) {
        CommandLine root = CommandTree.build(commands);
        PrintWriter o = writerOn(out);
        PrintWriter e = writerOn(err);
        root.setOut(o);
        root.setErr(e);
        root.setParameterExceptionHandler(Main::usageError);
        root.setExecutionExceptionHandler((ex, line, parsed) -> {
            Throwable thrown = ex instanceof CommandTree.ErrorInCommand && ex.getCause() != null ? ex.getCause() : ex;
            String name =
                    line.getCommand() instanceof CommandTree.Leaf leaf ? leaf.command.name() : line.getCommandName();
            return ExitStatus.of(name, thrown, line.getErr());
        });
        try {
            return root.execute(argv.toArray(String[]::new));
        } finally {
            o.flush();
            e.flush();
        }
    }

    /** Usage errors, status 2: an unknown command or group names the word and suggests near ones. */
    private static int usageError(ParameterException ex, String[] argv) {
        CommandLine line = ex.getCommandLine();
        PrintWriter err = line.getErr();
        boolean leaf = line.getCommand() instanceof CommandTree.Leaf;
        if (!leaf
                && ex instanceof UnmatchedArgumentException u
                && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            String where = line.getParent() == null ? "" : line.getCommandName() + " ";
            String kind = word.startsWith("-") ? "option" : "command";
            err.println("lab: unknown " + kind + " '" + where + Printable.of(word) + "'; run " + CommandTree.PROGRAM
                    + " "
                    + where + "--help for the list");
            List<String> near = Suggestions.near(word, line.getSubcommands().keySet());
            if (!near.isEmpty()) {
                err.println("did you mean: "
                        + String.join(", ", near.stream().map(s -> where + s).toList()) + "?");
            }
            return ExitStatus.BAD_INPUT;
        }
        String name = leaf ? ((CommandTree.Leaf) line.getCommand()).command.name() : line.getCommandName();
        String why = ex.getMessage();
        if (ex instanceof MissingParameterException m
                && !m.getMissing().isEmpty()
                && m.getMissing().get(0) instanceof OptionSpec option) {
            why = "option " + option.longestName() + " needs a value"; // as Args says it
        }
        err.println("lab " + name + ": error: " + Printable.lines(why) + " (" + CommandTree.PROGRAM + " " + name
                + " --help)");
        return ExitStatus.BAD_INPUT;
    }

    /** A writer onto {@code stream} that keeps the stream's own charset (picocli writes to writers). */
    private static PrintWriter writerOn(PrintStream stream) {
        return new PrintWriter(
                new Writer() {
                    @Override
                    public void write(char[] chars, int offset, int length) {
                        stream.print(new String(chars, offset, length));
                    }

                    @Override
                    public void flush() {
                        stream.flush();
                    }

                    @Override
                    public void close() {
                        stream.flush();
                    }
                },
                true);
    }
}
