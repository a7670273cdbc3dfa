package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one way every reproduction stops (issues 12 and 13): the framework opens a {@link Session} around
 * the run and passes it to the body, so Ctrl-C, SIGTERM, SIGHUP or a notebook interrupt
 * ({@link Interruption#requestStop}) ends the running child and stops that session; the measuring
 * loop asks its session between runs, rounds and batches. Every reproduction returns what it measured
 * marked interrupted ({@code summary.json} and each row's completed runs or batches); a body that
 * keeps nothing partial ({@code graph jmh}, {@code explore check}) throws {@link Interruption.Stopped} (or fails
 * because its
 * child was ended), and then everything the run wrote is removed here: no folder, or the user's own
 * left empty. Either way the folder is never left part-written.
 *
 * <p>A run that throws part-way is a stop of its own ({@link Session#stopOn}, cause
 * {@link Interruption.Cause#failed}): the loop that caught it leaves off as on Ctrl-C, what was measured
 * is written marked interrupted and naming the failure, and then the exception goes on to the command
 * line ({@link RunOutcome.Failed}) for its message and exit status. Before anything was measured it goes
 * on at once, the folder cleared, as it always did. How a run ended is decided here, once, as a
 * {@link RunOutcome}.
 */
public final class Stoppable {
    private Stoppable() {}

    /** A measurement's body: it writes its session's folder and stops when its session asks. */
    @FunctionalInterface
    public interface Body<T> {
        T run(Session session) throws InterruptedException;
    }

    /**
     * Runs {@code body} in a session of its own and decides how it ended. A body that returns is
     * {@link RunOutcome.Complete} unless {@code stoppedBy} of its result names a stop: then
     * {@link RunOutcome.Partial} when {@code measured} holds (something was written), else
     * {@link RunOutcome.Nothing} with the folder cleared; a run's failure ({@link Session#stopOn})
     * makes it {@link RunOutcome.Failed}, keeping what was measured. An exception while a stop was
     * requested is the stop (the signal ended a child mid-run): nothing is kept. Any other exception
     * leaves the folder as an early failure does (removed when empty and ours): {@link RunOutcome.Failed}
     * with nothing kept.
     */
    public static <T> RunOutcome<T> run(
            String name,
            ResultsFolder folder,
            Consumer<String> progress,
            Body<T> body,
            Function<T, Optional<Interruption.Cause>> stoppedBy,
            Predicate<T> measured)
            throws InterruptedException {
        try (Session stop = Session.open(folder, progress)) {
            T result;
            try {
                result = body.run(stop);
            } catch (RuntimeException | InterruptedException e) {
                Optional<RuntimeException> failed = stop.stopCause().flatMap(Interruption.Cause::failure);
                if (!stop.stopRequested() || failed.isPresent()) {
                    // No stop, or a run's failure that could not be kept either: as an early failure.
                    folder.discardIfEmpty();
                    if (failed.isPresent() && failed.get() != e) {
                        failed.get().addSuppressed(e);
                        return new RunOutcome.Failed<>(failed.get(), Optional.empty());
                    }
                    if (e instanceof InterruptedException ie) {
                        throw ie;
                    }
                    return new RunOutcome.Failed<>((RuntimeException) e, Optional.empty());
                }
                Interruption.Cause c = stop.stopCause().orElseThrow();
                boolean gone = folder.discardWritten();
                progress.accept(name + ": " + c.said()
                        + " before its rows were complete; it keeps no partial rows, so nothing was kept ("
                        + (gone ? "no results folder left" : folder.target() + " left empty") + ")");
                return new RunOutcome.Nothing<>(c);
            }
            Optional<Interruption.Cause> stopped = stoppedBy.apply(result);
            if (stopped.isPresent() && !measured.test(result)) {
                boolean gone = folder.discardWritten();
                // A run that failed before anything was measured ends as it always did: its exception.
                if (stopped.get().failure().isPresent()) {
                    return new RunOutcome.Failed<>(stopped.get().failure().get(), Optional.empty());
                }
                progress.accept(name + ": " + stopped.get().said() + " before anything was measured; "
                        + (gone ? "no results folder left" : folder.target() + " left empty"));
                return new RunOutcome.Nothing<>(stopped.get());
            }
            // present even when the runs were all complete by then (a failure after the last run): no error is lost
            Optional<RuntimeException> failure = stop.stopCause().flatMap(Interruption.Cause::failure);
            if (failure.isPresent()) {
                return new RunOutcome.Failed<>(failure.get(), Optional.of(result));
            }
            return stopped.<RunOutcome<T>>map(c -> new RunOutcome.Partial<>(result, c))
                    .orElseGet(() -> new RunOutcome.Complete<>(result));
        }
    }
}
