package heimdall.lab.reproduce.kernelmatrix;

import heimdall.lab.Refusal;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.Fate;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.features.Feature;
import heimdall.lab.features.KernelVersion;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.landlock.LandlockAbi;
import heimdall.lab.landlock.LandlockPlan;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.KernelMatrixRow.Section;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.RunCounts;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * kernel-matrix's Landlock rows: what the mechanisms reproduction's ruleset ({@code Lab.landlock().readBeneath(in/)},
 * every file-system right of ABI 5 handled) becomes on the running kernel, strict and with best effort. Each is
 * predicted by {@link LandlockPlan} from the ABI the version predicts and from the ABI the kernel answers, and
 * observed in real children that build the ruleset themselves and open a file inside {@code in/} and one outside:
 * the strict ruleset must be refused by both (the plan and the child, which checks its kernel's ABI again) where the
 * ABI lacks a handled right, and confine where it does not; best effort drops those rights, each named in a warning,
 * and confines what is left (nothing at all without Landlock, said so). An observation against the plan fails the
 * row: a ruleset silently widened is the one outcome that must not pass.
 */
final class KernelMatrixLandlock {
    private KernelMatrixLandlock() {}

    static final String STRICT = "readBeneath(in/), strict: the mechanisms' ruleset (16 file-system rights, ABI 5)";
    static final String BEST_EFFORT = "readBeneath(in/), best effort: rights the ABI lacks dropped with a warning";

    /** EACCES: what Landlock answers an open it denies. */
    static final int EACCES = 13;

    /** What one child did with the ruleset: refused it itself, or opened (errno 0) or not. */
    record Seen(boolean refusedByChild, int insideErrno, int outsideErrno, String outcome) {
        String said() {
            if (refusedByChild) {
                return "the child refused the ruleset itself (" + outcome + ")";
            }
            return "inside in/: " + errno(insideErrno) + "; outside: " + errno(outsideErrno)
                    + (outsideErrno == EACCES ? " (confined)" : outsideErrno == 0 ? " (NOT confined)" : "");
        }

        private static String errno(int e) {
            return e == 0 ? "opened" : e == EACCES ? "EACCES" : "errno " + e;
        }
    }

    /** Both rows on the running kernel, named {@code on}. */
    static List<KernelMatrixRow> rows(KernelMatrixRow.Kernel on) {
        int abi = Landlock.kernelAbi();
        KernelVersion v = KernelVersion.running();
        int predictedAbi = LandlockAbi.predicted(v.major(), v.minor());
        List<KernelMatrixRow> rows = new ArrayList<>();
        try (Scratch job = Scratch.create("heimdall-lab-kernel-matrix-landlock-")) {
            Path in = job.newDirectory("in");
            Path out = job.newDirectory("out");
            Files.writeString(in.resolve("data.txt"), "in\n");
            Files.writeString(out.resolve("secret.txt"), "out\n");
            for (boolean bestEffort : new boolean[] {false, true}) {
                Landlock ll = Landlock.create().readBeneath(in);
                ll = bestEffort ? ll.withBestEffort() : ll;
                rows.add(judge(on, bestEffort ? BEST_EFFORT : STRICT, ll, abi, predictedAbi, see(ll, in)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("kernel-matrix: writing the Landlock rows' files", e);
        }
        return rows;
    }

    /** Two real children under {@code ll}: one opens {@code in/data.txt}, one {@code in/../out/secret.txt}. */
    static Seen see(Landlock ll, Path in) {
        ChildResult inside = MeasuredChild.run(
                ChildSpec.of(Call.openatFrom(in, "data.txt"), 0, 3).withLandlock(ll));
        ChildResult outside = MeasuredChild.run(
                ChildSpec.of(Call.openatFrom(in, "../out/secret.txt"), 0, 3).withLandlock(ll));
        for (ChildResult r : List.of(inside, outside)) {
            if (r.fate() instanceof Fate.Exited e && e.phase() == Phase.LANDLOCK) {
                return new Seen(true, -1, -1, r.outcome());
            }
            r.requireCompleted();
        }
        return new Seen(false, inside.lastErrno(), outside.lastErrno(), "completed");
    }

    /** The row: the plan on the predicted and on the answered ABI, against what the children did. */
    static KernelMatrixRow judge(
            KernelMatrixRow.Kernel on, String what, Landlock ll, int abi, int predictedAbi, Seen seen) {
        String predicted = planWords(ll, predictedAbi) + " (ABI " + predictedAbi + " predicted from the version)";
        LandlockPlan plan = null;
        String refusal = null;
        try {
            plan = ll.plan(abi);
        } catch (Refusal e) {
            refusal = e.getMessage();
        }
        String observed = seen.said();
        RowStatus status;
        String reason;
        if (refusal != null) {
            status = seen.refusedByChild() ? RowStatus.REFUSED : RowStatus.FAILED;
            reason = seen.refusedByChild()
                    ? refusal + "; the child refused it too"
                    : "the plan refuses the ruleset (" + refusal + ") but the child ran it: " + observed;
        } else if (seen.refusedByChild()) {
            status = RowStatus.FAILED;
            reason = "the plan takes the ruleset on ABI " + abi + " but the child refused it: " + seen.outcome();
        } else {
            boolean confined = seen.insideErrno() == 0 && seen.outsideErrno() == EACCES;
            boolean open = seen.insideErrno() == 0 && seen.outsideErrno() == 0;
            boolean asPlanned = plan.enforced() ? confined : open;
            status = asPlanned ? RowStatus.OK : RowStatus.FAILED;
            reason = asPlanned
                    ? null
                    : "the plan " + (plan.enforced() ? "enforces" : "leaves unconfined") + " but " + observed;
        }
        String note = "observed: " + observed + "; on ABI " + abi + ": "
                + (plan == null ? "refused" : planWords(ll, abi))
                + (plan == null || plan.warnings().isEmpty() ? "" : " — " + String.join("; ", plan.warnings()));
        String observedWord = seen.refusedByChild()
                ? "refused"
                : seen.outsideErrno() == EACCES ? "confined" : seen.outsideErrno() == 0 ? "unconfined" : observed;
        return new KernelMatrixRow(
                on,
                Section.LANDLOCK,
                what,
                status,
                reason,
                new KernelMatrixRow.Prediction(
                        Feature.LANDLOCK_ABI.since(), predicted, observedWord, agrees(ll, predictedAbi, observedWord)),
                note,
                KernelMatrixRow.Figures.NONE,
                RunCounts.NONE,
                RowIntervals.NONE);
    }

    /** {@code refused}, {@code confined}, {@code confined, 2 rights dropped} or {@code unconfined} on ABI {@code abi}. */
    static String planWords(Landlock ll, int abi) {
        try {
            LandlockPlan p = ll.plan(abi);
            if (!p.enforced()) {
                return "unconfined";
            }
            return p.dropped().isEmpty()
                    ? "confined"
                    : "confined, " + p.dropped().size() + " rights dropped";
        } catch (Refusal e) {
            return "refused";
        }
    }

    private static Boolean agrees(Landlock ll, int predictedAbi, String observed) {
        return planWords(ll, predictedAbi).startsWith(observed);
    }
}
