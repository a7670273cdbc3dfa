package heimdall.lab.profile;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generates the syscall table resource from a kernel header such as
 * {@code /usr/include/x86_64-linux-gnu/asm/unistd_64.h} ({@code #define __NR_name number} lines).
 * The first line of the output names the header and, where dpkg knows it, the package and version
 * that installed it, so that anyone can tell whether the checked-in table is current.
 */
public final class SyscallTableGenerator {
    private static final Pattern DEFINE = Pattern.compile("^#define\\s+__NR_(\\w+)\\s+(\\d+)\\s*$");

    private SyscallTableGenerator() {}

    /** The table text (resource format) for {@code header}. */
    public static String generate(Path header) throws IOException {
        // A header is tens of KB; read through the one opener (no link, FIFO or device at the name).
        List<String> rows = new ArrayList<>();
        for (String line : Io.readString(header, 16L << 20).split("\n")) {
            Matcher m = DEFINE.matcher(line.trim());
            if (m.matches()) {
                rows.add(m.group(1) + "\t" + m.group(2));
            }
        }
        if (rows.isEmpty()) {
            throw BadInput.at(header, "--from", "no '#define __NR_name number' lines found");
        }
        StringBuilder out = new StringBuilder();
        out.append("# source: ")
                .append(header.toAbsolutePath())
                .append(" (")
                .append(packageOf(header))
                .append(")\n");
        for (String row : rows) {
            out.append(row).append('\n');
        }
        return out.toString();
    }

    /** "package version" per dpkg, or a note that dpkg could not say. */
    static String packageOf(Path header) {
        try {
            String owner = run("dpkg-query", "-S", header.toRealPath().toString());
            if (owner == null) {
                owner = run("dpkg-query", "-S", header.toAbsolutePath().toString());
            }
            if (owner == null || !owner.contains(":")) {
                return "package unknown to dpkg";
            }
            String pkg = owner.substring(0, owner.indexOf(':')).trim();
            String version = run("dpkg-query", "-W", "-f=${Version}", pkg);
            return pkg + " " + (version == null ? "version unknown" : version.trim());
        } catch (IOException e) {
            return "package unknown: " + e.getMessage();
        }
    }

    private static String run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroy();
                return null;
            }
            String s = new String(out, StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? null : s.lines().findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
