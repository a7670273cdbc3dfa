package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bpf.Insn;
import heimdall.lab.bpf.Program;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bpf commands through {@link Main#run}: outputs, warnings on stderr, exit 2 on bad input. */
class BpfCommandsTest {
    @TempDir
    Path dir;

    record Outcome(int status, String out, String err) {}

    /** Runs a command capturing what it prints (commands write to System.out/err, Main to the streams given). */
    static Outcome run(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setOut(o);
        System.setErr(e);
        try {
            int status = Main.run(List.of(argv), o, e);
            return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void compileWritesRawBytesThatReadBackAndWarnsOnStderr() throws Exception {
        Path profile = write("p.json", """
                {"defaultAction": "SCMP_ACT_KILL_PROCESS", "syscalls": [
                  {"names": ["getppid", "no_such_call"], "action": "SCMP_ACT_ALLOW"}]}""");
        Path out = dir.resolve("p.bpf");
        Outcome o = run("bpf", "compile", profile.toString(), "-o", out.toString());
        assertEquals(0, o.status(), o.err());
        assertTrue(o.err().contains("warning:") && o.err().contains("no_such_call"), o.err());
        Program p = Program.fromBytes(Files.readAllBytes(out), out.toString());
        assertEquals(Files.size(out), 8L * p.length());
        Outcome dis = run("bpf", "disasm", out.toString());
        assertEquals(0, dis.status());
        assertTrue(dis.out().contains("getppid"), dis.out());
    }

    @Test
    void statsPrintsFiguresAndJson() throws Exception {
        Path profile = write("p.json", """
                {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
                  {"names": ["getppid", "gettid"], "action": "SCMP_ACT_ALLOW"},
                  {"names": ["prctl"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 0, "value": 15, "op": "SCMP_CMP_EQ"}]}]}""");
        Outcome o = run("bpf", "stats", profile.toString(), "--json");
        assertEquals(0, o.status(), o.err());
        assertTrue(o.out().contains("\"allowed\"") && o.out().contains("\"cacheable\" : 2"), o.out());
        Outcome text = run("bpf", "stats", profile.toString());
        assertTrue(
                text.out()
                        .lines()
                        .anyMatch(l -> l.matches("heimdall\\s+\\d+\\s+2\\s.*")
                                && l.contains("2 of "
                                        + heimdall.lab.profile.SyscallTable.x86_64()
                                                .numbers()
                                                .size())),
                text.out());
    }

    @Test
    void statsWritesTheFiguresIntoAResultsFolderOnceAndNeverOverThem() throws Exception {
        Path profile = write("p.json", """
                {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [
                  {"names": ["getppid", "gettid"], "action": "SCMP_ACT_ALLOW"}]}""");
        Path out = dir.resolve("stats");
        Outcome o = run("bpf", "stats", profile.toString(), "-o", out.toString());
        assertEquals(0, o.status(), o.err());
        String json = Files.readString(out.resolve("summary.json"));
        assertTrue(json.contains("\"median\"") && json.contains("\"cacheable\" : 2"), json);
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(
                table.contains(o.out()
                        .lines()
                        .filter(l -> l.startsWith("heimdall"))
                        .findFirst()
                        .orElseThrow()),
                table + " vs " + o.out());
        // a second run into the same folder is refused (exit 2), and the first run's files stay as they were
        Outcome again = run("bpf", "stats", profile.toString(), "--json", "-o", out.toString());
        assertEquals(2, again.status(), again.err());
        assertTrue(again.err().contains("not empty"), again.err());
        assertEquals(json, Files.readString(out.resolve("summary.json")));
        // a bad profile leaves no folder behind
        Path bad = write("bad.json", "{\"defaultAction\": ");
        assertEquals(
                2,
                run("bpf", "stats", bad.toString(), "-o", dir.resolve("none").toString())
                        .status());
        assertTrue(Files.notExists(dir.resolve("none")));
    }

    @Test
    void badProfilesExitWith2NamingFileAndField() throws Exception {
        String[][] cases = {
            {"{\"defaultAction\": ", "line 1 column 19: not valid JSON"},
            {"{\"defaultAction\": \"SCMP_ACT_NOPE\"}", "defaultAction: unknown action"},
            {
                "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"read\"], \"action\": "
                        + "\"SCMP_ACT_ERRNO\","
                        + " \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_SIMILAR\"}]}]}",
                "syscalls[0].args[0].op: unknown op"
            },
            {
                "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"read\"], \"action\": "
                        + "\"SCMP_ACT_ERRNO\","
                        + " \"args\": [{\"index\": 9, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}]}",
                "syscalls[0].args[0].index: argument index must be 0..5 (seccomp_data has args[0..5]), got 9"
            },
        };
        int i = 0;
        for (String[] c : cases) {
            Path f = write("bad" + i++ + ".json", c[0]);
            for (String cmd : new String[] {"compile", "disasm", "stats"}) {
                Outcome o = cmd.equals("compile")
                        ? run(
                                "bpf",
                                cmd,
                                f.toString(),
                                "-o",
                                dir.resolve("x.bpf").toString())
                        : run("bpf", cmd, f.toString());
                assertEquals(2, o.status(), cmd + " " + c[0] + ": " + o.err());
                assertTrue(o.err().contains(f + ": " + c[1]), o.err());
            }
        }
    }

    @Test
    void badProgramsExitWith2NamingFileAndInstruction() throws Exception {
        Path tooLong = dir.resolve("long.bpf");
        ByteBuffer b = ByteBuffer.allocate(8 * 4097).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4097; i++) {
            b.putShort((short) 0x06).put((byte) 0).put((byte) 0).putInt(0x7fff0000);
        }
        Files.write(tooLong, b.array());
        Outcome o = run("bpf", "disasm", tooLong.toString());
        assertEquals(2, o.status());
        assertTrue(o.err().contains(tooLong + ": length: 4097 instructions, over the kernel's limit of 4096"), o.err());

        Path jump = dir.resolve("jump.bpf");
        Files.write(jump, new Program(List.of(Insn.ret(0))).toBytes());
        byte[] bytes = new byte[16];
        ByteBuffer.wrap(bytes)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) (Insn.JMP | Insn.JEQ))
                .put((byte) 7)
                .put((byte) 0)
                .putInt(1)
                .putShort((short) 0x06)
                .put((byte) 0)
                .put((byte) 0)
                .putInt(0);
        Files.write(jump, bytes);
        Outcome j = run("bpf", "disasm", jump.toString());
        assertEquals(2, j.status());
        assertTrue(j.err().contains(jump + ": insn 0: jump (jt 7, jf 0) lands outside the program"), j.err());
    }

    @Test
    void syscallTableCommandWritesTheResourceFormat() throws Exception {
        Path header = write("unistd_64.h", "#define __NR_read 0\n#define __NR_write 1\n#define __NR_x32_thing 512\n");
        Path out = dir.resolve("t.tsv");
        Outcome o = run("profile", "syscall-table", "--from", header.toString(), "-o", out.toString());
        assertEquals(0, o.status(), o.err());
        List<String> lines = Files.readAllLines(out);
        assertTrue(lines.get(0).startsWith("# source: " + header.toAbsolutePath()), lines.get(0));
        assertEquals(List.of("read\t0", "write\t1", "x32_thing\t512"), lines.subList(1, lines.size()));
        assertEquals(
                2,
                run(
                                "profile",
                                "syscall-table",
                                "--from",
                                dir.resolve("missing.h").toString())
                        .status());
    }
}
