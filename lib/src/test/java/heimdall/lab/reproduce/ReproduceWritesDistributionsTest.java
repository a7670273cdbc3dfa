package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.analysis.Distributions;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reproduction's folder holds distributions.json beside samples.arrow, and its name says which reproduction. */
class ReproduceWritesDistributionsTest {
    @TempDir
    Path tmp;

    @Test
    void reproduceWritesDistributionsBesideSamples() throws Exception {
        ReproductionsTest.requireSeccomp();
        Path out = tmp.resolve("ac");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        PrintStream was = System.out;
        int status;
        try {
            System.setOut(quiet);
            status = Main.run(
                    List.of(
                            "reproduce",
                            "attach-cost",
                            "--runs",
                            "1",
                            "--attaches",
                            "5",
                            "--forks",
                            "5",
                            "--podman",
                            "none",
                            "--out",
                            out.toString()),
                    quiet,
                    quiet);
        } finally {
            System.setOut(was);
        }
        assertEquals(0, status);
        assertTrue(Files.isRegularFile(out.resolve("samples.arrow")));
        Distributions d = Distributions.read(out.resolve(Distributions.FILE));
        Results r = Results.load(out);
        for (String v : r.variants()) {
            for (int row : r.rowsWithSamples()) {
                if (r.hasSamples(row, v)) {
                    assertEquals(r.ecdfOf(row, v).median(), d.ecdf(row, v).median(), row + " " + v);
                    assertEquals(r.ecdfOf(row, v).count(), d.ecdf(row, v).count(), row + " " + v);
                }
            }
        }
    }

    @Test
    void defaultFoldersAreNamedAfterTheReproduction() {
        ResultsFolder f = ResultsFolder.allocate(tmp, java.time.LocalDate.of(2026, 12, 1), "vm/x", "kernel-bitmap");
        assertEquals("2026-12-01-vm_x-kernel-bitmap", f.publish().getFileName().toString());
        ResultsFolder g = ResultsFolder.allocate(tmp, java.time.LocalDate.of(2026, 12, 1), "vm/x", "kernel-bitmap");
        assertEquals(
                "2026-12-01-vm_x-kernel-bitmap-2", g.publish().getFileName().toString());
    }
}
