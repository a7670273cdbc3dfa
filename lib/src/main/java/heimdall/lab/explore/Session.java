package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measurements this JVM made through {@link Lab#measure} (and the sweeps and comparisons built on
 * it), each with the call and the floors it was made under, so that it can be saved as an ordinary
 * results folder ({@link #save()}, {@link Measurement#save(Path)}) that {@code ./lab compare} and
 * {@code Results.load} read.
 */
public final class Session {
    /**
     * What made a measurement: the call, the floors it ran under (oldest first), and the bare
     * measurement taken with it run by run (null: none was).
     */
    record Origin(Call call, List<Floor> floors, Measurement baseline) {}

    private static final Session CURRENT = new Session();

    private final Map<Measurement, Origin> origins = new IdentityHashMap<>();
    private final List<Measurement> order = new ArrayList<>();

    private Session() {}

    /** This JVM's session. */
    static Session current() {
        return CURRENT;
    }

    synchronized void record(Measurement m, Call call, List<Floor> floors) {
        record(m, call, floors, null);
    }

    synchronized void record(Measurement m, Call call, List<Floor> floors, Measurement baseline) {
        if (origins.put(m, new Origin(call, List.copyOf(floors), baseline)) == null) {
            order.add(m);
        }
    }

    synchronized Origin origin(Measurement m) {
        return origins.get(m);
    }

    /** Every measurement made so far, oldest first. */
    public synchronized List<Measurement> measurements() {
        return List.copyOf(order);
    }

    /** Forgets every measurement (their samples are released). */
    public synchronized void clear() {
        origins.clear();
        order.clear();
    }

    /**
     * The baseline of {@code m}: the bare measurement taken with it run by run ({@link Interleaved}), else
     * the session's latest bare measurement of the same call with as many runs asked, or null.
     */
    synchronized Measurement baselineOf(Measurement m) {
        Origin o = origins.get(m);
        if (o == null || o.floors().isEmpty()) {
            return null;
        }
        if (o.baseline() != null) {
            return o.baseline();
        }
        Measurement found = null;
        for (Measurement other : order) {
            Origin oo = origins.get(other);
            if (oo.floors().isEmpty() && oo.call().equals(o.call()) && other.runsAsked() == m.runsAsked()) {
                found = other;
            }
        }
        return found;
    }

    /** Saves every measurement under a floor, each with its bare baseline, into a new folder under results/. */
    public Path save() {
        return SessionFolder.write(null, rows(measurements()));
    }

    /** As {@link #save()}, into {@code dir} (absent, or an empty folder of ours). */
    public Path save(Path dir) {
        if (dir == null) {
            throw BadInput.at("save", "dir", "no folder given");
        }
        return SessionFolder.write(dir, rows(measurements()));
    }

    /** Saves {@code m} with its baseline (the session's bare measurement of the same call) into {@code dir}. */
    Path saveOne(Measurement m, Path dir) {
        if (dir == null) {
            throw BadInput.at("save", "dir", "no folder given");
        }
        return SessionFolder.write(dir, rows(List.of(m)));
    }

    /** One row a measurement under a floor, with its bare baseline (a bare measurement is a row's baseline only). */
    List<SessionFolder.Row> rows(List<Measurement> ms) {
        List<SessionFolder.Row> rows = new ArrayList<>();
        for (Measurement m : ms) {
            Origin o = origin(m);
            if (o == null) {
                throw BadInput.at(
                        "save",
                        "measurement",
                        "'" + m.label() + "' was not measured in this session "
                                + "(it was built by hand); only Lab.measure's measurements can be saved");
            }
            if (!o.floors().isEmpty()) {
                rows.add(new SessionFolder.Row(m, o, baselineOf(m)));
            }
        }
        if (rows.isEmpty()) {
            throw BadInput.at(
                    "save",
                    "measurements",
                    "nothing measured under a floor (a row of floor-cost's kind is "
                            + "a call under a floor, beside the same call with no filter)");
        }
        return rows;
    }

    @Override
    public synchronized String toString() {
        return "session: " + order.size() + " measurements";
    }
}
