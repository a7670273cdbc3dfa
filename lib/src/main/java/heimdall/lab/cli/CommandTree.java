package heimdall.lab.cli;

import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The picocli command tree of {@code ./lab}: one group per first word of the commands' names
 * ({@code bpf}, {@code graph}, ...) with its commands as subcommands, one-word commands at the top,
 * and {@code help}. Every leaf wraps a {@link Command}: picocli chooses it, answers {@code --help} (the
 * command's own text) and stops reading options at {@code --}; the command then gets the words after
 * its name exactly as given and parses them itself ({@link Args}).
 */
final class CommandTree {
    private CommandTree() {}

    /** How the usage lines name the program. */
    static final String PROGRAM = "./lab";

    /** The tree for these commands; {@code all} (in listing order) includes the script's own and completion. */
    static CommandLine build(List<Command> all) {
        Map<String, CommandSpec> groups = new LinkedHashMap<>();
        CommandSpec[] self = new CommandSpec[1];
        // ./lab alone: the list, and status 2 (a command is missing)
        CommandSpec rootSpec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> {
            self[0].commandLine().usage(self[0].commandLine().getOut());
            return ExitStatus.BAD_INPUT;
        });
        self[0] = rootSpec;
        rootSpec.name(PROGRAM);
        rootSpec.addOption(helpOption("this list"));
        rootSpec.addOption(OptionSpec.builder("--version")
                .versionHelp(true)
                .description("the version, the git commit it was built from, the kernel and the JVM")
                .build());
        rootSpec.versionProvider(BuildInfo.current());
        CommandLine root = new CommandLine(rootSpec);
        for (Command c : all) {
            String[] words = c.name().split(" ");
            if (words.length > 2) {
                throw new IllegalStateException("command name of more than two words: " + c.name());
            }
            CommandLine leaf = leaf(c);
            if (words.length == 1) {
                root.addSubcommand(words[0], leaf);
            } else {
                CommandSpec group = groups.computeIfAbsent(words[0], g -> {
                    CommandLine line = group(g);
                    root.addSubcommand(g, line);
                    return line.getCommandSpec();
                });
                group.addSubcommand(words[1], leaf);
            }
        }
        root.addSubcommand("help", help(root));
        rootSpec.usageMessage().sectionKeys(List.of("lab"));
        rootSpec.usageMessage().sectionMap().put("lab", help -> rootUsage(all));
        // Set after every subcommand is added, so they all have them. The words after a command's name
        // are the command's, untouched: never expanded from @files. Texts are ours, printed as written
        // (no ${...} interpolation).
        root.setExpandAtFiles(false);
        root.setInterpolateVariables(false);
        root.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        return root;
    }

    /**
     * {@code help [GROUP [COMMAND]]}: the usage of the command those words name (picocli's own help
     * command looks one level down only), the list without words; an unknown word is status 2.
     */
    private static CommandLine help(CommandLine root) {
        CommandSpec[] self = new CommandSpec[1];
        CommandSpec spec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> {
            // picocli lets a help command's unknown options pass silently: refuse them as every command does
            List<String> given = self[0].commandLine().getParseResult().originalArgs();
            for (String w : given.subList(Math.min(1, given.size()), given.size())) {
                if (w.startsWith("-") && !w.equals("-h") && !w.equals("--help")) {
                    throw new CommandLine.ParameterException(self[0].commandLine(), "unknown option '" + w + "'");
                }
            }
            List<String> words = self[0].positionalParameters().get(0).stringValues();
            CommandLine target = root;
            for (String w : words) {
                CommandLine next = target.getSubcommands().get(w);
                if (next == null || next.getCommandSpec() == self[0]) {
                    throw new CommandLine.ParameterException(
                            self[0].commandLine(),
                            "unknown command '" + String.join(" ", words.subList(0, words.indexOf(w) + 1)) + "'");
                }
                target = next;
            }
            target.usage(self[0].commandLine().getOut());
            return ExitStatus.OK;
        });
        self[0] = spec;
        spec.helpCommand(true);
        spec.addOption(helpOption("this help"));
        List<String> topWords = root.getSubcommands().keySet().stream().toList();
        spec.addPositional(PositionalParamSpec.builder()
                .index("0..*")
                .arity("0..2")
                .type(String[].class)
                .completionCandidates(topWords)
                .paramLabel("COMMAND")
                .description("a group, or a group and a command")
                .build());
        spec.usageMessage().description("the list, or a group's or a command's help");
        return new CommandLine(spec);
    }

    private static OptionSpec helpOption(String what) {
        return OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .description(what)
                .build();
    }

    /** A group: lists its commands; alone (no command) it prints that list on stderr, status 2. */
    private static CommandLine group(String name) {
        CommandSpec[] self = new CommandSpec[1];
        CommandSpec spec = CommandSpec.wrapWithoutInspection((Callable<Integer>) () -> {
            CommandLine line = self[0].commandLine();
            line.getErr()
                    .println("lab " + name + ": missing a command, one of: "
                            + String.join(", ", line.getSubcommands().keySet()));
            line.usage(line.getErr());
            return ExitStatus.BAD_INPUT;
        });
        self[0] = spec;
        spec.addOption(helpOption("this list"));
        UsageMessageSpec usage = spec.usageMessage();
        usage.synopsisHeading("");
        usage.customSynopsis("usage: " + PROGRAM + " " + name + " COMMAND [ARGS...]");
        usage.commandListHeading("%nCommands:%n");
        usage.footer(
                "",
                "Each command's options: " + PROGRAM + " " + name + " COMMAND --help." + " Exit statuses: " + PROGRAM
                        + " --help.");
        return new CommandLine(spec);
    }

    /** A leaf running {@code command}: its declared options known to picocli, every other word passed on. */
    private static CommandLine leaf(Command command) {
        Leaf run = new Leaf(command);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(run);
        run.spec = spec;
        spec.addOption(helpOption("this help"));
        command.options().ifPresent(o -> {
            for (String flag : new TreeSet<>(o.flags())) { // Set.of's order changes run to run
                spec.addOption(OptionSpec.builder(names(flag, o.shortNames()))
                        .arity("0")
                        .type(boolean.class)
                        .build());
            }
            for (String valued : new TreeSet<>(o.valued())) {
                spec.addOption(OptionSpec.builder(names(valued, o.shortNames()))
                        .arity("1")
                        .type(String.class)
                        .paramLabel(valued.substring(2).toUpperCase(Locale.ROOT))
                        .build());
            }
        });
        // Whatever is not a declared option (positionals, options of commands that declare none, all
        // after --) lands here; the command reads the original words, not this.
        if (command.completionWords().isEmpty()) {
            spec.addPositional(PositionalParamSpec.builder()
                    .index("0..*")
                    .arity("0..*")
                    .type(String[].class)
                    .paramLabel("ARGS")
                    .build());
        } else {
            // the first word is completed from the command's words, the rest (files) by the shell
            spec.addPositional(PositionalParamSpec.builder()
                    .index("0")
                    .arity("0..1")
                    .type(String.class)
                    .completionCandidates(command.completionWords())
                    .paramLabel("WORD")
                    .build());
            spec.addPositional(PositionalParamSpec.builder()
                    .index("1..*")
                    .arity("0..*")
                    .type(String[].class)
                    .paramLabel("ARGS")
                    .build());
        }
        spec.usageMessage().description(command.summary().replace("%", "%%")); // picocli formats it
        spec.usageMessage().sectionKeys(List.of("lab"));
        spec.usageMessage()
                .sectionMap()
                .put("lab", help -> command.help(wordsGiven(spec, command)).stripTrailing() + System.lineSeparator());
        CommandLine line = new CommandLine(spec);
        line.setUnmatchedOptionsArePositionalParams(true);
        // Args keeps the last of a repeated option; picocli must not refuse what the command accepts.
        line.setOverwrittenOptionsAllowed(true);
        // As Args: an option's value is the next word, whatever it looks like (--out -h names a folder "-h").
        line.setAllowOptionsAsOptionParameters(true);
        line.setPosixClusteredShortOptionsAllowed(false);
        return line;
    }

    /** The words after the command's name when {@code --help} was among them ({@code help COMMAND}: none). */
    private static List<String> wordsGiven(CommandSpec spec, Command command) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        if (parsed == null) {
            return List.of();
        }
        List<String> words = new ArrayList<>(parsed.originalArgs());
        int name = command.name().split(" ").length;
        if (words.size() < name) {
            return List.of();
        }
        words = new ArrayList<>(words.subList(name, words.size()));
        words.removeIf(w -> w.equals("--help") || w.equals("-h"));
        return words;
    }

    private static String[] names(String longName, Map<String, String> shortNames) {
        List<String> names = new ArrayList<>(List.of(longName));
        shortNames.forEach((s, l) -> {
            if (l.equals(longName)) {
                names.add(s);
            }
        });
        return names.toArray(String[]::new);
    }

    /** {@code ./lab --help}: every command by its full name with its summary, then options and exit statuses. */
    private static String rootUsage(List<Command> all) {
        StringBuilder s = new StringBuilder();
        s.append("usage: ")
                .append(PROGRAM)
                .append(" COMMAND [ARGS...]   (")
                .append(PROGRAM)
                .append(" COMMAND --help, or ")
                .append(PROGRAM)
                .append(" help COMMAND, for each)\n\n");
        for (Command c : all) {
            s.append(String.format(Locale.ROOT, "  %-22s %s%n", c.name(), c.summary()));
        }
        s.append(String.format(
                Locale.ROOT, "  %-22s %s%n", "help [COMMAND]", "this list, or a group's or a command's help"));
        s.append('\n');
        s.append(String.format(Locale.ROOT, "  %-22s %s%n", "-h, --help", "this list"));
        s.append(String.format(
                Locale.ROOT,
                "  %-22s %s%n",
                "--version",
                "the version, the git commit it was built from, the kernel and the JVM"));
        s.append(String.format(
                Locale.ROOT,
                "  %-22s %s%n",
                "--",
                "ends a command's options: every word after it reaches the command untouched"));
        s.append('\n').append(ExitStatus.TEXT);
        return s.toString();
    }

    /** Runs one {@link Command} with the words after its name, as given. */
    static final class Leaf implements Callable<Integer> {
        final Command command;
        private CommandSpec spec;

        Leaf(Command command) {
            this.command = command;
        }

        @Override
        public Integer call() throws Exception {
            List<String> argv = Arrays.asList(
                    spec.commandLine().getParseResult().originalArgs().toArray(String[]::new));
            List<String> name = Arrays.asList(command.name().split(" "));
            // Only -h/--help and --version come before a command's name, and both end the run there:
            // a leaf that runs was reached by exactly its name's words.
            if (argv.size() < name.size() || !argv.subList(0, name.size()).equals(name)) {
                throw new IllegalStateException("command " + command.name() + " reached by " + argv);
            }
            try {
                return command.run(new ArrayList<>(argv.subList(name.size(), argv.size())));
            } catch (Error e) {
                throw new ErrorInCommand(e); // picocli hands the handler Exceptions only
            }
        }
    }

    /** An {@link Error} (out of memory, a failed assertion) carried to the exit-status handler. */
    static final class ErrorInCommand extends Exception {
        ErrorInCommand(Error e) {
            super(e);
        }
    }
}
