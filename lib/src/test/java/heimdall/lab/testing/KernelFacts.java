package heimdall.lab.testing;

import heimdall.lab.Errno;
import heimdall.lab.sys.NativeLib;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads host facts for {@link Requires}: each reader looks only at the kernel's files (/proc, /sys),
 * the environment's PATH or a Debian package's installed file. None runs project code, so a
 * regression in the project can never turn into "the host lacks X" and a skip.
 */
public final class KernelFacts {
    /** The seccomp actions this kernel offers (CONFIG_SECCOMP_FILTER). */
    public static final Path ACTIONS_AVAIL = Path.of("/proc/sys/kernel/seccomp/actions_avail");
    /** Yama's ptrace restriction; absent when Yama is not built in. */
    public static final Path PTRACE_SCOPE = Path.of("/proc/sys/kernel/yama/ptrace_scope");
    /** The kernel's own BTF (CONFIG_DEBUG_INFO_BTF). */
    public static final Path BTF = Path.of("/sys/kernel/btf/vmlinux");
    /** The kernel release, as uname -r. */
    public static final Path OSRELEASE = Path.of("/proc/sys/kernel/osrelease");
    /** Where Debian's python3-* packages install modules. */
    public static final Path PYTHON_DIST_PACKAGES = Path.of("/usr/lib/python3/dist-packages");

    static final Path SELF_STATUS = Path.of("/proc/self/status");
    static final int CAP_SYS_PTRACE = 19;

    private KernelFacts() {}

    /** Every one of {@code actions} is listed in {@link #ACTIONS_AVAIL}. */
    public static Fact seccompActions(String... actions) {
        String need = "seccomp actions " + String.join(" ", actions);
        String avail;
        try {
            avail = Files.readString(ACTIONS_AVAIL).trim();
        } catch (IOException e) {
            return Fact.absent(need, "cannot read " + ACTIONS_AVAIL + ": " + e);
        }
        List<String> have = Arrays.asList(avail.split("\\s+"));
        List<String> missing =
                Arrays.stream(actions).filter(a -> !have.contains(a)).toList();
        return missing.isEmpty()
                ? Fact.present(need, ACTIONS_AVAIL + ": " + avail)
                : Fact.absent(need, missing + " not in " + ACTIONS_AVAIL + " (" + avail + ")");
    }

    /**
     * This process may ptrace its own children: Yama absent or ptrace_scope 0 or 1, or scope 2 with
     * CAP_SYS_PTRACE in our effective set; scope 3 forbids it to everyone.
     */
    public static Fact ptrace() {
        String need = "ptrace of our children";
        if (!Files.exists(PTRACE_SCOPE)) {
            return Fact.present(need, PTRACE_SCOPE + " absent (no Yama)");
        }
        String scope;
        try {
            scope = Files.readString(PTRACE_SCOPE).trim();
        } catch (IOException e) {
            return Fact.absent(need, "cannot read " + PTRACE_SCOPE + ": " + e);
        }
        String read = PTRACE_SCOPE + " = " + scope;
        switch (scope) {
            case "0", "1" -> {
                return Fact.present(need, read);
            }
            case "2" -> {
                long caps = effectiveCapabilities();
                boolean cap = (caps & (1L << CAP_SYS_PTRACE)) != 0;
                return new Fact(
                        need,
                        cap,
                        read + ", CapEff " + Long.toHexString(caps) + (cap ? " has" : " lacks") + " CAP_SYS_PTRACE");
            }
            default -> {
                return Fact.absent(need, read);
            }
        }
    }

    /** The kernel answers a Landlock ABI ({@code landlock_create_ruleset(NULL, 0, VERSION)} &gt;= 1). */
    public static Fact landlock() {
        int abi = NativeLib.hl_landlock_abi_now();
        return abi >= 1
                ? Fact.present("Landlock", "the kernel answers ABI " + abi)
                : Fact.absent(
                        "Landlock",
                        "landlock_create_ruleset(VERSION) failed with " + Errno.name(-abi)
                                + " (absent, or not in lsm=)");
    }

    /** The kernel exposes its BTF at {@link #BTF}. */
    public static Fact btf() {
        boolean ok = Files.isRegularFile(BTF) && Files.isReadable(BTF);
        return new Fact("kernel BTF", ok, BTF + (ok ? " readable" : " missing or unreadable"));
    }

    /** The running kernel is at least {@code major.minor}, from {@link #OSRELEASE}. */
    public static Fact kernelAtLeast(int major, int minor) {
        String need = "Linux " + major + "." + minor + " or newer";
        String release;
        try {
            release = Files.readString(OSRELEASE).trim();
        } catch (IOException e) {
            return Fact.absent(need, "cannot read " + OSRELEASE + ": " + e);
        }
        String[] parts = release.split("[.\\-+]", 3);
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return new Fact(need, ma > major || (ma == major && mi >= minor), OSRELEASE + ": " + release);
        } catch (NumberFormatException e) {
            return Fact.absent(need, OSRELEASE + ": cannot parse " + release);
        }
    }

    /** Our effective uid is 0, from the Uid: line of /proc/self/status. */
    public static Fact root() {
        String uid = statusField("Uid");
        String[] ids = uid.trim().split("\\s+");
        boolean ok = ids.length > 1 && ids[1].equals("0");
        return new Fact("root (euid 0)", ok, SELF_STATUS + " Uid: " + uid.trim());
    }

    /** {@code file} is installed, a regular file; {@code provider} names what installs it. */
    public static Fact file(Path file, String provider) {
        boolean ok = Files.isRegularFile(file);
        return new Fact(file + " (" + provider + ")", ok, file + (ok ? " present" : " is missing"));
    }

    /** {@code file} is an executable file; {@code provider} names what installs it. */
    public static Fact executable(Path file, String provider) {
        boolean ok = Files.isRegularFile(file) && Files.isExecutable(file);
        return new Fact(
                file + " (" + provider + ")", ok, file + (ok ? " is executable" : " is missing or not executable"));
    }

    /** An executable {@code command} in a directory of PATH; {@code provider} names what installs it. */
    public static Fact onPath(String command, String provider) {
        String path = System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Fact.present(command + " (" + provider + ")", p.toString());
            }
        }
        return Fact.absent(command + " (" + provider + ")", "no executable " + command + " on PATH " + path);
    }

    /**
     * A Python module installed by a Debian package in {@link #PYTHON_DIST_PACKAGES}: {@code module.py},
     * {@code module/__init__.py} or an extension {@code module.*.so}.
     */
    public static Fact pythonModule(String module, String debianPackage) {
        String need = "python module " + module + " (" + debianPackage + ")";
        List<Path> found = new ArrayList<>();
        for (Path p : List.of(
                PYTHON_DIST_PACKAGES.resolve(module + ".py"),
                PYTHON_DIST_PACKAGES.resolve(module).resolve("__init__.py"))) {
            if (Files.isRegularFile(p)) {
                found.add(p);
            }
        }
        if (Files.isDirectory(PYTHON_DIST_PACKAGES)) {
            try (DirectoryStream<Path> so = Files.newDirectoryStream(PYTHON_DIST_PACKAGES, module + ".*.so")) {
                so.forEach(found::add);
            } catch (IOException e) {
                return Fact.absent(need, "cannot list " + PYTHON_DIST_PACKAGES + ": " + e);
            }
        }
        return found.isEmpty()
                ? Fact.absent(
                        need,
                        "no " + module + ".py, " + module + "/__init__.py or " + module + ".*.so in "
                                + PYTHON_DIST_PACKAGES)
                : Fact.present(need, found.get(0).toString());
    }

    /** This process holds capability {@code bit} ({@code name}, e.g. CAP_MKNOD) in CapEff of /proc/self/status. */
    public static Fact capability(int bit, String name) {
        long caps = effectiveCapabilities();
        boolean ok = (caps >>> bit & 1) != 0;
        return new Fact(
                name, ok, SELF_STATUS + " CapEff " + Long.toHexString(caps) + (ok ? " has " : " lacks ") + name);
    }

    private static long effectiveCapabilities() {
        try {
            return Long.parseUnsignedLong(statusField("CapEff").trim(), 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String statusField(String name) {
        try {
            for (String line : Files.readAllLines(SELF_STATUS)) {
                if (line.startsWith(name + ":")) {
                    return line.substring(name.length() + 1);
                }
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }
}
