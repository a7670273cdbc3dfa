package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.Planted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code -o FILE}: the file named, never a link or FIFO planted at that name (exit 2, nothing written). */
class PlantedOutputsTest {
    @TempDir
    Path dir;

    @Test
    void compileAndGenRefuseALinkOrFifoAtTheOutputName() throws Exception {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        Path work = Files.createDirectory(dir.resolve("work"));
        Path profile = Files.writeString(dir.resolve("p.json"), """
                {"defaultAction": "SCMP_ACT_KILL_PROCESS", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ALLOW"}]}""");
        Planted planted = Planted.in(outside, work)
                .linkToFile(work.resolve("p.bpf"))
                .fifo(work.resolve("fifo.bpf"))
                .watch();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (String out : new String[] {"p.bpf", "fifo.bpf"}) {
                BpfCommandsTest.Outcome o = BpfCommandsTest.run(
                        "bpf",
                        "compile",
                        profile.toString(),
                        "-o",
                        work.resolve(out).toString());
                assertEquals(2, o.status(), o.err());
                assertTrue(o.err().contains(work.resolve(out).toString()), o.err());
            }
        });
        planted.assertUntouched("bpf compile -o");
        BpfCommandsTest.Outcome ok = BpfCommandsTest.run(
                "bpf",
                "compile",
                profile.toString(),
                "-o",
                work.resolve("real.bpf").toString());
        assertEquals(0, ok.status(), ok.err());
        assertTrue(Files.size(work.resolve("real.bpf")) > 0);
    }
}
