package heimdall.lab.reproduce.kernelmatrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.features.Feature;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.reproduce.ReproduceCommand;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.KernelMatrixRow.Section;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.RunCounts;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kernel-matrix: the host-only quick path end to end, bad kernel names, and a guest's part as a stand-in
 * {@code ./lab} plays it (a hostile folder, a hang past the deadline, a good folder renamed and marked).
 */
class KernelMatrixTest {
    @TempDir
    Path tmp;

    private static KernelMatrix.Options options(List<String> kernels) {
        return new KernelMatrix.Options(
                kernels,
                true,
                FloorBench.Counts.quick(),
                FollowerCost.Options.quick(Cpus.measuring()),
                Cpus.supervisor(),
                1);
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void theHostOnlyQuickPathWritesAFolderThatLoadsAndRedraws() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf(), KernelFacts.seccompActions("user_notif"));
        Path out = tmp.resolve("km");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        List<String> err = new ArrayList<>();
        int status = -1;
        RuntimeException failed = null;
        try (PrintStream o = new PrintStream(text, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(
                        new java.io.OutputStream() {
                            private final StringBuilder line = new StringBuilder();

                            @Override
                            public void write(int b) {
                                if (b == '\n') {
                                    err.add(line.toString());
                                    line.setLength(0);
                                } else {
                                    line.append((char) b);
                                }
                            }
                        },
                        true,
                        StandardCharsets.UTF_8)) {
            try {
                status = ReproduceCommand.run(
                        List.of(
                                "kernel-matrix",
                                "--quick",
                                "--kernels",
                                "host",
                                "--runs",
                                "1",
                                "--calls",
                                "5000",
                                "--broker-calls",
                                "300",
                                "--out",
                                out.toString()),
                        o,
                        e);
            } catch (RuntimeException x) {
                failed = x; // a part that fails (not a refusal) is raised after the folder is written
            }
        }
        Results r = Results.load(out);
        List<KernelMatrixRow> rows = r.kernelMatrix();
        if (failed != null) {
            // only follower-cost's own check may fail here (other helpers own it); the rest is kept, the run marked
            String why = failed.getMessage();
            assertTrue(r.interrupted(), "a failed run is marked");
            assertTrue(
                    rows.stream()
                            .anyMatch(k -> k.section() == Section.FOLLOWER_COST
                                    && k.outcome() == RowStatus.FAILED
                                    && k.reason().contains(why)),
                    why + " in " + rows);
            assertEquals(
                    Feature.values().length,
                    rows.stream().filter(k -> k.section() == Section.FEATURE).count());
            return;
        }
        assertEquals(0, status, text + "\n" + err);
        Map<Section, List<KernelMatrixRow>> bySection = new LinkedHashMap<>();
        rows.forEach(k ->
                bySection.computeIfAbsent(k.section(), s -> new ArrayList<>()).add(k));
        assertEquals(
                List.of(Section.FEATURE, Section.FLOOR_COST, Section.KERNEL_BITMAP, Section.FOLLOWER_COST),
                List.copyOf(bySection.keySet()));
        assertEquals(Feature.values().length, bySection.get(Section.FEATURE).size());
        assertEquals(
                3,
                bySection.get(Section.FLOOR_COST).size(),
                bySection.get(Section.FLOOR_COST).toString());
        assertEquals(4, bySection.get(Section.KERNEL_BITMAP).size());
        for (KernelMatrixRow k : rows) {
            assertEquals(new KernelMatrixRow.Kernel("host", System.getProperty("os.version"), false), k.kernel());
            if (k.measured()) {
                KernelMatrixRow.Figures m = k.figures();
                assertEquals((double) m.addedNs() / m.medianUnfilteredNs(), m.addedRatio(), 1e-9, k.toString());
                assertEquals(m.medianNs() - m.medianUnfilteredNs(), (long) m.addedNs(), k.toString());
            }
        }
        // the floor rows: a bare allow, an argument rule, a brokered openat (this kernel has ADDFD with SEND)
        List<KernelMatrixRow> floor = bySection.get(Section.FLOOR_COST);
        assertTrue(
                floor.get(0).what().contains("getppid")
                        && floor.get(1).what().contains("mprotect")
                        && floor.get(2).what().contains("openat · native broker"),
                floor.toString());
        floor.forEach(f -> assertEquals(RowStatus.OK, f.outcome(), f.toString()));
        // a measured row carries its floor-cost row's intervals; the added cost's brackets a shift over the runs
        floor.forEach(f -> assertTrue(
                f.intervals().added() != null
                        && f.intervals().added().lowNs()
                                <= f.intervals().added().highNs(),
                f.toString()));
        String table = Files.readString(out.resolve("table.md"));
        for (Feature f : Feature.values()) {
            assertTrue(table.contains("| " + f.label() + " |"), f.label() + " in\n" + table);
        }
        assertTrue(table.contains("## host (" + System.getProperty("os.version") + ")"), table);
        assertFalse(table.contains("emulated (TCG)"), "nothing emulated on the host");
        assertTrue(Files.size(out.resolve("plots/added-ratio-by-kernel.png")) > 10_000);
        assertTrue(Files.size(out.resolve("plots/added-ratio-broker-by-kernel.png")) > 10_000);
        assertFalse(Files.exists(out.resolve("samples.arrow")), "the matrix keeps medians, not samples");
        // summary.json is strict: what was written reads back as the same records
        assertEquals(rows, SummaryJson.read(out).rows(KernelMatrixRow.class));
        // a committed copy (no plots) redraws the same chart from summary.json alone
        Path copy = Files.createDirectory(tmp.resolve("copy"));
        for (String f : List.of("summary.json", "environment.json", "table.md")) {
            Files.copy(out.resolve(f), copy.resolve(f));
        }
        assertEquals(
                List.of("added-ratio-by-kernel.png", "added-ratio-broker-by-kernel.png"),
                List.copyOf(Plots.all(Results.load(copy)).keySet()));
        assertTrue(SummaryJson.environment(out).kernelRelease().equals(System.getProperty("os.version")));
        assertTrue(
                r.environmentJson().get("kernels").toString().equals("[\"host\"]"),
                r.environmentJson().toString());
    }

    @Test
    void badKernelNamesAreBadInputBeforeAnyFolder() {
        for (String bad : List.of("debian:4.9", "host,host", "", "host,,debian:6.1", "../../etc", "debian:6.1;rm")) {
            Path out = tmp.resolve("never-" + Math.abs(bad.hashCode()));
            BadInput e = assertThrows(
                    BadInput.class,
                    () -> ReproduceCommand.run(
                            List.of("kernel-matrix", "--kernels", bad, "--out", out.toString()),
                            System.out,
                            System.err),
                    bad);
            assertTrue(
                    e.getMessage().startsWith("--kernels") || e.getMessage().startsWith("option --kernels"),
                    e.getMessage());
            assertFalse(Files.exists(out), bad);
        }
        assertEquals(List.of("debian:6.12", "host"), KernelMatrix.parseKernels("debian:6.12, host"));
    }

    @Test
    void aResultsFolderOutsideTheCheckoutIsRefusedForAGuestWithTheReason() {
        GuestPart.Outcome g = GuestPart.run(
                options(List.of("debian:6.1")),
                "debian:6.1",
                tmp.resolve("elsewhere"),
                l -> {},
                tmp.resolve("checkout"),
                tmp.resolve("checkout/lab"),
                Duration.ofSeconds(5));
        assertEquals(1, g.rows().size());
        KernelMatrixRow row = g.rows().get(0);
        assertEquals("refused", row.status());
        assertTrue(row.reason().contains("shares only the checkout"), row.reason());
        assertTrue(row.kernel().emulated(), "a kernel not measured is never taken for a native one");
    }

    /** A stand-in for ./lab: a script that does {@code body} with $OUT the --out it was given. */
    private Path fakeLab(String body) throws Exception {
        Path lab = tmp.resolve("lab");
        Files.writeString(
                lab,
                "#!/bin/bash\nOUT=\"\"\nwhile [ $# -gt 0 ]; do [ \"$1\" = --out ] && OUT=\"$2\"; shift; done\n" + body
                        + "\n");
        Files.setPosixFilePermissions(lab, PosixFilePermissions.fromString("rwx------"));
        return lab;
    }

    private GuestPart.Outcome guest(Path lab, Duration deadline, List<String> progress) {
        return GuestPart.run(
                options(List.of("debian:6.1")),
                "debian:6.1",
                tmp.resolve("results/km"),
                progress::add,
                tmp,
                lab,
                deadline);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aGuestsFolderIsReadAsHostileInput() throws Exception {
        // a link planted at summary.json is not followed
        Files.writeString(tmp.resolve("secret"), "{\"not\": \"yours\"}");
        GuestPart.Outcome linked = guest(
                fakeLab("mkdir -p \"$OUT\"; ln -s " + tmp.resolve("secret") + " \"$OUT/summary.json\"; exit 0"),
                Duration.ofSeconds(20),
                new ArrayList<>());
        assertEquals("refused", linked.rows().get(0).status());
        assertTrue(
                linked.rows().get(0).reason().contains("no summary.json")
                        || linked.rows().get(0).reason().contains("link"),
                linked.rows().get(0).reason());
        // no folder at all, and a failing exit: said, with the last lines
        Files.delete(tmp.resolve("lab"));
        GuestPart.Outcome none = guest(
                fakeLab("echo 'vm: the kernel package could not be verified' >&2; exit 1"),
                Duration.ofSeconds(20),
                new ArrayList<>());
        assertTrue(
                none.rows().get(0).reason().contains("exited 1")
                        && none.rows().get(0).reason().contains("could not be verified"),
                none.rows().get(0).reason());
        assertEquals(1, none.settings().exitStatus());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aGuestPastItsDeadlineIsEndedAndRefused() throws Exception {
        Path pidFile = tmp.resolve("pid");
        List<String> progress = new ArrayList<>();
        GuestPart.Outcome g = guest(
                fakeLab("echo $$ > " + pidFile + "; echo booting; exec sleep 600"), Duration.ofSeconds(2), progress);
        assertEquals("refused", g.rows().get(0).status());
        assertTrue(
                g.rows().get(0).reason().contains("did not finish within 2 s")
                        && g.rows().get(0).reason().contains("booting"),
                g.rows().get(0).reason());
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        Optional<ProcessHandle> left = ProcessHandle.of(pid);
        assertTrue(left.isEmpty() || !left.get().isAlive(), "the stand-in was ended");
        assertTrue(progress.contains("[debian:6.1] booting"), progress.toString());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aGuestsRowsAreRenamedToItsKernelAndMarkedEmulated() throws Exception {
        Path made = tmp.resolve("made");
        ResultsFolder f = ResultsFolder.chosen(made);
        KernelMatrixRow row = new KernelMatrixRow(
                new KernelMatrixRow.Kernel("host", "6.1.0-50-amd64", false),
                Section.FLOOR_COST,
                "static floor, abcdf · getppid",
                RowStatus.OK,
                null,
                KernelMatrixRow.Prediction.NONE,
                null,
                new KernelMatrixRow.Figures(900L, 1000L, 100L, 100.0 / 900, false),
                RunCounts.of(3, 3, false),
                RowIntervals.NONE);
        f.writeSummary(ReproductionKind.of(KernelMatrixRow.class), Optional.empty(), List.of(row));
        f.writeEnvironment(
                "kernel-matrix",
                Optional.empty(),
                Map.of(
                        "hostname",
                        "guest",
                        "kernel_release",
                        "6.1.0-50-amd64",
                        "vm",
                        Map.of("kernel", "debian:6.1", "accelerator", "tcg", "emulated", true)));
        f.publish(); // written under a hidden temporary name until then
        GuestPart.Outcome g = guest(
                fakeLab("mkdir -p \"$OUT\"; cp " + made + "/*.json \"$OUT/\""),
                Duration.ofSeconds(20),
                new ArrayList<>());
        assertEquals(1, g.rows().size(), g.rows().toString());
        KernelMatrixRow got = g.rows().get(0);
        assertEquals(new KernelMatrixRow.Kernel("debian:6.1", "6.1.0-50-amd64", true), got.kernel());
        assertEquals(100L, got.figures().addedNs());
        assertEquals(row.withKernel(got.kernel()), got, "renamed and marked, nothing else changed");
        assertNotNull(g.settings().vm());
        assertEquals("tcg", g.settings().vm().get("accelerator").asText());
        assertEquals("kernels/debian-6.1", g.settings().folder());
        // a guest folder claiming another kernel's rows is refused, not relabelled
        Files.delete(tmp.resolve("lab"));
        deleteTree(tmp.resolve("results"));
        KernelMatrixRow other = row.withKernel(new KernelMatrixRow.Kernel("debian:5.10", "5.10.0-30-amd64", false));
        Path made2 = tmp.resolve("made2");
        ResultsFolder f2 = ResultsFolder.chosen(made2);
        f2.writeSummary(ReproductionKind.of(KernelMatrixRow.class), Optional.empty(), List.of(other));
        f2.writeEnvironment(
                "kernel-matrix", Optional.empty(), Map.of("hostname", "guest", "kernel_release", "6.1.0-50-amd64"));
        f2.publish();
        GuestPart.Outcome bad = guest(
                fakeLab("mkdir -p \"$OUT\"; cp " + made2 + "/*.json \"$OUT/\""),
                Duration.ofSeconds(20),
                new ArrayList<>());
        assertEquals("refused", bad.rows().get(0).status());
        assertTrue(
                bad.rows().get(0).reason().contains("debian:5.10"),
                bad.rows().get(0).reason());
    }

    /**
     * The kind makes table.md from what a run recorded alone (rows and settings: no file is read): a guest
     * refused is said once, numbered, and the floor rows' run count is the settings'.
     */
    @Test
    void theKindMakesItsTableFromTheRecordedRunAlone() {
        KernelMatrixRow feature = new KernelMatrixRow(
                new KernelMatrixRow.Kernel("host", "6.18.0", false),
                Section.FEATURE,
                "action cache",
                RowStatus.OK,
                null,
                new KernelMatrixRow.Prediction("5.11", "yes", "no", false),
                "observed by timing",
                KernelMatrixRow.Figures.NONE,
                RunCounts.NONE,
                RowIntervals.NONE);
        KernelMatrixRow guest = KernelMatrix.kernelRow("debian:6.1", "?", true, RowStatus.REFUSED, "no kernel image");
        KernelMatrix.Options o = new KernelMatrix.Options(
                List.of("host", "debian:6.1"),
                true,
                new heimdall.lab.bench.FloorBench.Counts(5, 1, 1, 1, 1),
                heimdall.lab.follower.FollowerCost.Options.quick(1),
                0,
                40);
        var run = new heimdall.lab.results.Recorded<>(
                List.of(feature, guest),
                KernelMatrixSettings.of(o, List.of()),
                heimdall.lab.sys.Host.capture(),
                java.time.Instant.EPOCH,
                java.time.Instant.EPOCH);
        String table = ReproductionKind.of(KernelMatrixRow.class, KernelMatrixSettings.class)
                .table(run);
        assertTrue(table.contains("| action cache | 5.11 | yes / **no** [1] | — |"), table);
        assertTrue(table.contains("| kernel | the kernel's part |  |  |  |  |  |  | refused [2] |"), table);
        assertTrue(table.contains("[2] debian:6.1: no kernel image"), table);
        assertTrue(table.contains("own CPU), 5 runs;"), table);
        assertEquals(
                "kernels or rows not measured (status in summary.json)",
                ReproductionKind.of(KernelMatrixRow.class).shortfall());
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
