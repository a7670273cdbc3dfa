package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The C of {@code native/} is in one style, the kernel's ({@code native/.clang-format}): {@code make -C
 * native check-format} passes, and the check itself fails on a file that is not (so a passing run means
 * something). Needs clang-format (Debian package clang-format, in setup/packages' test group).
 */
class NativeFormatTest {
    static final Path NATIVE = Fixtures.home().resolve("native");

    @Test
    void everyCFileOfNativeIsInTheKernelsStyle() throws Exception {
        Requires.that(KernelFacts.onPath("clang-format", "clang-format"));
        Result r = run(List.of("make", "-s", "-C", NATIVE.toString(), "check-format"));
        assertEquals(
                0,
                r.status(),
                "C files not in native/.clang-format's style (make -C native format fixes):\n" + r.out());
    }

    @Test
    void theCheckFailsOnAFileInAnotherStyle() throws Exception {
        Requires.that(KernelFacts.onPath("clang-format", "clang-format"));
        Path dir = Files.createTempDirectory("native-format");
        try {
            Files.copy(NATIVE.resolve(".clang-format"), dir.resolve(".clang-format"));
            Path c = Files.writeString(dir.resolve("bad.c"), "int f(void) {\n  return 1;\n}\n");
            Result r = run(List.of("clang-format", "--dry-run", "--Werror", c.toString()));
            assertTrue(r.status() != 0 && r.out().contains("bad.c"), r.out());
        } finally {
            Files.deleteIfExists(dir.resolve("bad.c"));
            Files.deleteIfExists(dir.resolve(".clang-format"));
            Files.delete(dir);
        }
    }

    record Result(int status, String out) {}

    private static Result run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        return new Result(p.exitValue(), out);
    }
}
