package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.load.Worker;
import heimdall.lab.reproduce.attachcost.AttachCost;
import heimdall.lab.reproduce.hostload.HostLoad;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each reproduction with tiny counts writes its folder with the summary fields its readers rely on. */
class ReproductionsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static void requireSeccomp() {
        Requires.seccomp("kill_process");
    }

    static JsonNode summary(Path folder) throws IOException {
        for (String f : List.of("summary.json", "environment.json", "samples.arrow", "table.md")) {
            assertTrue(Files.isRegularFile(folder.resolve(f)), f + " written");
        }
        JsonNode top = JSON.readTree(folder.resolve("summary.json").toFile());
        assertEquals(ResultsFolder.SUMMARY_SCHEMA, top.get("schema_version").asInt());
        assertFalse(top.get("interrupted").asBoolean(), "nothing interrupted these runs");
        return top.get("rows");
    }

    static List<Integer> ints(JsonNode array) {
        List<Integer> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asInt()));
        return out;
    }

    static void hasFields(JsonNode row, String... fields) {
        for (String f : fields) {
            assertTrue(row.has(f), "field " + f + " in " + row);
        }
    }

    @Test
    void kernelBitmapWritesConfigurationsEstimatesExpectationsAndTheAgreement(@TempDir Path tmp) throws IOException {
        requireSeccomp();
        KernelBitmap.Options o = new KernelBitmap.Options(5, 100, 2_000, 2, 20_000, Cpus.measuring());
        ReproductionResult r = KernelBitmap.run(o, ResultsFolder.chosen(tmp.resolve("kb")), s -> {});
        JsonNode s = summary(r.folder());
        assertEquals(5 + 7 + 7 + 1, s.size());
        for (int i = 0; i < 5; i++) {
            JsonNode c = s.get(i);
            assertEquals("configuration", c.get("section").asText());
            assertEquals(i, c.get("filters").asInt());
            hasFields(
                    c,
                    "what",
                    "cache",
                    "per_call_ns",
                    "median_ns",
                    "p99_ns",
                    "run_medians_ns",
                    "batch_ns_per_call",
                    "batch_run_ns_per_call",
                    "published_ns",
                    "selftest_per_call_ns",
                    "selftest_median_ns",
                    "selftest_batch_ns_per_call",
                    "batch_monotonic_ns_per_call",
                    "selftest_batch_monotonic_ns_per_call");
            assertEquals(5, c.get("run_medians_ns").size());
            assertEquals(2, c.get("batch_run_ns_per_call").size());
            // Round r runs at placement r mod 4; the batch runs are spread over the five rounds.
            assertEquals(List.of(0, 1, 2, 3, 0), ints(c.get("run_placements")));
            assertEquals(4, c.get("per_call_ns_by_placement").size());
            assertEquals(2, c.get("batch_run_placements").size());
            assertTrue(c.get("batch_ns_per_call").asLong() > 0);
            assertEquals(i == 1 || i == 2, c.get("cache").asBoolean(), "bitmap filters cacheable, an args read is not");
            // Every method: its runs, their placements, the figure by placement, the spread and the noisy flag.
            for (KernelBitmap.Method m : KernelBitmap.METHODS) {
                hasFields(
                        c,
                        m.figureField(),
                        m.runsField(),
                        m.placementsField(),
                        m.byPlacementField(),
                        m.field("spread"),
                        m.field("noisy"));
                assertTrue(c.get(m.figureField()).asLong() > 0, m.label());
                assertEquals(m.timing().batch() ? 2 : 5, c.get(m.runsField()).size(), m.label());
                assertEquals(4, c.get(m.byPlacementField()).size(), m.label());
                assertTrue(c.get(m.field("noisy")).isBoolean(), m.label());
                double spread = c.get(m.field("spread")).asDouble();
                assertEquals(spread > 0.25, c.get(m.field("noisy")).asBoolean(), m.label() + " spread " + spread);
            }
            assertEquals(List.of(0, 1, 2, 3, 0), ints(c.get("selftest_run_placements")));
            // Each loop's intervals over its 5 runs bracket its medians; the added cost only against native.
            for (String loop : List.of("", "selftest_")) {
                long median = c.get(loop + "median_ns").asLong();
                assertTrue(
                        c.get(loop + "median_ci_low_ns").asLong() <= median
                                && median <= c.get(loop + "median_ci_high_ns").asLong(),
                        loop + c);
                assertEquals(5, c.get(loop + "median_ci_runs").asLong());
                assertEquals(i > 0, c.has(loop + "added_ci_low_ns"), loop + c);
                assertEquals(2, c.get(loop + "batch_median_ci_runs").asLong());
            }
        }
        assertEquals("entry", s.get(5 + 4).get("what").asText());
        for (int i = 5; i < 12; i++) {
            assertEquals("estimate", s.get(i).get("section").asText());
            hasFields(s.get(i), "published_ns");
            for (KernelBitmap.Method m : KernelBitmap.METHODS) {
                hasFields(s.get(i), m.key() + "_ns");
            }
        }
        JsonNode entry = s.get(5 + 4);
        for (KernelBitmap.Method m : KernelBitmap.METHODS) {
            if (!m.equals(KernelBitmap.SELFTESTS_METHOD)) {
                assertTrue(entry.get(m.key() + "_within_20pct").isBoolean(), m.key());
            }
        }
        assertFalse(s.get(5).has("bare_per_call_within_20pct"), "totals are not compared");
        for (int i = 12; i < 19; i++) {
            assertEquals("expectation", s.get(i).get("section").asText());
            for (KernelBitmap.Method m : KernelBitmap.METHODS) {
                for (String rule : List.of("2020", "later")) {
                    assertTrue(
                            List.of("pass", "fail", "skipped")
                                    .contains(s.get(i).get(m.key() + "_" + rule).asText()),
                            m.key() + " " + rule);
                }
            }
        }
        assertEquals("agreement", s.get(19).get("section").asText());
        assertTrue(s.get(19).get("agree").isBoolean());
        assertTrue(s.get(19).get("bare_per_call_agree").isBoolean());
        assertTrue(s.get(19).get("selftest_batch_monotonic_agree").isBoolean());
        assertFalse(s.get(19).has("selftest_batch_cputime_agree"), "the selftest's method is the reference");
        assertEquals(5, SamplesFile.read(r.folder().resolve("samples.arrow"), 4, "per-call").length);
        assertEquals(5, SamplesFile.read(r.folder().resolve("samples.arrow"), 4, "per-call-selftest-loop").length);
        String table = Files.readString(r.folder().resolve("table.md"));
        assertTrue(table.contains("Expectations:") && table.contains("getpid RET_ALLOW 4 filters (full)"), table);
        assertTrue(table.contains("selftest loop (glibc syscall(), pid compared)") && table.contains("2020"), table);
        assertTrue(
                table.contains("(built: native median + median overhead of 5 rounds)"),
                "the built lines say how they are built");
    }

    @Test
    void attachCostWritesEveryFloorAndTheForkBaseline(@TempDir Path tmp) throws IOException {
        requireSeccomp();
        AttachCost.Options o = new AttachCost.Options(1, 5, 2, 5, 3, 3, Cpus.measuring());
        ReproductionResult r =
                AttachCost.run(o, ResultsFolder.chosen(tmp.resolve("ac")), AttachCost.PODMAN_PROFILE, s -> {});
        JsonNode s = summary(r.folder());
        int floors = 1 + 2 + (Files.isRegularFile(AttachCost.PODMAN_PROFILE) ? 1 : 0);
        assertEquals(floors + 1, s.size());
        int last = 0;
        for (int i = 0; i < floors; i++) {
            JsonNode f = s.get(i);
            hasFields(
                    f,
                    "what",
                    "insns",
                    "loop_insns",
                    "attaches_per_run",
                    "attach_budget",
                    "attach_median_ns",
                    "attach_p99_ns",
                    "attach_outside_ns_per_call",
                    "fork_attach_median_ns",
                    "fork_attach_outside_ns_per_call",
                    "attach_in_fork_added_ns",
                    "compile_median_ns");
            assertEquals(5, f.get("attaches_per_run").asInt());
            assertTrue(f.get("insns").asInt() >= last, "floors of growing size");
            last = f.get("insns").asInt();
            assertTrue(f.get("attach_median_ns").asLong() > 0);
        }
        assertTrue(s.get(0).get("compile_median_ns").isNull(), "the hand-written filter is not compiled");
        assertTrue(s.get(1).get("compile_median_ns").asLong() > 0);
        assertEquals("fork alone", s.get(floors).get("what").asText());
        assertTrue(s.get(floors).get("fork_median_ns").asLong() > 0);
        assertEquals(1, SamplesFile.read(r.folder().resolve("samples.arrow"), 0, "attach").length);
        assertEquals(5, SamplesFile.read(r.folder().resolve("samples.arrow"), 0, "attach")[0].length);
    }

    @Test
    void hostLoadWritesTheSameRowsIdleAndLoadedWithEachRunsLoad(@TempDir Path tmp) throws IOException {
        requireSeccomp();
        HostLoad.Options o = new HostLoad.Options(
                new FloorBench.Counts(1, 100, 1_000, 10, 10),
                Cpus.measuring(),
                List.of(new Worker(Worker.Kind.SPIN, Cpus.measuring(), 10, 0.5)),
                0);
        ReproductionResult r = HostLoad.run(o, ResultsFolder.chosen(tmp.resolve("hl")), s -> {});
        JsonNode s = summary(r.folder());
        assertEquals(18, s.size());
        for (int i = 0; i < 18; i++) {
            JsonNode row = s.get(i);
            assertEquals(i < 9 ? "idle" : "loaded", row.get("load").asText());
            hasFields(
                    row,
                    "what",
                    "call",
                    "median_ns",
                    "p99_ns",
                    "load_avg_runs",
                    "run_medians_ns",
                    "run_p99_ns",
                    "twin_row");
            assertEquals(1, row.get("load_avg_runs").size());
            assertEquals(1, row.get("run_p99_ns").size());
            assertEquals("ok", row.get("status").asText(), row.toString());
            JsonNode twin = s.get(row.get("twin_row").asInt());
            assertEquals(row.get("what"), twin.get("what"));
            assertEquals(row.get("call"), twin.get("call"));
        }
        // The loaded rows' samples sit after the idle ones in the one samples file.
        assertEquals(1, SamplesFile.read(r.folder().resolve("samples.arrow"), 9, "filtered").length);
        assertEquals(1_000, SamplesFile.read(r.folder().resolve("samples.arrow"), 17, "filtered")[0].length);
        List<HostLoad.RunPoint> points = HostLoad.runPoints(r.folder());
        assertEquals(18, points.size());
        assertEquals("loaded", points.get(17).load());
        assertEquals(s.get(17).get("run_p99_ns").get(0).asLong(), points.get(17).p99Ns());
        JsonNode env = JSON.readTree(r.folder().resolve("environment.json").toFile());
        assertEquals(1, env.get("load_ran").get("workers").size());
        assertEquals(
                10,
                env.get("load_ran").get("workers").get(0).get("nice_granted").asInt());
    }

    /** A floor whose runs fail (it kills the child's exit) is reported failed; the others are measured. */
    @Test
    void aFloorThatKillsItsChildIsReportedAndTheOthersMeasured() {
        requireSeccomp();
        heimdall.lab.bpf.Program killsExit = new heimdall.lab.bpf.Program(List.of(
                heimdall.lab.bpf.Insn.ldAbs(0), heimdall.lab.bpf.Insn.jump(heimdall.lab.bpf.Insn.JEQ, 231, 0, 1),
                heimdall.lab.bpf.Insn.ret(0x80000000), heimdall.lab.bpf.Insn.ret(KernelBitmap.RET_ALLOW)));
        List<AttachCost.Floor> floors = List.of(
                new AttachCost.Floor("2 insns", "test", KernelBitmap.BITMAP_FILTER),
                new AttachCost.Floor("kills exit_group", "test", killsExit));
        AttachCost.Measurement m =
                AttachCost.measure(new AttachCost.Options(2, 3, 0, 3, 1, 1, Cpus.measuring()), floors, null, s -> {});
        assertTrue(m.floors().get(0).ok());
        assertTrue(
                !m.floors().get(1).ok() && m.floors().get(1).failure().contains("SIGSYS"),
                m.floors().get(1).failure());
        List<heimdall.lab.results.AttachCostRow> summary = AttachCost.summary(m);
        assertEquals(3, summary.size(), "two floors and the fork alone");
        assertTrue(summary.get(0).intervals() != null, "the measured floor has its intervals");
        assertTrue(summary.get(1).intervals() == null, "the failed floor has none");
        assertEquals("failed", summary.get(1).status());
        assertTrue(summary.get(1).failure().contains("SIGSYS"));
        assertEquals("ok", summary.get(0).status());
    }

    /**
     * The kernel-length model behind the attach budget, on the real floors: each compiled floor can be
     * attached exactly {@code maxFilters} times in one process, and the next attach is refused.
     */
    @Test
    void theBudgetOfEveryRealFloorIsExact() {
        requireSeccomp();
        for (AttachCost.Floor f : AttachCost.floors(AttachCost.PODMAN_PROFILE, s -> {})) {
            byte[] p = f.loopProgram().toBytes();
            int k = heimdall.lab.child.AttachBudget.maxFilters(p);
            heimdall.lab.child.ChildResult r = heimdall.lab.child.MeasuredChild.run(
                    heimdall.lab.child.ChildSpec.attaching(heimdall.lab.child.Call.ATTACH, p, 0, k + 1)
                            .withMode(heimdall.lab.child.ChildSpec.Mode.PER_CALL));
            assertEquals(k, r.samples().length, f.name() + ": " + r.fate().describe());
            assertEquals(heimdall.lab.Errno.ENOMEM, r.lastErrno(), f.name());
        }
    }

    /** results/published/attach-cost.json: each figure is its printed total over the 100,000 calls, rounded down. */
    @Test
    void publishedAttachFiguresAreTheirTotalsOverTheCalls() {
        List<heimdall.lab.results.PublishedAttachCost.Row> rows =
                AttachCost.published().rows();
        assertEquals(4, rows.size());
        for (heimdall.lab.results.PublishedAttachCost.Row row : rows) {
            assertEquals(row.elapsedNs() / 100_000, row.ns(), row.toString());
            assertTrue(row.printed().endsWith(row.ns() + " ns"));
        }
    }

    @Test
    void theCommandKnowsEveryNameAndRefusesOthers() {
        assertEquals(
                List.of(
                        "floor-cost",
                        "kernel-bitmap",
                        "attach-cost",
                        "host-load",
                        "follower-cost",
                        "graph-lookup",
                        "lanes",
                        "kernel-matrix",
                        "mechanisms",
                        "workload-cost"),
                ReproduceCommand.NAMES);
        BadInput e = assertThrows(BadInput.class, () -> new ReproduceCommand().run(List.of("no-such")));
        assertTrue(e.getMessage().contains("no-such"));
        assertInstanceOf(
                BadInput.class,
                assertThrows(BadInput.class, () -> new ReproduceCommand().run(List.of("kernel-bitmap", "--no-broker"))),
                "floor-cost's option is not kernel-bitmap's");
        assertThrows(BadInput.class, () -> new ReproduceCommand().run(List.of("--out", "x")));
        String help = new ReproduceCommand().help();
        for (String n : ReproduceCommand.NAMES) {
            // graph-lookup and lanes parse their own options and bring their own usage text.
            assertTrue(help.contains(n + " options:") || help.contains("usage: ./lab reproduce " + n), help);
        }
    }
}
