package heimdall.lab.cli;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.Refusal;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code ./lab} entry point: finds the longest command name matching the leading words and runs
 * it. Exit status: 0 success, 1 refusal, 2 bad input or usage, or a file that cannot be read or written,
 * or memory exhausted (the message names the file or limit and the reason), 3 an internal error (a bug).
 */
public final class Main {
    private Main() {}

    /** Every command, in the order {@code ./lab --help} lists them. */
    static List<Command> commands() {
        return List.of(
                // one line per command; keep grouped by concern
                new heimdall.lab.reproduce.ReproduceCommand(),
                new heimdall.lab.analysis.CompareCommand(),
                new BpfCommands.CompileCmd(),
                new BpfCommands.DisasmCmd(),
                new BpfCommands.StatsCmd(),
                new BpfCommands.SyscallTableCmd(),
                new heimdall.lab.probe.ProfileProbeCommand(),
                new heimdall.lab.probe.ProfileGenCommand(),
                new heimdall.lab.probe.ProfileRegenCommand(),
                new ChildRunCommand(),
                new heimdall.lab.broker.BrokerBenchCommand(),
                new heimdall.lab.graph.GraphInfoCommand(),
                new heimdall.lab.graph.record.GraphRecordCommand(),
                new heimdall.lab.follower.FollowCommand(),
                new heimdall.lab.reproduce.GraphJmhCommand(),
                new heimdall.lab.analysis.DistillCommand()
        );
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
        if (argv.isEmpty() || argv.get(0).equals("--help") || argv.get(0).equals("-h") || argv.get(0).equals("help")) {
            printUsage(out);
            return argv.isEmpty() ? 2 : 0;
        }
        Command chosen = null;
        int words = 0;
        for (Command c : commands()) {
            String[] name = c.name().split(" ");
            if (name.length > words && name.length <= argv.size()
                    && Arrays.equals(name, argv.subList(0, name.length).toArray(new String[0]))) {
                chosen = c;
                words = name.length;
            }
        }
        if (chosen == null) {
            err.println("lab: unknown command '" + String.join(" ", argv.subList(0, Math.min(2, argv.size())))
                    + "'; run ./lab --help for the list");
            return 2;
        }
        List<String> rest = new ArrayList<>(argv.subList(words, argv.size()));
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(chosen.help());
            return 0;
        }
        try {
            return chosen.run(rest);
        } catch (BadInput e) {
            err.println("lab " + chosen.name() + ": error: " + e.getMessage());
            return 2;
        } catch (Refusal e) {
            err.println("lab " + chosen.name() + ": refused: " + e.getMessage());
            return 1;
        } catch (OutOfMemoryError e) {
            // A resource limit, not a bug: say which one and how to raise it.
            err.println("lab " + chosen.name() + ": error: out of memory: this JVM's heap (at most "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB) is too small for this input or these counts; "
                    + "give it more with JAVA_TOOL_OPTIONS=-Xmx<size> or ask for less");
            return 2;
        } catch (Exception | Error e) {
            String io = Io.failureOf(e);
            if (io != null) {
                // Reading or writing a file failed (missing, unreadable, a directory, disk full, ...): the
                // file and the reason are the whole story; a stack trace would only hide them.
                err.println("lab " + chosen.name() + ": error: " + io);
                return 2;
            }
            err.println("lab " + chosen.name() + ": internal error (a bug, please report): " + e);
            e.printStackTrace(err);
            return 3;
        }
    }

    private static void printUsage(PrintStream out) {
        out.println("usage: ./lab COMMAND [ARGS...]   (./lab COMMAND --help for each)");
        out.println();
        for (Command c : commands()) {
            out.printf("  %-22s %s%n", c.name(), c.summary());
        }
        // handled by the ./lab script itself (they run Maven, Jupyter or jshell, not this JVM)
        out.printf("  %-22s %s%n", "test", "every test: Maven's suites, then every notebook executed headless");
        out.printf("  %-22s %s%n", "kernel install", "register the Jupyter kernel (--user, or --prefix DIR)");
        out.printf("  %-22s %s%n", "jshell", "a REPL on the library with jshell-startup/lab.jsh");
    }
}
