package heimdall.lab.explore;

import heimdall.lab.bench.Interruption;
import java.util.ArrayList;
import java.util.List;

/**
 * Several measurements taken run by run in turn (A B C, A B C, ...), so that a drift of the machine
 * (a neighbour's build, a frequency change) falls on every one alike instead of on whichever ran last.
 * Each run is a fresh child, as {@link Measure#run()} makes it.
 */
final class Interleaved {
    private Interleaved() {}

    /** The measurements of {@code one}, each set to one run, after {@code runs} turns. */
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
            List<Measurement> got = new ArrayList<>();
            for (Measure m : one) {
                Measurement r;
                try {
                    r = m.runUnrecorded();
                } catch (Interruption.Stopped e) {
                    if (turn == 0) {
                        throw e;
                    }
                    stopped = true;
                    break turns; // this turn is incomplete: none of it counts
                }
                got.add(r);
            }
            for (int i = 0; i < got.size(); i++) {
                samples.get(i).add(got.get(i).runs().get(0));
                placements.get(i).add(got.get(i).placements().get(0));
                cpu[i] = got.get(i).cpu();
            }
        }
        List<Measurement> out = new ArrayList<>();
        for (int i = 0; i < one.size(); i++) {
            out.add(Measurement.of(labels.get(i), floors.get(i), cpu[i], placements.get(i), samples.get(i), runs,
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
                boolean sameCall = bare != null && Session.current().origin(bare).call().equals(one.get(i).call());
                Session.current().record(out.get(i), one.get(i).call(), one.get(i).floors(), sameCall ? bare : null);
            }
        }
        return new Result(out, stopped);
    }
}
