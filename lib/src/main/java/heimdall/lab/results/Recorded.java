package heimdall.lab.results;

import heimdall.lab.sys.Host;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What one run of a reproduction measured, held in memory: everything its folder's {@code summary.json},
 * {@code environment.json} and {@code table.md} are written from. A reproduction's body returns it and
 * writes none of those files; the framework writes them, all three from this one copy, and prints the
 * table it wrote, so nothing is read back from disk.
 *
 * @param rows the {@code summary.json} rows, in their order
 * @param settings the reproduction's own settings, written as {@code environment.json}'s last properties: a
 *     record whose Jackson properties are named and ordered; everything the kind's table needs beyond the rows
 *     and the host is here
 * @param host the host as captured at the start (its facts are written into {@code environment.json}); null when
 *     {@code settings} holds the host's facts itself (follower-cost's environment does)
 * @param started when the run started (null with a null host)
 * @param finished when it finished measuring (null with a null host)
 * @param failures failures that are not a row's (a verification across rows), one line each
 * @param <R> the row type
 * @param <S> the settings type
 */
public record Recorded<R extends ResultRow, S>(
        List<R> rows, S settings, Host host, Instant started, Instant finished, List<String> failures) {
    public Recorded {
        rows = List.copyOf(rows);
        Objects.requireNonNull(settings, "settings");
        failures = List.copyOf(failures);
        if (host != null) {
            Objects.requireNonNull(started, "started");
            Objects.requireNonNull(finished, "finished");
        }
    }

    /** A run with no failures but its rows'. */
    public Recorded(List<R> rows, S settings, Host host, Instant started, Instant finished) {
        this(rows, settings, host, started, finished, List.of());
    }
}
