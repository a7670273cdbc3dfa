package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nothing of the follower stays loaded, and no followed child lives on, once the JVM that attached it dies by SIGKILL.
 */
class LeftoverTest {
    private static boolean zombie(Path status) {
        try {
            return Files.readAllLines(status).stream().anyMatch(l -> l.startsWith("State:") && l.contains("Z"));
        } catch (java.io.IOException gone) {
            return true; // reaped between the check and the read
        }
    }

    @Test
    void aKilledJvmLeavesNoProgramOfOursLoaded() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf(), KernelFacts.executable(Loaded.bpftoolPath(), "bpftool"));
        Process jvm = new ProcessBuilder(LabJvm.of(FollowerHolder.class).command(Hook.SYSCALL_TRACEPOINT.name()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start(); // JVM warnings stay off the line we read
        List<Integer> held;
        int child;
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith("attached "), "the holder attached: " + line);
            child = Integer.parseInt(line.substring("attached ".length()).trim());
            held = Loaded.heldBy(jvm.pid());
            assertFalse(held.isEmpty(), "the holder holds program descriptors");
            assertTrue(Loaded.ours().containsAll(held), "they are ours by name: " + held + " in " + Loaded.ours());
        } finally {
            jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
            assertTrue(jvm.waitFor(30, TimeUnit.SECONDS));
        }
        assertEquals(137, jvm.exitValue(), "killed by SIGKILL");
        // The kernel frees a program after its last reference goes (links and fds closed at exit, then RCU).
        List<Integer> left = new ArrayList<>(held);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            left.retainAll(Loaded.ours());
            Thread.sleep(50);
        }
        assertEquals(List.of(), left, "programs of the killed JVM still loaded");
        // Its followed child dies with it (PR_SET_PDEATHSIG): gone, or a zombie awaiting its reaper.
        Path status = Path.of("/proc/" + child + "/status");
        while (System.nanoTime() < deadline && Files.exists(status) && !zombie(status)) {
            Thread.sleep(50);
        }
        assertTrue(!Files.exists(status) || zombie(status), "the followed child " + child + " outlived the killed JVM");
    }
}
