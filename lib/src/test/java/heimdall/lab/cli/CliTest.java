package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.probe.NeedsPtrace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as picocli runs it: groups and their help, {@code --version}, {@code --}, unknown
 * words, the exit statuses, and the completion script (run in bash).
 */
class CliTest {
    @TempDir
    Path dir;

    record Outcome(int status, String out, String err) {}

    /** The real commands, streams captured. */
    static Outcome lab(String... argv) {
        BpfCommandsTest.Outcome o = BpfCommandsTest.run(argv);
        return new Outcome(o.status(), o.out(), o.err());
    }

    /** {@code commands} as the whole command line. */
    static Outcome labWith(List<Command> commands, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                commands,
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A command that records the words it was given and then does what {@code action} says. */
    static final class Recording implements Command {
        final String name;
        final Optional<CommandOptions> options;
        final ThrowingRun action;
        final List<List<String>> calls = new ArrayList<>();

        interface ThrowingRun {
            int run(List<String> args) throws Exception;
        }

        Recording(String name, Optional<CommandOptions> options, ThrowingRun action) {
            this.name = name;
            this.options = options;
            this.action = action;
        }

        static Recording ok(String name) {
            return new Recording(name, Optional.of(CommandOptions.of(Set.of("--flag"), Set.of("--out"))), a -> 0);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String summary() {
            return "summary of " + name;
        }

        @Override
        public String help() {
            return "usage: help text of " + name;
        }

        @Override
        public Optional<CommandOptions> options() {
            return options;
        }

        @Override
        public int run(List<String> args) throws Exception {
            calls.add(List.copyOf(args));
            return action.run(args);
        }
    }

    @Test
    void bpfHelpListsItsCommandsAndExits0() {
        Outcome o = lab("bpf", "--help");
        assertEquals(0, o.status(), o.err());
        for (String c : List.of("compile", "disasm", "stats")) {
            assertTrue(o.out().contains(c), c + " in:\n" + o.out());
        }
        assertTrue(o.out().contains("compile a profile to raw BPF"), o.out());
        assertFalse(o.out().contains("regen-fixtures"), "only the bpf group's commands:\n" + o.out());
        // the same list by `help bpf` and `-h`
        assertEquals(o.out(), lab("help", "bpf").out());
        assertEquals(o.out(), lab("bpf", "-h").out());
    }

    @Test
    void aCommandsHelpIsItsOwnTextByEverySpelling() {
        String expected = new BpfCommands.CompileCmd().help().stripTrailing();
        for (List<String> argv : List.of(
                List.of("bpf", "compile", "--help"),
                List.of("bpf", "compile", "-h"),
                List.of("help", "bpf", "compile"),
                List.of("bpf", "compile", "-o", "x.bpf", "--help"))) {
            Outcome o = lab(argv.toArray(String[]::new));
            assertEquals(0, o.status(), argv + ": " + o.err());
            assertEquals(expected, o.out().stripTrailing(), argv.toString());
        }
    }

    @Test
    void aGroupAloneIsAUsageErrorListingItsCommands() {
        Outcome o = lab("graph");
        assertEquals(2, o.status());
        assertTrue(
                o.err().contains("lab graph: missing a command, one of: info, record, follow, follow-check, jmh"),
                o.err());
    }

    @Test
    void rootHelpListsEveryCommandTheScriptsOwnAndTheExitStatuses() {
        Outcome o = lab("--help");
        assertEquals(0, o.status());
        for (String c :
                List.of("bpf compile", "graph record", "test", "kernel install", "jshell", "completion", "--version")) {
            assertTrue(o.out().contains(c), c);
        }
        for (String status : List.of("0  success", "1  refused", "2  bad input", "3  an internal error")) {
            assertTrue(o.out().contains(status), status + " in:\n" + o.out());
        }
        assertEquals(o.out(), lab("help").out());
        // nothing at all: the same list, but status 2 (a command is missing)
        Outcome none = lab();
        assertEquals(2, none.status());
        assertEquals(o.out(), none.out());
    }

    @Test
    void versionNamesTheVersionTheCommitTheKernelAndTheJvm() throws IOException {
        Outcome o = lab("--version");
        assertEquals(0, o.status(), o.err());
        BuildInfo built = BuildInfo.current();
        assertFalse(built.version().equals("unknown"), "the build wrote heimdall/lab/cli/build.properties");
        assertTrue(o.out().contains("heimdall-lab " + built.version()), o.out());
        // outside git (the container's copy) the build says unknown; in git, the abbreviated commit
        assertTrue(
                Pattern.compile("(?m)^commit: ([0-9a-f]{12}(-dirty)?|unknown) ")
                        .matcher(o.out())
                        .find(),
                o.out());
        String release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        assertTrue(o.out().contains("kernel: Linux " + release), o.out());
        assertTrue(o.out().contains("JVM: ") && o.out().contains(System.getProperty("java.runtime.version")), o.out());
    }

    @Test
    void everythingAfterDashesReachesTheCommandUntouchedAndIsNeverHelp() {
        Recording record = Recording.ok("graph record");
        Outcome o =
                labWith(List.of(record), "graph", "record", "--out", "d", "--", "ls", "-h", "--help", "@/etc/passwd");
        assertEquals(0, o.status(), o.err());
        assertEquals("", o.out(), "no help printed");
        assertEquals(List.of(List.of("--out", "d", "--", "ls", "-h", "--help", "@/etc/passwd")), record.calls);
    }

    @Test
    void anOptionsValueIsTheNextWordWhateverItLooksLike() {
        Recording record = Recording.ok("graph record");
        Outcome o = labWith(List.of(record), "graph", "record", "--out", "-h", "--out=--help", "--", "ls");
        assertEquals(0, o.status(), o.err());
        assertEquals(List.of(List.of("--out", "-h", "--out=--help", "--", "ls")), record.calls);
    }

    @Test
    void helpBeforeDashesIsHelpAndTheCommandDoesNotRun() {
        Recording record = Recording.ok("graph record");
        Outcome o = labWith(List.of(record), "graph", "record", "--out", "d", "--help", "--", "ls");
        assertEquals(0, o.status());
        assertEquals("usage: help text of graph record", o.out().strip());
        assertTrue(record.calls.isEmpty());
    }

    @Test
    void wordsTheCommandDoesNotDeclareReachItAsGiven() {
        // reproduce declares no options (they depend on the reproduction): they pass through, @ not expanded
        Recording reproduce = new Recording("reproduce", Optional.empty(), a -> 0);
        Outcome o = labWith(List.of(reproduce), "reproduce", "floor-cost", "--runs", "3", "--quick", "@x", "-o", "y");
        assertEquals(0, o.status(), o.err());
        assertEquals(List.of(List.of("floor-cost", "--runs", "3", "--quick", "@x", "-o", "y")), reproduce.calls);
    }

    @Test
    void theRealRecorderGetsDashHAfterDashesWithoutRoot() {
        // --stack is checked before anything is traced: the command ran on the words after --, not help
        Outcome o = lab("graph", "record", "--stack", "65", "--", "ls", "-h");
        assertEquals(2, o.status(), o.out());
        assertTrue(o.err().contains("lab graph record: error: option --stack: 65 is out of range (1..64)"), o.err());
        assertFalse(o.out().contains("usage:"), o.out());
    }

    @Test
    void graphRecordTracesLsDashH() throws IOException {
        NeedsPtrace.assume();
        Outcome o = lab("graph", "record", "--out", dir.toString(), "--no-symbols", "--", "ls", "-h");
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("recorded ls -h: "), o.out());
        assertTrue(o.out().contains("import: ok"), o.out());
        assertTrue(Files.size(dir.resolve("ls.exec.nodes.arrow")) > 0);
        assertTrue(Files.size(dir.resolve("ls.exec.edges.arrow")) > 0);
    }

    @Test
    void unknownCommandsAreStatus2NamingTheWordWithSuggestions() {
        Outcome top = lab("grpah");
        assertEquals(2, top.status());
        assertTrue(top.err().contains("lab: unknown command 'grpah'; run ./lab --help for the list"), top.err());
        assertTrue(top.err().contains("did you mean: graph"), top.err());

        Outcome inGroup = lab("bpf", "comple", "x.json");
        assertEquals(2, inGroup.status());
        assertTrue(
                inGroup.err().contains("lab: unknown command 'bpf comple'; run ./lab bpf --help for the list"),
                inGroup.err());
        assertTrue(inGroup.err().contains("did you mean: bpf compile"), inGroup.err());

        Outcome swapped = lab("bfp");
        assertTrue(swapped.err().contains("did you mean: bpf?"), swapped.err());
        Outcome prefix = lab("repro", "floor-cost");
        assertTrue(prefix.err().contains("did you mean: reproduce?"), prefix.err());
        Outcome far = lab("no-such-thing");
        assertFalse(far.err().contains("did you mean"), "nothing near: " + far.err());

        Outcome option = lab("--verbose");
        assertEquals(2, option.status());
        assertTrue(option.err().contains("lab: unknown option '--verbose'"), option.err());

        Outcome help = lab("help", "bpf", "nope");
        assertEquals(2, help.status());
        assertTrue(help.err().contains("unknown command 'bpf nope'"), help.err());
    }

    @Test
    void optionErrorsKeepTheCommandsWording() {
        Outcome missing = lab("graph", "record", "--out");
        assertEquals(2, missing.status());
        assertTrue(
                missing.err()
                        .contains("lab graph record: error: option --out needs a value (./lab graph record --help)"),
                missing.err());
        Outcome unknown = lab("child", "run", "--nope");
        assertEquals(2, unknown.status());
        assertTrue(
                unknown.err().contains("lab child run: error: unknown option --nope (./lab child run --help)"),
                unknown.err());
    }

    @Test
    void badInputIsStatus2Refusal1ABug3() {
        Outcome bad = labWith(
                List.of(new Recording("x bad", Optional.empty(), a -> {
                    throw new BadInput("profile.json: field 'syscalls': not a list");
                })),
                "x",
                "bad");
        assertEquals(2, bad.status());
        assertEquals(
                "lab x bad: error: profile.json: field 'syscalls': not a list",
                bad.err().strip());

        Outcome refused = labWith(
                List.of(new Recording("x refuse", Optional.empty(), a -> {
                    throw new Refusal("the floor killed its child");
                })),
                "x",
                "refuse");
        assertEquals(1, refused.status());
        assertEquals(
                "lab x refuse: refused: the floor killed its child",
                refused.err().strip());

        Outcome bug = labWith(
                List.of(new Recording("x bug", Optional.empty(), a -> {
                    throw new IllegalStateException("impossible state");
                })),
                "x",
                "bug");
        assertEquals(3, bug.status());
        assertTrue(
                bug.err()
                        .startsWith("lab x bug: internal error (a bug, please report): "
                                + "java.lang.IllegalStateException: impossible state"),
                bug.err());
        assertTrue(bug.err().contains("\tat "), "the stack trace follows");

        Outcome error = labWith(
                List.of(new Recording("x assert", Optional.empty(), a -> {
                    throw new AssertionError("broken invariant");
                })),
                "x",
                "assert");
        assertEquals(3, error.status());
        assertTrue(
                error.err()
                        .contains("internal error (a bug, please report): java.lang.AssertionError: broken invariant"),
                error.err());

        Outcome memory = labWith(
                List.of(new Recording("x oom", Optional.empty(), a -> {
                    throw new OutOfMemoryError("Java heap space");
                })),
                "x",
                "oom");
        assertEquals(2, memory.status());
        assertTrue(memory.err().contains("lab x oom: error: out of memory"), memory.err());

        Outcome file = labWith(
                List.of(new Recording("x file", Optional.empty(), a -> {
                    throw new NoSuchFileException("/no/such/profile.json");
                })),
                "x",
                "file");
        assertEquals(2, file.status());
        assertTrue(
                file.err().contains("lab x file: error: ") && file.err().contains("/no/such/profile.json"), file.err());
        assertFalse(file.err().contains("\tat "), "a file error is its name and reason, no stack trace");

        Outcome status = labWith(List.of(new Recording("x four", Optional.empty(), a -> 4)), "x", "four");
        assertEquals(4, status.status(), "a command's own status is kept");
    }

    @Test
    void aRealCommandsBadInputIsStatus2NamingTheFile() {
        Outcome o = lab("bpf", "disasm", dir.resolve("absent.json").toString());
        assertEquals(2, o.status());
        assertTrue(o.err().startsWith("lab bpf disasm: error: ") && o.err().contains("absent.json"), o.err());
    }

    @Test
    void theScriptsOwnCommandsSayWhereTheyRun() {
        Outcome o = lab("kernel", "install", "--user");
        assertEquals(2, o.status());
        assertTrue(o.err().contains("'kernel install' is run by the ./lab script itself"), o.err());
    }

    @Test
    void everyDeclaredOptionIsDocumentedInItsCommandsHelp() {
        // completion offers what a command declares; its help must say what each one is
        List<String> undocumented = new ArrayList<>();
        for (Command c : Main.everyCommand()) {
            c.options().ifPresent(o -> {
                for (String option : union(o.flags(), o.valued())) {
                    boolean named = c.help().contains(option)
                            || o.shortNames().entrySet().stream()
                                    .anyMatch(s -> s.getValue().equals(option)
                                            && c.help().contains(s.getKey() + " "));
                    if (!named) {
                        undocumented.add(c.name() + " " + option);
                    }
                }
            });
        }
        assertEquals(List.of(), undocumented);
    }

    private static List<String> union(Set<String> a, Set<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void completionScriptCompletesGroupsCommandsAndOptionsInBash() throws Exception {
        Outcome o = lab("completion");
        assertEquals(0, o.status(), o.err());
        String script = o.out();
        for (String word : List.of(
                "reproduce",
                "bpf",
                "graph",
                "results",
                "compile",
                "disasm",
                "stats",
                "record",
                "distill",
                "--vs-libseccomp")) {
            assertTrue(script.contains(word), word);
        }
        Path file = dir.resolve("lab-completion.bash");
        Files.writeString(file, script);
        assertEquals(List.of("compile disasm stats"), complete(file, "./lab", "bpf", ""));
        assertEquals(
                Set.of("--help", "--no-symbols", "--stack", "--program", "--out"),
                Set.of(complete(file, "./lab", "graph", "record", "--").get(0).split(" ")));
        List<String> top = List.of(complete(file, "lab", "").get(0).split(" "));
        for (String group : List.of(
                "reproduce",
                "bpf",
                "profile",
                "child",
                "broker",
                "graph",
                "results",
                "test",
                "kernel",
                "jshell",
                "completion",
                "help")) {
            assertTrue(top.contains(group), group + " in " + top);
        }
    }

    /** reproduce: the first word completes to a NAME, later words are the shell's (files), options are every NAME's. */
    @Test
    void completionOffersReproduceNamesFirstAndOptionsAfter() throws Exception {
        Path file = dir.resolve("lab-completion.bash");
        Files.writeString(file, lab("completion").out());
        assertEquals(List.of("floor-cost"), complete(file, "./lab", "reproduce", "fl"));
        assertEquals(
                List.of("floor-cost kernel-bitmap attach-cost host-load follower-cost graph-lookup lanes "
                        + "kernel-matrix mechanisms workload-cost"),
                complete(file, "./lab", "reproduce", "--quick", ""));
        assertEquals(
                List.of(""), complete(file, "./lab", "reproduce", "graph-lookup", ""), "NODES EDGES: files, not NAMEs");
        assertEquals(List.of("--broker-calls"), complete(file, "./lab", "reproduce", "floor-cost", "--br"));
    }

    /** What bash's completion function offers for {@code words} (the last one being completed). */
    private static List<String> complete(Path script, String... words) throws Exception {
        String line = String.join(" ", words);
        String program = "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\";"
                + " COMP_POINT=${#COMP_LINE}; _complete_lab 2>/dev/null; echo \"${COMPREPLY[*]}\"";
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", program, "bash", script.toString()));
        cmd.addAll(List.of(words));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), line + ": " + out);
        return List.of(out);
    }
}
