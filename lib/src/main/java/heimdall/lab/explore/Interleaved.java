package heimdall.lab.explore;

import heimdall.lab.bench.Interruption;
import java.util.ArrayList;
import java.util.List;

/**
 * Several measurements taken run by run in turn, so that a drift of the machine (a neighbour's build,
 * a frequency change) falls on every one alike instead of on whichever ran last. Each run is a fresh
 * child, as {@link Measure#run()} makes it. The one A/B runner: {@link FloorCompare} and {@link AB}
 * both take their turns here.
 *
 * <p>Placements rotate turn by turn, two ways. The order: turn {@code t} starts with member
 * {@code t mod k} (A B, B A, A B, ... for two; A B none, B none A, none A B for three), so no member
 * always runs first, right after the JVM's own work, or last. The code placement: turn {@code t} is
 * each member's run {@code t}, so the runner's timed loop moves through its four placements as a
 * plain measurement's runs do ({@link heimdall.lab.child.ChildSpec#withPlacementForRun}). The child's
 * CPU is not alternated: every member runs on the CPU its builder names (by default the measuring
 * one), since two CPUs of a shared machine differ by more than most changes asked about.
 */
final class Interleaved {
    private Interleaved() {}

    /** The measurements of {@code one}, in the order given, after {@code runs} turns. */
    record Result(List<Measurement> measurements, boolean interrupted) {}

    /**
     * Runs every builder once a turn for {@code runs} turns. A stop (Ctrl-C, a notebook interrupt)
     * ends the turn in flight: the turns completed are kept and marked interrupted; with none
     * completed {@link Interruption.Stopped} is thrown. A child that fails ends it all with its
     * {@link heimdall.lab.Refusal}.
     *
     * @param one builders set to one run each, with the labels their measurements take
     */
    static Result run(List<Measure> one, List<String> labels, List<List<String>> floors, int runs) {
        List<List<long[]>> samples = new ArrayList<>();
        List<List<Integer>> placements = new ArrayList<>();
        int[] cpu = new int[one.size()];
        one.forEach(m -> {
            samples.add(new ArrayList<>());
            placements.add(new ArrayList<>());
        });
        boolean stopped = false;
        turns:
        for (int turn = 0; turn < runs; turn++) {
            Measurement[] got = new Measurement[one.size()];
            for (int k = 0; k < one.size(); k++) {
                int i = (turn + k) % one.size(); // the order rotates: no member always first
                Measurement r;
                try {
                    r = one.get(i).runUnrecorded(turn);
                } catch (Interruption.Stopped e) {
                    if (turn == 0) {
                        throw e;
                    }
                    stopped = true;
                    break turns; // this turn is incomplete: none of it counts
                }
                got[i] = r;
            }
            for (int i = 0; i < got.length; i++) {
                samples.get(i).add(got[i].runs().get(0));
                placements.get(i).add(got[i].placements().get(0));
                cpu[i] = got[i].cpu();
            }
        }
        List<Measurement> out = new ArrayList<>();
        for (int i = 0; i < one.size(); i++) {
            out.add(Measurement.of(
                    labels.get(i),
                    floors.get(i),
                    cpu[i],
                    placements.get(i),
                    samples.get(i),
                    runs,
                    samples.get(i).size() < runs));
        }
        // the bare member of the turns is the baseline of the others of the same call
        Measurement bare = null;
        for (int i = 0; i < one.size(); i++) {
            if (one.get(i).floors().isEmpty()) {
                bare = out.get(i);
                Session.current().record(bare, one.get(i).call(), List.of());
            }
        }
        for (int i = 0; i < one.size(); i++) {
            if (!one.get(i).floors().isEmpty()) {
                boolean sameCall = bare != null
                        && Session.current()
                                .origin(bare)
                                .call()
                                .equals(one.get(i).call());
                Session.current()
                        .record(out.get(i), one.get(i).call(), one.get(i).floors(), sameCall ? bare : null);
            }
        }
        return new Result(out, stopped);
    }
}
