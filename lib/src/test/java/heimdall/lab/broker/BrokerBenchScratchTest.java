package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import heimdall.lab.cli.Main;
import heimdall.lab.sys.Planted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./lab broker bench}: its job folder is a private scratch folder, gone when the command returns. */
class BrokerBenchScratchTest {
    @TempDir
    Path tmp;

    @Test
    void theBenchLeavesNothingAndTouchesNothingPlanted() throws Exception {
        BrokerFixtures.assumeSupported();
        long pid = ProcessHandle.current().pid();
        Path tmpdir = Files.createDirectory(
                tmp.resolve("tmpdir"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Planted planted = Planted.in(outside, tmpdir)
                .linkToDir(tmpdir.resolve("heimdall-broker-bench"))
                .linkToDir(tmpdir.resolve("heimdall-lab-job-" + pid))
                .fifo(tmpdir.resolve("heimdall-broker-bench-" + pid))
                .watch();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int status;
        try (AutoCloseable t = Planted.tmpdir(tmpdir)) {
            System.setOut(ps);
            System.setErr(ps);
            status = assertTimeoutPreemptively(
                    Duration.ofSeconds(120),
                    () -> Main.run(
                            List.of(
                                    "broker",
                                    "bench",
                                    "--calls",
                                    "20",
                                    "--warmup",
                                    "0",
                                    "--runs",
                                    "1",
                                    "--answer",
                                    "broker",
                                    "--supervisor",
                                    "native"),
                            ps,
                            ps));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
        planted.assertUntouched("broker bench");
    }
}
