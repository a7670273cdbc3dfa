package heimdall.lab.reproduce.floorcost;

import heimdall.lab.results.FloorCostRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * floor-cost's cross-row figures: a row's own measurements say what it costs, but whether a Java
 * supervisor, a placement or a wake-up pays off, and how far a round trip is from the host's floor,
 * are ratios between rows of one run, computed once every row is measured ({@link FloorCost}) and
 * recorded with the rows ({@code FloorCostRow.Ratios}), which the table then prints.
 */
final class FloorCostRatios {
    private FloorCostRatios() {}

    /**
     * The cross-row figures of one row, null where they do not apply or lack a figure (see
     * {@link #addRatios} and {@link #addFloorRatios}).
     */
    private static final class Ratios {
        Double javaOverNative;
        Double vsDefaultPlacement;
        Double vsBestFloor;
        Double vsBestCallFloor;
        Long floorNs;
        Double roundTripVsFloor;
        Long bestFloorNs;
        Double roundTripVsBestFloor;
        Long callFloorNs;
        Double roundTripVsCallFloor;
        Long bestCallFloorNs;
        Double roundTripVsBestCallFloor;
        NotifyLoopFloor.Against loop = NotifyLoopFloor.Against.NONE;

        /** {@code r} with these figures as its ratios (and the loop's own figures it was measured with). */
        FloorCostRow on(FloorCostRow r) {
            return r.withRatios(new FloorCostRow.Ratios(
                    javaOverNative,
                    vsDefaultPlacement,
                    vsBestFloor,
                    vsBestCallFloor,
                    floorNs,
                    roundTripVsFloor,
                    bestFloorNs,
                    roundTripVsBestFloor,
                    callFloorNs,
                    roundTripVsCallFloor,
                    bestCallFloorNs,
                    roundTripVsBestCallFloor,
                    r.ratios().loopWallNs(),
                    r.ratios().loopMeanNs(),
                    loop.floorNs(),
                    loop.vsFloor()));
        }
    }

    /**
     * Ratios across rows: each Java supervisor row against its native twin, and each faster round
     * trip against the default placement (own CPU, no synchronous wake-up) of the same supervisor,
     * answer and floor; then {@link #addFloorRatios}'s. Returns the rows with them.
     */
    static List<FloorCostRow> addRatios(List<FloorCostRow> summary) {
        List<Ratios> ratios = new ArrayList<>();
        for (FloorCostRow r : summary) {
            Ratios x = new Ratios();
            ratios.add(x);
            if (r.supervisor() == null || r.medianNs() == null || r.paired()) {
                continue; // the paired rounds have their own figure: a ratio per round (PairedRoundTrips)
            }
            long median = r.medianNs();
            if (r.supervisor().equals("java")) {
                twin(summary, r, "native", r.placement(), r.syncWakeup())
                        .ifPresent(n -> x.javaOverNative = ratio(median, n));
            }
            boolean fast = !FloorCost.OWN_CPU.equals(r.placement()) || Boolean.TRUE.equals(r.syncWakeup());
            if (fast) {
                twin(summary, r, r.supervisor(), FloorCost.OWN_CPU, false)
                        .ifPresent(d -> x.vsDefaultPlacement = ratio(median, d));
            }
        }
        floorRatios(summary, ratios);
        List<FloorCostRow> out = new ArrayList<>();
        for (int i = 0; i < summary.size(); i++) {
            out.add(ratios.get(i).on(summary.get(i)));
        }
        return out;
    }

    /**
     * Each brokered row's round trip (its {@code added_ns}: the brokered call minus the same call
     * unbrokered) against the host's floor: the ping-pong reference in the same placement
     * ({@code round_trip_vs_floor}, like for like) and the best reference of any placement
     * ({@code round_trip_vs_best_floor}); each reference against the best one ({@code vs_best_floor}).
     * Then the same against the ping-pong-then-openat references, whose floor is their own
     * {@code added_ns} (the ping-pong and openat less the openat alone, the method of a brokered row's
     * {@code added}): {@code call_floor_ns}, {@code round_trip_vs_call_floor},
     * {@code round_trip_vs_best_call_floor}, and {@code vs_best_call_floor} on those references.
     * Returns the rows with them (and without {@link #addRatios}'s others).
     */
    static List<FloorCostRow> addFloorRatios(List<FloorCostRow> summary) {
        List<Ratios> ratios = summary.stream().map(r -> new Ratios()).toList();
        floorRatios(summary, ratios);
        List<FloorCostRow> out = new ArrayList<>();
        for (int i = 0; i < summary.size(); i++) {
            out.add(ratios.get(i).on(summary.get(i)));
        }
        return out;
    }

    /** {@link #addFloorRatios}' figures, into {@code ratios} (one per row of {@code summary}). */
    private static void floorRatios(List<FloorCostRow> summary, List<Ratios> ratios) {
        Map<String, Long> floor = floors(summary, true);
        Map<String, Long> callFloor = floors(summary, false);
        Long best = floor.values().stream().min(Long::compare).orElse(null);
        Long bestCall = callFloor.values().stream().min(Long::compare).orElse(null);
        List<NotifyLoopFloor.Against> loops = NotifyLoopFloor.against(summary);
        for (int i = 0; i < summary.size(); i++) {
            FloorCostRow r = summary.get(i);
            Ratios x = ratios.get(i);
            x.loop = loops.get(i);
            if (NotifyLoopFloor.isLoop(r) || r.paired()) {
                continue; // the loop is its own floor: against it, the brokered rows (Against)
            }
            if (r.isReference()) {
                boolean pure = FloorCost.PURE.equals(r.reference());
                Long f = pure ? r.medianNs() : r.addedNs();
                Long b = pure ? best : bestCall;
                if (f != null && b != null && b > 0) {
                    if (pure) {
                        x.vsBestFloor = ratio(f, b);
                    } else {
                        x.vsBestCallFloor = ratio(f, b);
                    }
                }
                continue;
            }
            if (r.supervisor() == null || r.addedNs() == null) {
                continue;
            }
            long added = r.addedNs();
            Long same = floor.get(r.placement());
            if (same != null) {
                x.floorNs = same;
                x.roundTripVsFloor = ratio(added, same);
            }
            if (best != null) {
                x.bestFloorNs = best;
                x.roundTripVsBestFloor = ratio(added, best);
            }
            if (!"openat".equals(r.call())) {
                continue; // the call floor is an openat's
            }
            Long sameCall = callFloor.get(r.placement());
            if (sameCall != null && sameCall > 0) {
                x.callFloorNs = sameCall;
                x.roundTripVsCallFloor = ratio(added, sameCall);
            }
            if (bestCall != null && bestCall > 0) {
                x.bestCallFloorNs = bestCall;
                x.roundTripVsBestCallFloor = ratio(added, bestCall);
            }
        }
    }

    /** Per placement, the bare ping-pong's median ({@code pure}) or the ping-pong-then-openat's added cost. */
    private static Map<String, Long> floors(List<FloorCostRow> summary, boolean pure) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (FloorCostRow r : summary) {
            Long m = pure ? r.medianNs() : r.addedNs();
            if (r.isReference()
                    && !NotifyLoopFloor.isLoop(r)
                    && FloorCost.PURE.equals(r.reference()) == pure
                    && m != null) {
                out.putIfAbsent(r.placement(), m);
            }
        }
        return out;
    }

    private static Optional<Long> twin(
            List<FloorCostRow> summary, FloorCostRow r, String supervisor, String placement, Boolean sync) {
        return summary.stream()
                .filter(t -> t != r
                        && Objects.equals(t.what(), r.what())
                        && Objects.equals(t.answer(), r.answer())
                        && Objects.equals(t.supervisor(), supervisor)
                        && Objects.equals(t.placement(), placement)
                        && Objects.equals(t.syncWakeup(), sync)
                        && t.medianNs() != null)
                .map(FloorCostRow::medianNs)
                .findFirst();
    }

    private static double ratio(long a, long b) {
        return Math.round(1000.0 * a / b) / 1000.0;
    }
}
