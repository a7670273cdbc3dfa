package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.CreatorMark;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vm sweeper ({@link StaleScratch#reap}) judges a scratch folder by its {@link CreatorMark}, as every
 * other sweeper does: real runs hold their folders (a JVM making a vm scratch folder as {@code ./lab vm run}
 * does, {@link ScratchHolder}), one of them in a pid namespace of its own ({@code unshare --pid --fork
 * --mount-proc}), where its pid means nothing here: a live run's folder survives a reap from this namespace,
 * a killed run's folder in this namespace is reaped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StaleScratchTest {
    @TempDir
    Path tmp;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void end() {
        started.forEach(Process::destroyForcibly);
    }

    /** A {@link ScratchHolder} (behind {@code prefix}, e.g. {@code unshare ...}) and the folder it holds. */
    record Holder(Process process, Path scratch) {}

    Holder hold(String... prefix) throws IOException {
        List<String> argv = new ArrayList<>(List.of(prefix));
        argv.addAll(LabJvm.of(ScratchHolder.class).tmpdir(tmp).command());
        Process p = new ProcessBuilder(argv)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        started.add(p);
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (line == null) {
            throw new AssertionError("the holder " + argv + " printed no scratch folder");
        }
        Path scratch = Path.of(line);
        assertTrue(scratch.getFileName().toString().startsWith(StaleScratch.PREFIX), line);
        assertTrue(Files.isRegularFile(scratch.resolve(CreatorMark.NAME)), "marked: " + scratch);
        return new Holder(p, scratch);
    }

    static String markOf(Holder h) throws IOException {
        return Files.readString(h.scratch().resolve(CreatorMark.NAME));
    }

    @Test
    void aLiveRunInAnotherPidNamespaceKeepsItsScratchAndAKilledRunsIsReaped() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.onPath("unshare", "util-linux"));
        Holder elsewhere = hold("unshare", "--pid", "--fork", "--mount-proc");
        Holder here = hold();
        Holder killed = hold();
        String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        assertTrue(markOf(here).contains("\npidns " + ns + "\n"), markOf(here));
        assertFalse(markOf(elsewhere).contains("\npidns " + ns + "\n"), "made in a pid namespace of its own");
        // its pid in its namespace: small, and here another process or none (the old rule took it for dead)
        long pidThere = Long.parseLong(markOf(elsewhere)
                .lines()
                .filter(l -> l.startsWith("pid "))
                .findFirst()
                .orElseThrow()
                .substring(4));
        assertNotEquals(elsewhere.process().pid(), pidThere, "the mark names its pid in its own namespace");
        killed.process().destroyForcibly(); // SIGKILL: no hook of its own removes the folder
        assertTrue(killed.process().waitFor(30, TimeUnit.SECONDS));
        assertTrue(Files.isDirectory(killed.scratch()), "a SIGKILL leaves the folder");

        assertEquals(1, StaleScratch.reap(tmp), "only the killed run's folder");
        assertFalse(Files.exists(killed.scratch()), "the killed run's folder is reaped");
        assertTrue(Files.isDirectory(elsewhere.scratch()), "a live run in another pid namespace keeps its folder");
        assertTrue(Files.isDirectory(here.scratch()), "a live run here keeps its folder");
        assertTrue(elsewhere.process().isAlive() && here.process().isAlive());

        // each ends by itself (stdin closed) and removes its own folder
        for (Holder h : List.of(elsewhere, here)) {
            h.process().getOutputStream().close();
            assertTrue(h.process().waitFor(30, TimeUnit.SECONDS));
            assertFalse(Files.exists(h.scratch()), "removed by its own run: " + h.scratch());
        }
    }
}
