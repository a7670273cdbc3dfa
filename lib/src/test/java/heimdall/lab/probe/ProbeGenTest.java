package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Probe aggregation and gen on hand-written inputs: no tracing, no root. */
class ProbeGenTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SyscallNames NAMES = SyscallNames.x86_64();

    private static String call(long seq, int tid, int nr, long... args) {
        long[] a = new long[6];
        System.arraycopy(args, 0, a, 0, args.length);
        return String.format(
                "{\"seq\":%d,\"ev\":\"syscall\",\"tid\":%d,\"pid\":100,\"nr\":%d,\"args\":[%s,%s,%s,%s,%s,%s],\"ip\":4096,\"ret\":0}",
                seq,
                tid,
                nr,
                Long.toUnsignedString(a[0]),
                Long.toUnsignedString(a[1]),
                Long.toUnsignedString(a[2]),
                Long.toUnsignedString(a[3]),
                Long.toUnsignedString(a[4]),
                Long.toUnsignedString(a[5]));
    }

    @Test
    void aggregationCountsEveryRunAndKeepsDistinctArgumentValues() {
        // run 1: two threads; mprotect READ twice, openat O_RDONLY|O_CLOEXEC with AT_FDCWD as the register held it
        String run1 = String.join(
                "\n",
                "{\"seq\":0,\"ev\":\"start\",\"tid\":100,\"pid\":100,\"kind\":\"root\",\"parent\":null}",
                call(3, 100, 10, 0x1000, 4096, 1),
                call(1, 100, 110),
                call(2, 100, 9, 0, 8192, 3, 34, 0xffffffffL, 0),
                call(4, 101, 10, 0x2000, 4096, 1),
                "{\"seq\":5,\"ev\":\"start\",\"tid\":101,\"pid\":100,\"kind\":\"thread\",\"parent\":100}",
                call(6, 101, 257, 0xffffff9cL, 0x5000, 0x80000),
                call(7, 100, 157, 15, 0x6000),
                call(8, 100, 231, 0));
        // run 2: another mprotect value and mmap pair, a call run 1 did not make
        String run2 = String.join(
                "\n",
                call(1, 200, 110),
                call(2, 200, 10, 0x1000, 4096, 3),
                call(3, 200, 9, 0, 8192, 1, 2, 3, 0),
                call(4, 200, 9, 0, 8192, 3, 34, 0xffffffffL, 0),
                call(5, 200, 24),
                call(6, 200, 231, 0));
        Observations o = Probe.aggregate(
                List.of(TraceReader.parse(run1, "run1"), TraceReader.parse(run2, "run2")),
                List.of(0, 0),
                List.of("prog"),
                NAMES);

        assertEquals(
                List.of(9, 10, 24, 110, 157, 231, 257),
                o.calls().stream().map(Observations.Call::nr).toList());
        assertEquals(List.of(2L, 1L), o.call("mprotect").orElseThrow().counts());
        assertEquals(List.of(0L, 1L), o.call("sched_yield").orElseThrow().counts());
        assertEquals(List.of(1L, 0L), o.call("openat").orElseThrow().counts());
        assertEquals(Optional.empty(), o.call("getppid").orElseThrow().args());
        assertEquals(Optional.empty(), o.call("sched_yield").orElseThrow().args());

        Observations.Args prot = o.call("mprotect").orElseThrow().args().orElseThrow();
        assertEquals(List.of(2), prot.indices());
        assertEquals(List.of(List.of(1L), List.of(3L)), prot.values());
        Observations.Args mmap = o.call("mmap").orElseThrow().args().orElseThrow();
        assertEquals(List.of(2, 3), mmap.indices());
        assertEquals(List.of("prot", "flags"), mmap.names());
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 34L)), mmap.values());
        assertEquals(
                List.of(List.of(0x80000L)),
                o.call("openat").orElseThrow().args().orElseThrow().values());
        assertEquals(
                List.of(List.of(15L)),
                o.call("prctl").orElseThrow().args().orElseThrow().values());
    }

    @Test
    void genMakesBareAllowsAndOneEqRulePerObservedValue(@TempDir Path dir) throws Exception {
        Path obs = dir.resolve("observations.json");
        Files.writeString(obs, """
                {"format": "heimdall-lab observations 1", "arch": "x86_64", "command": ["prog"], "runs": 2,
                 "statuses": [0, 0],
                 "syscalls": [
                  {"name": "prctl", "nr": 157, "counts": [1, 1],
                   "args": {"index": [0], "name": ["option"], "values": [[15]]}},
                  {"name": "getppid", "nr": 110, "counts": [1, 1]},
                  {"name": "mmap", "nr": 9, "counts": [3, 3],
                   "args": {"index": [2, 3], "name": ["prot", "flags"], "values": [[3, 34], [1, 2]]}},
                  {"name": "exit_group", "nr": 231, "counts": [1, 1]},
                  {"name": "openat", "nr": 257, "counts": [2, 2],
                   "args": {"index": [2], "name": ["flags"], "values": [[524288], [18446744073709551615]]}},
                  {"name": "close", "nr": 3, "counts": [2, 2]}
                 ]}
                """);
        JsonNode p = JSON.readTree(ProfileGen.generate(ObservationsJson.read(obs), obs.toString()));

        assertEquals("SCMP_ACT_KILL_PROCESS", p.get("defaultAction").asText());
        assertEquals("[\"SCMP_ARCH_X86_64\"]", p.get("architectures").toString());
        JsonNode s = p.get("syscalls");
        assertEquals(6, s.size());
        assertEquals(
                "[\"close\",\"exit_group\",\"getppid\"]", s.get(0).get("names").toString());
        assertEquals("SCMP_ACT_ALLOW", s.get(0).get("action").asText());
        assertTrue(s.get(0).get("args") == null, "bare allow carries no args");

        assertRule(s.get(1), "mmap", new long[][] {{2, 1}, {3, 2}});
        assertRule(s.get(2), "mmap", new long[][] {{2, 3}, {3, 34}});
        assertRule(s.get(3), "openat", new long[][] {{2, 524288}});
        assertEquals(
                "18446744073709551615",
                s.get(4).get("args").get(0).get("value").asText(),
                "values are unsigned 64-bit");
        assertRule(s.get(5), "prctl", new long[][] {{0, 15}});
    }

    private static void assertRule(JsonNode entry, String name, long[][] indexValue) {
        assertEquals("[\"" + name + "\"]", entry.get("names").toString());
        assertEquals("SCMP_ACT_ALLOW", entry.get("action").asText());
        JsonNode args = entry.get("args");
        assertEquals(indexValue.length, args.size(), entry.toString());
        for (int i = 0; i < indexValue.length; i++) {
            assertEquals(indexValue[i][0], args.get(i).get("index").asLong());
            assertEquals(indexValue[i][1], args.get(i).get("value").asLong());
            assertEquals(0, args.get(i).get("valueTwo").asLong());
            assertEquals("SCMP_CMP_EQ", args.get(i).get("op").asText());
        }
    }

    @Test
    void genIsDeterministicWhateverTheInputOrder() {
        Observations o = sample();
        String first = ProfileGen.generate(o, "sample");
        assertEquals(first, ProfileGen.generate(o, "sample"));
        Random rnd = new Random(7);
        for (int i = 0; i < 20; i++) {
            List<Observations.Call> calls = new ArrayList<>();
            for (Observations.Call c : o.calls()) {
                Optional<Observations.Args> args = c.args().map(a -> {
                    List<List<Long>> v = new ArrayList<>(a.values());
                    Collections.shuffle(v, rnd);
                    return new Observations.Args(a.indices(), a.names(), v);
                });
                calls.add(new Observations.Call(c.name(), c.nr(), c.counts(), args));
            }
            Collections.shuffle(calls, rnd);
            assertEquals(
                    first, ProfileGen.generate(new Observations("x86_64", List.of("p"), 1, List.of(0), calls), "s"));
        }
    }

    @Test
    void observationsRoundTripByteForByte(@TempDir Path dir) throws Exception {
        Observations o = sample();
        Path f = dir.resolve("o.json");
        ObservationsJson.write(o, f);
        Observations back = ObservationsJson.read(f);
        assertEquals(o, back);
        assertEquals(Files.readString(f), ObservationsJson.write(back));
    }

    @Test
    void genRefusesAnArgumentSensitiveCallWithoutItsValues() {
        Observations o = new Observations(
                "x86_64",
                List.of("p"),
                1,
                List.of(0),
                List.of(new Observations.Call("mprotect", 10, List.of(1L), Optional.empty())));
        BadInput e = assertThrows(BadInput.class, () -> ProfileGen.generate(o, "obs.json"));
        assertTrue(e.getMessage().contains("obs.json") && e.getMessage().contains("mprotect"), e.getMessage());
    }

    @Test
    void badObservationsNameFileAndField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(
                f,
                "{\"format\": \"heimdall-lab observations 1\", \"arch\": \"x86_64\", \"runs\": 1,"
                        + " \"syscalls\": [{\"name\": \"mmap\", \"nr\": 9, \"counts\": [1],"
                        + " \"args\": {\"index\": [2, 3], \"name\": [\"prot\", \"flags\"], \"values\": [[1]]}}]}");
        BadInput e = assertThrows(BadInput.class, () -> ObservationsJson.read(f));
        assertTrue(
                e.getMessage().contains(f.toString()) && e.getMessage().contains("syscalls[0].args.values[0]"),
                e.getMessage());
    }

    private static Observations sample() {
        return new Observations(
                "x86_64",
                List.of("p"),
                1,
                List.of(0),
                List.of(
                        new Observations.Call("close", 3, List.of(2L), Optional.empty()),
                        new Observations.Call(
                                "mmap",
                                9,
                                List.of(4L),
                                Optional.of(new Observations.Args(
                                        List.of(2, 3),
                                        List.of("prot", "flags"),
                                        List.of(List.of(1L, 2L), List.of(3L, 34L), List.of(5L, 2066L))))),
                        new Observations.Call(
                                "mprotect",
                                10,
                                List.of(3L),
                                Optional.of(new Observations.Args(
                                        List.of(2), List.of("prot"), List.of(List.of(0L), List.of(1L), List.of(-1L))))),
                        new Observations.Call("getppid", 110, List.of(1L), Optional.empty()),
                        new Observations.Call("exit_group", 231, List.of(1L), Optional.empty())));
    }
}
