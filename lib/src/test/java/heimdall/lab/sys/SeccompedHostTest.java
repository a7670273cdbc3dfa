package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.testing.Requires;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started under seccomp filters (heimdall-exec twice, each installing an allow-all program, as a
 * container runtime installs its profile before exec) records them in environment.json: Seccomp 2, two
 * filters more than this process has, no_new_privs set. Without the record, a run inside Docker's
 * default profile would look like a bare one.
 */
class SeccompedHostTest {
    static final short RET_K = 0x06;
    static final int SECCOMP_RET_ALLOW = 0x7fff0000;

    @Test
    void aJvmUnderTwoStackedFiltersRecordsThem(@TempDir Path dir) throws Exception {
        Requires.seccomp("allow");
        SelfSeccomp parent = SelfSeccomp.capture();
        Path allowAll = dir.resolve("allow.bpf");
        Files.write(
                allowAll,
                ByteBuffer.allocate(8)
                        .order(ByteOrder.nativeOrder())
                        .putShort(RET_K)
                        .put((byte) 0)
                        .put((byte) 0)
                        .putInt(SECCOMP_RET_ALLOW)
                        .array());
        String exec = NativeExecutables.execWrapper().toString();
        List<String> cmd = new ArrayList<>(List.of(
                exec,
                allowAll.toString(),
                "--",
                exec,
                allowAll.toString(),
                "--",
                ProcessHandle.current().info().command().orElseThrow(),
                "-cp",
                System.getProperty("java.class.path"),
                HostJsonMain.class.getName()));
        Process p = new ProcessBuilder(cmd).start();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        String stderr = new String(err.get(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), stderr);

        JsonNode env = new ObjectMapper().readTree(out);
        JsonNode s = env.get("process_seccomp");
        assertEquals(2, s.get("seccomp").asInt(), s.toString());
        assertEquals("filter", s.get("seccomp_mode").asText());
        assertEquals(parent.seccompFilters() + 2, s.get("seccomp_filters").asInt(), s.toString());
        assertEquals(1, s.get("no_new_privs").asInt(), "heimdall-exec sets no_new_privs: " + s);
        assertEquals(0, s.get("unread").size(), s.toString());
    }
}
