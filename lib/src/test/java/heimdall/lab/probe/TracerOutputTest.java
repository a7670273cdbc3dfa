package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.Planted;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** heimdall-trace's {@code -o FILE}: never a link planted at the name, never a FIFO to wait on. */
class TracerOutputTest {
    @TempDir
    Path tmp;

    @Test
    void aLinkOrFifoAtTheOutputNameIsRefusedBeforeTracing() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Path work = Files.createDirectory(tmp.resolve("work"));
        Planted planted = Planted.in(outside, work)
                .linkToFile(work.resolve("trace.jsonl"))
                .fifo(work.resolve("fifo.jsonl"))
                .watch();
        for (String name : new String[] {"trace.jsonl", "fifo.jsonl"}) {
            Process p = new ProcessBuilder(
                            NativeExecutables.tracer().toString(),
                            "-o",
                            work.resolve(name).toString(),
                            "--",
                            "/bin/true")
                    .redirectErrorStream(true)
                    .start();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), name + ": the tracer blocked");
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(Tracer.TRACER_FAILED, p.exitValue(), said);
            assertTrue(said.contains(work.resolve(name).toString()), said);
        }
        planted.assertUntouched("heimdall-trace -o");
    }
}
