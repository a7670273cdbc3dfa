package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numbered sample of {@code docs/samples/} runs in the real jshell tool as {@code ./lab jshell} starts it
 * (lab.jsh's imports), from the checkout's top, to its end: no snippet rejected, nothing thrown.
 */
class DocsSamplesTest {
    private static final Path TOP = Path.of("..").toAbsolutePath().normalize();

    static List<Path> samples() throws Exception {
        try (Stream<Path> s = Files.list(TOP.resolve("docs/samples"))) {
            return s.filter(p -> p.toString().endsWith(".jsh")).sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void runsToItsEnd(Path sample, @TempDir Path tmp) throws Exception {
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        Requires.that(KernelFacts.executable(jshell, "the JDK running the tests (a JRE has none)"));
        Requires.seccomp("kill_process", "allow", "user_notif");
        Requires.ptrace();
        LabJvm.Jshell run = LabJvm.runJshell(TOP, sample, tmp, 240);
        String text = run.out();
        assertEquals(0, run.status(), sample.getFileName() + ":\n" + text);
        assertFalse(
                text.contains("|  Error") || text.contains("Exception") || text.contains("|  Warning"),
                sample.getFileName() + " printed an error:\n" + text);
        assertTrue(text.lines().filter(l -> !l.isBlank()).count() >= 1, sample.getFileName() + " printed nothing");
    }
}
