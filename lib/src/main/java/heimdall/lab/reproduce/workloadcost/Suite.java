package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The default suite: five real programs from Debian packages, each chosen for a side of a sandbox it stresses,
 * on inputs generated here (in a folder of the run's private scratch folder, written anew each run). Sized so
 * that a full run (10 interleaved runs a cell, every mechanism) takes minutes on a 2-core machine.
 */
final class Suite {
    private Suite() {}

    /** How big the inputs are: {@code --quick}'s or the full run's. */
    enum Size {
        QUICK(300, 96 * 1024, 16),
        FULL(3000, 1024 * 1024, 48);

        final int files;
        final int compressBytes;
        final int makeTargets;

        Size(int files, int compressBytes, int makeTargets) {
            this.files = files;
            this.compressBytes = compressBytes;
            this.makeTargets = makeTargets;
        }
    }

    /** The modules the start-up imports: many files opened and read, little run. */
    static final String IMPORTS = "import json, decimal, fractions, email.parser, http.client, xml.etree.ElementTree, "
            + "sqlite3, argparse, logging, unittest, csv, zipfile, tarfile, difflib, urllib.request, "
            + "concurrent.futures, statistics, pathlib, string, textwrap";

    /** The headers the compiler run includes. */
    static final List<String> HEADERS = List.of(
            "stdio.h",
            "stdlib.h",
            "string.h",
            "math.h",
            "pthread.h",
            "signal.h",
            "time.h",
            "errno.h",
            "fcntl.h",
            "unistd.h",
            "locale.h",
            "wchar.h",
            "ctype.h",
            "stdint.h",
            "inttypes.h",
            "limits.h",
            "assert.h",
            "setjmp.h",
            "sys/socket.h",
            "sys/stat.h",
            "sys/mman.h",
            "sys/wait.h",
            "sys/types.h",
            "sys/uio.h",
            "netinet/in.h",
            "arpa/inet.h",
            "netdb.h",
            "poll.h",
            "sched.h",
            "dirent.h",
            "dlfcn.h",
            "regex.h",
            "glob.h",
            "termios.h",
            "pwd.h",
            "grp.h",
            "syslog.h",
            "search.h",
            "spawn.h",
            "complex.h");

    /** The five workloads, their inputs written beneath {@code root} (a folder of ours). */
    static List<Workload> write(Path root, Size size) {
        try {
            List<Workload> out = new ArrayList<>();
            out.add(new Workload(
                    "find-tree",
                    "metadata: a stat and a getdents for every file of a generated tree, few opens by name",
                    List.of(DEBIAN_BIN + "find", ".", "-type", "f", "-size", "-2k", "-printf", "%s %p\\n"),
                    tree(Files.createDirectory(root.resolve("find-tree")), size.files)));
            out.add(new Workload(
                    "python-imports",
                    "opens: an interpreter's start-up importing many modules, hundreds of openat and stat",
                    List.of(DEBIAN_BIN + "python3", "-I", "-B", "-c", IMPORTS),
                    Files.createDirectory(root.resolve("python-imports"))));
            Path cc = Files.createDirectory(root.resolve("gcc-headers"));
            StringBuilder src = new StringBuilder();
            HEADERS.forEach(h -> src.append("#include <").append(h).append(">\n"));
            src.append("int workload(int x) { return (int)strlen(\"heimdall\") + abs(x); }\n");
            Files.writeString(cc.resolve("many.c"), src, StandardCharsets.UTF_8);
            out.add(new Workload(
                    "gcc-headers",
                    "a compiler: gcc, cc1 and as as subprocesses, many headers opened, CPU in the compiler",
                    List.of(DEBIAN_BIN + "gcc", "-c", "-O1", "many.c", "-o", "/dev/null"),
                    cc));
            Path xz = Files.createDirectory(root.resolve("xz-compress"));
            Files.write(xz.resolve("input.txt"), text(size.compressBytes));
            out.add(new Workload(
                    "xz-compress",
                    "compute: few calls, long stretches of user time (what a per-task mitigation alone costs)",
                    List.of(DEBIAN_BIN + "xz", "-6", "-T1", "-c", "input.txt"),
                    xz));
            Path mk = Files.createDirectory(root.resolve("make-j2"));
            Files.writeString(mk.resolve("Makefile"), makefile(size.makeTargets), StandardCharsets.UTF_8);
            out.add(new Workload(
                    "make-j2",
                    "processes: make -j2 forking and exec'ing a program per rule, two at a time",
                    List.of(DEBIAN_BIN + "make", "-s", "-j2", "-f", "Makefile", "all"),
                    mk));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("writing the workloads' inputs beneath " + root, e);
        }
    }

    /** {@code files} small files in folders of 50, with sizes from a fixed sequence. */
    private static Path tree(Path dir, int files) throws IOException {
        long x = 12345;
        Path sub = dir;
        for (int i = 0; i < files; i++) {
            if (i % 50 == 0) {
                sub = Files.createDirectory(dir.resolve(String.format(Locale.ROOT, "d%03d", i / 50)));
            }
            x = x * 6364136223846793005L + 1442695040888963407L;
            int n = (int) ((x >>> 33) % 4096);
            Files.write(sub.resolve(String.format(Locale.ROOT, "f%05d.txt", i)), new byte[n]);
        }
        return dir;
    }

    /** Text xz can compress but not trivially: words from a fixed pseudo-random sequence. */
    static byte[] text(int bytes) {
        String[] words = {
            "seccomp",
            "filter",
            "broker",
            "sandbox",
            "kernel",
            "notify",
            "profile",
            "heimdall",
            "openat",
            "getppid",
            "follower",
            "graph",
            "mitigation",
            "cost",
            "program",
            "call"
        };
        StringBuilder s = new StringBuilder(bytes + 16);
        long x = 42;
        while (s.length() < bytes) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            s.append(words[(int) ((x >>> 40) & 15)]).append((x >>> 20 & 7) == 0 ? ".\n" : " ");
            if ((x >>> 50 & 31) == 0) {
                s.append(x >>> 12 & 0xffff).append(' ');
            }
        }
        s.setLength(bytes);
        return s.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code targets} phony rules each running {@code true} (exec'd directly by make, no shell). */
    private static String makefile(int targets) {
        StringBuilder all = new StringBuilder(".PHONY: all");
        StringBuilder rules = new StringBuilder();
        for (int i = 0; i < targets; i++) {
            all.append(" t").append(i);
            rules.append("t").append(i).append(":\n\ttrue ").append(i).append('\n');
        }
        return all + "\nall:" + all.substring(".PHONY: all".length()) + "\n" + rules;
    }

    /** The program of {@code command} on PATH (or as given, with a slash); bad input naming it when absent. */
    static void requireProgram(String program) {
        if (program.contains("/")) {
            if (!Files.isExecutable(Path.of(program))) {
                throw new BadInput("workload command " + program + ": no such executable file");
            }
            return;
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String d : path.split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return;
            }
        }
        throw new BadInput("workload command " + program + ": not found on PATH (" + path + ")");
    }

    /**
     * Where Debian installs the suite's programs: the default suite runs them by this absolute name, never
     * through PATH, so a version manager's shim (pyenv's {@code python3}, a bash script) or a local build
     * is not what gets measured.
     */
    static final String DEBIAN_BIN = "/usr/bin/";

    /** Every program of the default suite present: a refusal naming the Debian package otherwise. */
    static void requireSuitePrograms() {
        String[][] need = {
            {"find", "findutils"}, {"python3", "python3"}, {"gcc", "gcc"}, {"xz", "xz-utils"}, {"make", "make"}
        };
        for (String[] n : need) {
            try {
                requireProgram(DEBIAN_BIN + n[0]);
            } catch (BadInput e) {
                throw new Refusal(
                        "the default suite needs " + n[0] + " (Debian package " + n[1] + "): " + e.getMessage());
            }
        }
    }
}
