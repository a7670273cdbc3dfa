package heimdall.lab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Disassembler;
import heimdall.lab.bpf.LibseccompBaseline;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.ProgramStats;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.profile.SyscallTableGenerator;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The {@code bpf ...} and {@code profile syscall-table} commands. */
final class BpfCommands {
    private BpfCommands() {}

    /**
     * The most bytes a raw program file may hold: far past the kernel's 4,096 instructions (32 KiB), so
     * a longer program is still read and refused by {@link Program#fromBytes} with its length.
     */
    static final long MAX_BPF_BYTES = 1 << 20;

    /** The commands of this file. */
    static List<Command> all() {
        return List.of(new CompileCmd(), new DisasmCmd(), new StatsCmd(), new SyscallTableCmd());
    }

    /** {@code -o} is {@code --out} (Args knows only long options). */
    static List<String> shortOut(List<String> argv) {
        return argv.stream().map(s -> s.equals("-o") ? "--out" : s).toList();
    }

    /** Loads and compiles, printing the loader's warnings on stderr. */
    static Program compileFile(String file, PrintStream err) {
        ProfileJson.Loaded loaded = ProfileJson.load(Path.of(file));
        loaded.warnings().forEach(w -> err.println("warning: " + w));
        return Compiler.compile(loaded.profile(), SyscallTable.x86_64(), file);
    }

    static final class CompileCmd implements Command {
        private static final CommandOptions OPTIONS =
                CommandOptions.of(Set.of(), Set.of("--out")).withShortOut();

        @Override
        public Optional<CommandOptions> options() {
            return Optional.of(OPTIONS);
        }

        public String name() {
            return "bpf compile";
        }

        public String summary() {
            return "compile a profile to raw BPF (struct sock_filter bytes)";
        }

        public String help() {
            return """
                    usage: ./lab bpf compile PROFILE -o FILE
                    Compiles an OCI seccomp profile (JSON) for x86_64 and writes the program as raw
                    struct sock_filter bytes (8 bytes an instruction, little endian), the format of
                    libseccomp's seccomp_export_bpf. Warnings (unknown syscall names, conditions not
                    applied) go to stderr.""";
        }

        public int run(List<String> argv) throws IOException {
            Args a = Args.parse(name(), shortOut(argv), OPTIONS).atMost(1);
            String out = a.value("--out").orElseThrow(() -> new BadInput("missing -o FILE (./lab bpf compile --help)"));
            Program p = compileFile(a.positional(0, "PROFILE"), System.err);
            SafeFiles.writeOutput("-o", Path.of(out), p.toBytes());
            System.out.println(out + ": " + p.length() + " instructions");
            return 0;
        }
    }

    static final class DisasmCmd implements Command {
        private static final CommandOptions OPTIONS = CommandOptions.of(Set.of(), Set.of());

        @Override
        public Optional<CommandOptions> options() {
            return Optional.of(OPTIONS);
        }

        public String name() {
            return "bpf disasm";
        }

        public String summary() {
            return "print a profile's compiled program, one instruction a line";
        }

        public String help() {
            return """
                    usage: ./lab bpf disasm PROFILE
                    Compiles PROFILE (JSON) and prints the program: index, mnemonic, operand, jump targets
                    as line numbers, and the seccomp_data field, syscall or action each line stands for.
                    PROFILE may also be a raw .bpf file (struct sock_filter bytes), printed as it is.""";
        }

        public int run(List<String> argv) throws IOException {
            Args a = Args.parse(name(), argv, OPTIONS).atMost(1);
            String file = a.positional(0, "PROFILE");
            Program p = file.endsWith(".bpf")
                    ? Program.fromBytes(Io.read(Path.of(file), MAX_BPF_BYTES), file)
                    : compileFile(file, System.err);
            System.out.print(Disassembler.disassemble(p));
            return 0;
        }
    }

    static final class StatsCmd implements Command {
        private static final CommandOptions OPTIONS = CommandOptions.of(
                        Set.of("--json", "--vs-libseccomp"), Set.of("--out"))
                .withShortOut();

        @Override
        public Optional<CommandOptions> options() {
            return Optional.of(OPTIONS);
        }

        public String name() {
            return "bpf stats";
        }

        public String summary() {
            return "program length, executed instructions per call, cacheable calls";
        }

        public String help() {
            return """
                    usage: ./lab bpf stats PROFILE [--json] [--vs-libseccomp] [-o DIR]
                    Compiles PROFILE and, over every x86_64 syscall number in the table (emulated with zero
                    arguments), prints the program length, the instructions executed (min, median, max) for
                    allowed and for denied numbers, and how many numbers the kernel's action cache answers.
                    --vs-libseccomp  also build the same rules with libseccomp (python3-seccomp, binary tree)
                                     and print its figures, from our emulator over its exported program.
                    --json           print the figures as JSON instead of a table.
                    -o, --out DIR    also write them into the results folder DIR (must not exist or be
                                     empty): summary.json (the JSON) and table.md (the table).""";
        }

        public int run(List<String> argv) throws Exception {
            Args a = Args.parse(name(), shortOut(argv), OPTIONS).atMost(1);
            String file = a.positional(0, "PROFILE");
            ProfileJson.Loaded loaded = ProfileJson.load(Path.of(file));
            loaded.warnings().forEach(w -> System.err.println("warning: " + w));
            SyscallTable table = SyscallTable.x86_64();
            ProgramStats ours = ProgramStats.of(Compiler.compile(loaded.profile(), table, file), table);
            ProgramStats theirs = null;
            if (a.flag("--vs-libseccomp")) {
                LibseccompBaseline.Result r = LibseccompBaseline.compile(loaded.profile(), table);
                r.refused().forEach(s -> System.err.println("warning: libseccomp refused a rule: " + s));
                theirs = ProgramStats.of(r.program(), table);
            }
            ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode root = m.createObjectNode();
            root.put("profile", file);
            root.put("table", table.source());
            root.set("heimdall", m.valueToTree(ours));
            if (theirs != null) {
                root.set("libseccomp", m.valueToTree(theirs));
            }
            String text = text(file, table, ours, theirs);
            System.out.print(a.flag("--json") ? m.writeValueAsString(root) + "\n" : text);
            if (a.value("--out").isPresent()) {
                // made only now, so that a profile refused above leaves no folder behind
                var out = ResultsFolder.chosen(Path.of(a.value("--out").get()));
                try {
                    out.writeJson("summary.json", root);
                    out.writeText("table.md", "```\n" + text + "```\n");
                    out.publish(); // complete: only now does it appear at its name
                } finally {
                    out.abandon(); // a failure (a full disk) leaves nothing part-written; a no-op once published
                }
                System.err.println("wrote " + out.path().resolve("summary.json") + " and table.md");
            }
            return 0;
        }

        private static String text(String file, SyscallTable table, ProgramStats ours, ProgramStats theirs) {
            StringBuilder b = new StringBuilder();
            b.append("profile: ").append(file).append('\n');
            b.append("numbers: ")
                    .append(ours.numbers())
                    .append(" x86_64 syscall numbers, each emulated with zero ")
                    .append("arguments (")
                    .append(table.source())
                    .append(")\n");
            b.append(String.format(
                    Locale.ROOT,
                    "%-10s %6s %8s %-22s %7s %-22s %s%n",
                    "",
                    "length",
                    "allowed",
                    "insns min/median/max",
                    "denied",
                    "insns min/median/max",
                    "cacheable"));
            b.append(row("heimdall", ours));
            if (theirs != null) {
                b.append(row("libseccomp", theirs));
            }
            return b.toString();
        }

        private static String row(String who, ProgramStats s) {
            return String.format(
                    Locale.ROOT,
                    "%-10s %6d %8d %-22s %7d %-22s %d of %d%n",
                    who,
                    s.length(),
                    s.allowed().count(),
                    range(s.allowed()),
                    s.denied().count(),
                    range(s.denied()),
                    s.cacheable(),
                    s.numbers());
        }

        private static String range(ProgramStats.Summary s) {
            return s.min() + " / " + fmt(s.median()) + " / " + s.max();
        }

        private static String fmt(double d) {
            return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
        }
    }

    static final class SyscallTableCmd implements Command {
        private static final CommandOptions OPTIONS =
                CommandOptions.of(Set.of(), Set.of("--from", "--out")).withShortOut();

        @Override
        public Optional<CommandOptions> options() {
            return Optional.of(OPTIONS);
        }

        public String name() {
            return "profile syscall-table";
        }

        public String summary() {
            return "generate the x86_64 syscall table from the kernel headers";
        }

        public String help() {
            return """
                    usage: ./lab profile syscall-table --from HEADER [-o FILE]
                    Reads '#define __NR_name number' lines from HEADER (e.g.
                    /usr/include/x86_64-linux-gnu/asm/unistd_64.h, package linux-libc-dev) and prints the
                    table in the resource format (first line names the header and package version), or
                    writes it to FILE (the checked-in one is
                    lib/src/main/resources/heimdall/profile/syscalls-x86_64.tsv).""";
        }

        public int run(List<String> argv) throws IOException {
            Args a = Args.parse(name(), shortOut(argv), OPTIONS).atMost(0);
            String from = a.value("--from")
                    .orElseThrow(() -> new BadInput("missing --from HEADER (./lab profile syscall-table --help)"));
            String text;
            try {
                text = SyscallTableGenerator.generate(Path.of(from));
            } catch (IOException e) {
                throw Io.failed(Path.of(from), "read", e);
            }
            if (a.value("--out").isPresent()) {
                SafeFiles.writeOutput("--out", Path.of(a.value("--out").get()), text.getBytes(StandardCharsets.UTF_8));
            } else {
                System.out.print(text);
            }
            return 0;
        }
    }
}
