package heimdall.lab.graph.record;

import heimdall.lab.sys.DieWithJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Best-effort function names for call sites, from binutils' {@code addr2line -f} when it is installed.
 * Names are labels only (the site's identity is its object and offset), so a missing tool or symbol
 * leaves the {@code object+0xoffset} label. The file offset is passed as the address, which is right
 * for objects whose executable segment has equal file offset and virtual address (what GNU ld lays out
 * by default).
 */
public final class Symbols {
    private Symbols() {}

    /** A caching resolver; returns null where no name is known. */
    public static Function<CallSites.Location, String> addr2line() {
        Path tool = Path.of("/usr/bin/addr2line");
        Map<CallSites.Location, String> cache = new HashMap<>();
        return l -> {
            if (!Files.isExecutable(tool) || l.object().isEmpty() || l.object().startsWith("[")) {
                return null;
            }
            return cache.computeIfAbsent(l, k -> run(tool, k));
        };
    }

    /** Never resolves: sites keep their {@code object+0xoffset} labels. */
    public static Function<CallSites.Location, String> none() {
        return l -> null;
    }

    private static String run(Path tool, CallSites.Location l) {
        try {
            // A return address points after the call: ask for the byte before it, which is inside the call.
            // dies with this JVM (PR_SET_PDEATHSIG); this thread waits for it
            Process p = new ProcessBuilder(DieWithJvm.command(
                            tool.toString(),
                            "-f",
                            "-e",
                            l.object(),
                            "0x" + Long.toHexString(Math.max(0, l.offset() - 1))))
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "";
            }
            List<String> lines = new String(out, StandardCharsets.UTF_8).lines().toList();
            String fn = lines.isEmpty() ? "??" : lines.get(0).strip();
            return fn.equals("??") || fn.isEmpty() ? "" : fn;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
