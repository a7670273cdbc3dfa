package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * heimdall-exec with hand-assembled filters in the real kernel (the profile compiler lives in another
 * package; these programs are written out instruction by instruction).
 */
class ExecWrapperTest {
    static final int SIGSYS = 31;
    // classic BPF opcodes and seccomp constants, from <linux/filter.h> and <linux/seccomp.h>
    static final int LD_W_ABS = 0x20, JEQ_K = 0x15, RET_K = 0x06;
    static final int AUDIT_ARCH_X86_64 = 0xc000003e;
    static final int RET_ALLOW = 0x7fff0000, RET_KILL_PROCESS = 0x80000000;
    static final int OFF_NR = 0, OFF_ARCH = 4;

    @TempDir
    static Path dir;

    @BeforeAll
    static void seccompAvailable() {
        Requires.seccomp("kill_process", "allow");
    }

    private static byte[] program(int[]... insns) {
        ByteBuffer b = ByteBuffer.allocate(insns.length * 8).order(ByteOrder.nativeOrder());
        for (int[] i : insns) {
            b.putShort((short) i[0]).put((byte) i[1]).put((byte) i[2]).putInt(i[3]);
        }
        return b.array();
    }

    /** Kills the process on syscall {@code nr} (and on any other architecture); allows the rest. */
    static byte[] killOn(int nr) {
        return program(
                new int[] {LD_W_ABS, 0, 0, OFF_ARCH},
                new int[] {JEQ_K, 1, 0, AUDIT_ARCH_X86_64},
                new int[] {RET_K, 0, 0, RET_KILL_PROCESS},
                new int[] {LD_W_ABS, 0, 0, OFF_NR},
                new int[] {JEQ_K, 0, 1, nr},
                new int[] {RET_K, 0, 0, RET_KILL_PROCESS},
                new int[] {RET_K, 0, 0, RET_ALLOW});
    }

    record Result(int status, String stderr) {}

    static Result run(byte[] filter, String... cmd) throws Exception {
        Path f = Files.createTempFile(dir, "filter", ".bpf");
        Files.write(f, filter);
        return runFile(f, cmd);
    }

    static Result runFile(Path filter, String... cmd) throws Exception {
        List<String> argv =
                new ArrayList<>(List.of(NativeExecutables.execWrapper().toString(), filter.toString(), "--"));
        argv.addAll(List.of(cmd));
        Process p = new ProcessBuilder(argv)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        p.getErrorStream().transferTo(err);
        return new Result(p.waitFor(), err.toString(StandardCharsets.UTF_8));
    }

    private static String abcdf() {
        return NativeExecutables.abcdf().toString();
    }

    @Test
    void abcdfIsKilledWithSigsysWhenTheFilterKillsGetegid() throws Exception {
        Result r = run(killOn(108), abcdf(), "2");
        assertEquals(128 + SIGSYS, r.status(), "killed by SIGSYS at F (getegid): " + r.stderr());
    }

    @Test
    void abcdfRunsToCompletionUnderAnAllowAllFilter() throws Exception {
        assertEquals(
                0,
                run(program(new int[] {RET_K, 0, 0, RET_ALLOW}), abcdf(), "2").status());
        assertEquals(
                0,
                run(killOn(39 /* getpid: abcdf never calls it */), abcdf(), "2").status());
    }

    @Test
    void onlyTheUnobservedVariantDiesOnItsExtraCall() throws Exception {
        byte[] killGetpgrp = killOn(111);
        assertEquals(0, run(killGetpgrp, abcdf(), "3").status());
        assertEquals(
                128 + SIGSYS, run(killGetpgrp, abcdf(), "3", "--unobserved").status());
    }

    @Test
    void badProgramsAreReportedClearly() throws Exception {
        Result odd = run(new byte[] {1, 2, 3, 4, 5, 6, 7}, "/bin/true");
        assertEquals(125, odd.status());
        assertTrue(odd.stderr().contains("not a whole, non-empty number of 8-byte"), odd.stderr());

        Result rejected = run(program(new int[] {0x99, 0, 0, 0}), "/bin/true");
        assertEquals(126, rejected.status());
        assertTrue(
                rejected.stderr().contains("refused") && rejected.stderr().contains("Invalid argument"),
                rejected.stderr());

        Result missing = runFile(dir.resolve("no-such.bpf"), "/bin/true");
        assertEquals(125, missing.status());
        assertTrue(missing.stderr().contains("no-such.bpf"), missing.stderr());

        Result noCmd = run(program(new int[] {RET_K, 0, 0, RET_ALLOW}), "/no/such/command");
        assertEquals(127, noCmd.status());
    }
}
