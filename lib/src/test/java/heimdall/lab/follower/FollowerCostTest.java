package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.reproduce.followercost.FollowerCostRun;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.RowStatus;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** follower-cost at a tiny size: every row measured or refused with a reason, and the folder written. */
class FollowerCostTest {
    @Test
    void everyRowIsMeasuredOrRefusedAndTheFolderIsWritten(@TempDir Path tmp) throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<String> lines = new ArrayList<>();
        FollowerCost.Result r = FollowerCostRun.run(
                new FollowerCost.Options(1, FollowerCost.Options.MIN_WARMUP, 5_000, Cpus.measuring()),
                ResultsFolder.chosen(tmp.resolve("out")),
                lines::add);
        assertEquals(12, r.summary().size(), "5 rows and a divergence row a hook, 2 hooks");
        for (FollowerCostRow row : r.summary()) {
            FollowerCostRow.Subject s = row.subject();
            if ("seccomp-fentry".equals(s.hook()) && row.outcome() == RowStatus.REFUSED) {
                assertTrue(row.reason().contains("not attachable"), row.toString());
                if (!row.isDivergence()) {
                    // t_hook on the same hook: the empty program alone is refused too, with the kernel's reason
                    FollowerCostRow.HookCost h = row.hookCost();
                    assertEquals("fentry/__secure_computing, returns 0", h.emptyProgram(), row.toString());
                    assertTrue(h.hookRefusal() != null && h.hookRefusal().contains("empty program"), row.toString());
                    assertEquals(null, h.hookNs(), row.toString());
                }
                assertEquals(FollowerCostRow.ProgramCost.NONE, row.emptyProgram(), "no statistics run: " + row);
                continue;
            }
            assertEquals(RowStatus.OK, row.outcome(), row.toString());
            if (row.isDivergence()) {
                // Single-threaded abcdf: nothing begins after the kill; the divergent call is the one completed.
                assertEquals(1L, row.divergence().callsCompletedFromDivergence(), row.toString());
                assertEquals(List.of(0L), row.divergence().callsBegunAfterKill(), row.toString());
                continue;
            }
            FollowerCostRow.Figures f = row.figures();
            assertTrue(f.medianWithNs() > 0 && f.medianWithoutNs() > 0, row.toString());
            assertNotNull(f.noisy(), row.toString());
            // its intervals, over the runs it completed: the median's and p99's with the hook, and the added cost's
            assertNotNull(row.intervals().median(), row.toString());
            assertEquals(row.runs().runsCompleted(), row.intervals().median().runs(), row.toString());
            assertTrue(
                    row.intervals().median().lowNs() <= f.medianWithNs()
                            && f.medianWithNs() <= row.intervals().median().highNs(),
                    row.toString());
            assertTrue(row.intervals().p99().lowNs() <= row.intervals().p99().highNs(), row.toString());
            assertNotNull(row.intervals().added(), row.toString());
            // The program's own cost as the kernel counts it, over the row's statistics run.
            FollowerCostRow.ProgramCost p = row.program();
            assertNotNull(p.runs(), row.toString());
            assertTrue(p.statsNote().startsWith("one run with BPF_ENABLE_STATS"), row.toString());
            if (s.measure() == FollowerCostRow.Measure.T_FOLLOW) {
                // The followed child's calls all ran the program (the timed ones and half the warm-up at least).
                assertTrue(p.runs() >= 5_000 + FollowerCost.Options.MIN_WARMUP / 2, row.toString());
                assertTrue(p.nsPerRun() > 0 && p.runTimeNs() > 0, row.toString());
            } else if (s.hook().equals("seccomp-fentry") && s.floor().equals("none")) {
                // No floor, no __secure_computing: the unrelated process never reaches design (b)'s program.
                assertTrue(p.runs() < 5_000, "the bystander's calls did not run the program: " + row);
            } else if (s.hook().equals("syscall-tracepoint")) {
                // Every task's calls run the tracepoint's program: the unrelated child's among them.
                assertTrue(p.runs() >= 5_000, row.toString());
            }
            // The empty program's count over its own statistics run, alone on the same hook: every call of the
            // measured child ran it (a floored child on fentry; every task on the tracepoint).
            FollowerCostRow.ProgramCost e = row.emptyProgram();
            assertTrue(
                    e.statsNote().startsWith("one run with BPF_ENABLE_STATS and the empty program alone"),
                    row.toString());
            if (!s.hook().equals("seccomp-fentry") || !s.floor().equals("none")) {
                assertTrue(e.runs() >= 5_000 + FollowerCost.Options.MIN_WARMUP, row.toString());
                assertTrue(e.nsPerRun() > 0 && e.runTimeNs() > 0, row.toString());
            }
            // t_hook: the empty program alone on the same hook, in the same runs; the follower's own work over it
            FollowerCostRow.HookCost h = row.hookCost();
            assertEquals(null, h.hookRefusal(), row.toString());
            assertTrue(h.medianHookNs() > 0, row.toString());
            assertEquals(h.medianHookNs() - f.medianWithoutNs(), h.hookNs(), row.toString());
            assertEquals(f.medianWithNs() - h.medianHookNs(), h.ownNs(), row.toString());
            assertEquals(f.addedNs(), h.hookNs() + h.ownNs(), "t_hook and own work add up to the added cost");
            assertNotNull(h.hookCi(), row.toString());
            assertNotNull(h.ownCi(), row.toString());
            assertTrue(h.ownCi().lowNs() <= h.ownCi().highNs(), row.toString());
            int i = r.summary().indexOf(row);
            // the own work split by step (t_follow rows): each partial step timed in the same runs, with its count
            FollowerCostRow.Steps st = row.steps();
            if (s.measure() == FollowerCostRow.Measure.T_FOLLOW) {
                long sum = 0;
                for (FollowStep step : FollowStep.PARTIAL) {
                    FollowerCostRow.Step p1 = st.inOrder().get(step.ordinal());
                    assertEquals(null, p1.refusal(), step + ": " + row);
                    assertTrue(p1.medianNs() > 0 && p1.ns() != null && p1.ci() != null, step + ": " + row);
                    assertEquals(1, p1.runMediansNs().size(), step + ": " + row);
                    assertTrue(
                            p1.program()
                                    .statsNote()
                                    .startsWith("one run with BPF_ENABLE_STATS and the follower " + "stopped after its "
                                            + step.part()),
                            step + ": " + row);
                    assertTrue(p1.program().runs() >= 5_000 && p1.program().timedMedianNs() > 0, step + ": " + row);
                    assertEquals(
                            5_000,
                            heimdall.lab.bench.SamplesFile.read(r.folder().resolve("samples.arrow"), i, step.variant())[
                                    0]
                                    .length);
                    sum += p1.ns();
                }
                assertEquals(null, st.cell().medianNs(), "the whole step's median is median_with_ns: " + row);
                assertEquals(h.ownNs(), sum + st.cell().ns(), "the parts add up to the own work: " + row);
                assertTrue(
                        row.program().timedMedianNs() > 0 && row.emptyProgram().timedMedianNs() > 0, row.toString());
            } else {
                assertEquals(FollowerCostRow.Steps.NONE, st, "t_idle rows have no split by step: " + row);
            }
            assertEquals(
                    5_000,
                    heimdall.lab.bench.SamplesFile.read(r.folder().resolve("samples.arrow"), i, FollowerCost.HOOK)[0]
                            .length);
            assertEquals(
                    1,
                    heimdall.lab.bench.SamplesFile.read(r.folder().resolve("samples.arrow"), i, FollowerCost.WITH)
                            .length);
            assertEquals(
                    5_000,
                    heimdall.lab.bench.SamplesFile.read(r.folder().resolve("samples.arrow"), i, FollowerCost.WITHOUT)[0]
                            .length);
        }
        for (String f : List.of("summary.json", "environment.json", "table.md", "samples.arrow")) {
            assertTrue(Files.size(r.folder().resolve(f)) > 0, f);
        }
        String table = Files.readString(r.folder().resolve("table.md"));
        assertTrue(table.contains("not measured") && table.contains("calls completed from the divergence"), table);
        assertTrue(table.contains("program ns/run") && table.contains("empty ns/run"), table);
        assertTrue(
                table.contains("by the kernel's count (a statistics run each)"),
                "each measured row's own work by the kernel's count: " + table);
        assertTrue(table.contains("t_hook (ns)") && table.contains("The follower against its hook"), table);
        assertTrue(
                table.contains("by part (the follower stopped after each, in the same runs): check ")
                        && table.contains("By part: the same follower program stopped after each part"),
                table);
        // The plots the framework drew: ECDFs of the measured hook, and the added cost per row.
        List<Path> plots;
        try (var files = Files.list(r.folder().resolve("plots"))) {
            plots = files.toList();
        }
        assertTrue(Files.isRegularFile(r.folder().resolve("distributions.json")), "the framework's distributions");
        assertTrue(
                plots.stream().anyMatch(p -> p.getFileName().toString().equals("ecdf-syscall-tracepoint.png")),
                plots.toString());
        assertTrue(plots.stream().anyMatch(p -> p.getFileName().toString().equals("added-cost.png")), plots.toString());
    }

    /** Folders written before the program_* fields load as they are (the fields absent, read as null). */
    @Test
    void aFolderFromBeforeTheProgramStatisticsStillLoads() {
        Path old = heimdall.lab.fixtures.Fixtures.home().resolve("results/2026-11-30-vm-follower-cost");
        List<FollowerCostRow> rows = heimdall.lab.analysis.Results.load(old).followerCost();
        assertEquals(12, rows.size());
        for (FollowerCostRow row : rows) {
            assertEquals(FollowerCostRow.ProgramCost.NONE, row.program(), row.toString());
            assertEquals(FollowerCostRow.HookCost.NONE, row.hookCost(), "no t_hook before issue 32: " + row);
            assertEquals(FollowerCostRow.ProgramCost.NONE, row.emptyProgram(), row.toString());
        }
        assertTrue(FollowerCost.table(rows).contains("program ns/run"), "the table still renders");
        // the kind makes the same table from a recorded run (rows and settings: no file read)
        var kind = heimdall.lab.results.ReproductionKind.of(FollowerCostRow.class, FollowerCostSettings.class);
        FollowerCostSettings settings = FollowerCostSettings.of(
                java.time.Instant.EPOCH,
                java.time.Instant.EPOCH,
                heimdall.lab.sys.Host.capture(),
                FollowerCost.Options.quick(1));
        assertEquals(
                FollowerCost.table(rows),
                kind.table(
                        FollowerCost.recorded(new FollowerCost.Measured(rows, settings, java.util.Optional.empty()))));
        assertEquals(FollowerCost.SHORTFALL, kind.shortfall());
    }
}
