package heimdall.lab.reproduce.kernelmatrix;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.KernelMatrixRow.Section;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * kernel-matrix's {@code table.md}: the features side by side per kernel (predicted / observed), then
 * per kernel its figures (emulated kernels' marked: ratios within this folder only) and kernel-bitmap's
 * expectations, and every refusal once, numbered.
 */
final class KernelMatrixTable {
    private KernelMatrixTable() {}

    /** The mark every emulated figure carries. */
    static final String EMULATED = "emulated (TCG): ratios within this folder only";

    /** What {@code table.md}'s bold first line says falls short after a stop. */
    static final String SHORTFALL = "kernels or rows not measured (status in summary.json)";

    /** The table of a run, from its rows and settings only (nothing is read). */
    static String of(Recorded<KernelMatrixRow, KernelMatrixSettings> run) {
        List<KernelMatrixRow> rows = run.rows();
        Map<String, String> releases = new LinkedHashMap<>();
        Map<String, Boolean> emulated = new LinkedHashMap<>();
        for (KernelMatrixRow r : rows) {
            releases.putIfAbsent(r.kernel().name(), r.kernel().release());
            emulated.merge(r.kernel().name(), r.kernel().emulated(), Boolean::logicalOr);
        }
        List<String> notes = new ArrayList<>();
        StringBuilder b = new StringBuilder("# kernel-matrix\n\nKernels: ");
        releases.forEach((k, rel) -> b.append(k)
                .append(" (")
                .append(rel)
                .append(emulated.get(k) ? ", " + EMULATED : "")
                .append(") "));
        b.append("\n\n## Features: predicted from the version / observed\n\n");
        List<String> head = new ArrayList<>(List.of("feature", "since"));
        head.addAll(releases.keySet());
        MarkdownTable features = new MarkdownTable(head);
        Set<String> names = new LinkedHashSet<>();
        rows.stream().filter(r -> r.section() == Section.FEATURE).forEach(r -> names.add(r.what()));
        for (String name : names) {
            List<String> cells = new ArrayList<>(List.of(name, ""));
            for (String k : releases.keySet()) {
                KernelMatrixRow r = find(rows, k, Section.FEATURE, name);
                if (r == null) {
                    cells.add("—");
                    continue;
                }
                KernelMatrixRow.Prediction p = r.prediction();
                cells.set(1, p.since());
                String obs = p.observed() == null ? "not observable" : p.observed();
                String cell = shortText(p.predicted()) + " / "
                        + (Boolean.FALSE.equals(p.agrees()) ? "**" + shortText(obs) + "**" : shortText(obs));
                cells.add(cell + " [" + note(notes, k + ": " + r.note()) + "]");
            }
            features.row(cells);
        }
        b.append(features.render())
                .append("\n**bold**: the observation differs from the prediction; the observation holds.\n");
        for (String k : releases.keySet()) {
            boolean emu = emulated.get(k);
            b.append("\n## ")
                    .append(k)
                    .append(" (")
                    .append(releases.get(k))
                    .append(")")
                    .append(emu ? ": " + EMULATED : "")
                    .append("\n\n");
            MarkdownTable figures = new MarkdownTable(List.of(
                    "section",
                    "row",
                    "unfiltered",
                    "with",
                    "added",
                    RowIntervals.heading("added"),
                    "added / unfiltered",
                    "noisy",
                    "status"));
            int n = 0;
            for (KernelMatrixRow r : rows) {
                if (!r.kernel().name().equals(k)
                        || r.section() == Section.FEATURE
                        || r.section() == Section.KERNEL_BITMAP) {
                    continue;
                }
                String status =
                        r.reason() == null ? r.status() : r.status() + " [" + note(notes, k + ": " + r.reason()) + "]";
                if (r.note() != null && r.section() != Section.KERNEL) {
                    status += " (" + r.note() + ")";
                }
                KernelMatrixRow.Figures f = r.figures();
                figures.row(List.of(
                        r.section().label(),
                        r.what(),
                        ns(f.medianUnfilteredNs(), emu),
                        ns(f.medianNs(), emu),
                        ns(f.addedNs(), emu),
                        r.intervals().equals(RowIntervals.NONE)
                                ? ""
                                : RowIntervals.cell(r.intervals().added()),
                        f.addedRatio() == null ? "" : String.format(Locale.ROOT, "%+.2f", f.addedRatio()),
                        Boolean.TRUE.equals(f.noisy()) ? "noisy" : "",
                        status));
                n++;
            }
            if (n > 0) {
                b.append(figures.render());
                if (emu) {
                    b.append("\nns figures in an emulated guest are the emulator's time, not the kernel's: compare "
                            + "only the ratios, "
                            + "and only within this folder.\n");
                }
            }
            MarkdownTable bitmap = new MarkdownTable(List.of("kernel-bitmap configuration", "expected here", "basis"));
            rows.stream()
                    .filter(r -> r.kernel().name().equals(k) && r.section() == Section.KERNEL_BITMAP)
                    .forEach(r -> bitmap.row(List.of(r.what(), r.prediction().predicted(), r.note())));
            if (rows.stream().anyMatch(r -> r.kernel().name().equals(k) && r.section() == Section.KERNEL_BITMAP)) {
                b.append("\n").append(bitmap.render());
            }
        }
        b.append("\nadded / unfiltered: the added median over the kernel's own unfiltered call (the "
                        + "follower's: over the call "
                        + "without the follower). floor-cost rows: floor-cost's rows 1 and 2 and the "
                        + "brokered openat (native supervisor, "
                        + "own CPU), ")
                .append(run.settings().floorCounts().runs())
                .append(" runs; follower-cost: its quick rows.\n");
        for (int i = 0; i < notes.size(); i++) {
            b.append("\n[")
                    .append(i + 1)
                    .append("] ")
                    .append(notes.get(i).replace("\n", "\n    "))
                    .append('\n');
        }
        return b.toString();
    }

    private static KernelMatrixRow find(List<KernelMatrixRow> rows, String kernel, Section section, String what) {
        return rows.stream()
                .filter(r -> r.kernel().name().equals(kernel)
                        && r.section() == section
                        && r.what().equals(what))
                .findFirst()
                .orElse(null);
    }

    /** A long value (the action list) shortened for a cell; the note keeps it whole. */
    private static String shortText(String s) {
        return s.length() > 24 ? s.split(" ").length + " actions" : s;
    }

    private static int note(List<String> notes, String text) {
        int k = notes.indexOf(text);
        if (k < 0) {
            notes.add(text);
            k = notes.size() - 1;
        }
        return k + 1;
    }

    private static String ns(Long v, boolean emulated) {
        return v == null ? "" : v + (emulated ? " (emulated)" : "");
    }
}
