package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one way every reproduction stops (issues 12 and 13): the framework opens the process's
 * {@link Interruption} around the run, so Ctrl-C, SIGTERM, SIGHUP or a notebook interrupt
 * ({@link Interruption#requestStop}) ends the running child and raises the stop flag; the measuring
 * loop checks the flag between runs, rounds and batches. Every reproduction returns what it measured
 * marked interrupted ({@code summary.json} and each row's completed runs or batches); a body that
 * keeps nothing partial ({@code graph jmh}) throws {@link Interruption.Stopped} (or fails because its
 * child was ended), and then everything the run wrote is removed here: no folder, or the user's own
 * left empty. Either way the folder is never left part-written.
 *
 * <p>A run that throws part-way is a stop of its own ({@link Interruption#stopOn}, cause
 * {@link Interruption.Cause#failed}): the loop that caught it leaves off as on Ctrl-C, what was measured
 * is written marked interrupted and naming the failure, and then the exception goes on to the command
 * line ({@link #rethrowFailure}) for its message and exit status. Before anything was measured it goes
 * on at once, the folder cleared, as it always did.
 */
final class Stoppable {
    private Stoppable() {}

    /** A measurement's body. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws InterruptedException;
    }

    /**
     * What a stoppable run ended with.
     *
     * @param result what the body returned; absent when a stop left nothing to keep
     * @param discarded the cause when a stop left nothing (the folder has been cleared)
     * @param failure the exception of a run that stopped the measurement ({@link Interruption#stopOn}),
     *     for {@link #rethrowFailure} once what was kept is shown; present even when the runs were all
     *     complete by then (a failure after the last run), so that no error is lost
     */
    record Outcome<T>(Optional<T> result, Optional<Interruption.Cause> discarded, Optional<RuntimeException> failure) {}

    /**
     * Runs {@code body} with the stop flag open. An exception while a stop was requested is the stop
     * (the signal ended a child mid-run); any other exception leaves the folder as an early failure
     * does (removed when empty and ours) and is rethrown.
     */
    static <T> Outcome<T> run(String name, ResultsFolder folder, Consumer<String> progress, Body<T> body) throws InterruptedException {
        try (Interruption stop = Interruption.catchSignals()) {
            try {
                T result = body.run();
                return new Outcome<>(Optional.of(result), Optional.empty(), stop.cause().flatMap(Interruption.Cause::failure));
            } catch (RuntimeException | InterruptedException e) {
                Optional<RuntimeException> failed = stop.cause().flatMap(Interruption.Cause::failure);
                if (!stop.requested() || failed.isPresent()) {
                    // No stop, or a run's failure that could not be kept either: as an early failure.
                    folder.discardIfEmpty();
                    if (failed.isPresent() && failed.get() != e) {
                        failed.get().addSuppressed(e);
                        throw failed.get();
                    }
                    throw e;
                }
                Interruption.Cause c = stop.cause().orElseThrow();
                boolean gone = folder.discardWritten();
                progress.accept(name + ": " + c.said() + " before its rows were complete; it keeps no partial rows, so nothing was kept ("
                        + (gone ? "no results folder left" : folder.target() + " left empty") + ")");
                return new Outcome<>(Optional.empty(), Optional.of(c), Optional.empty());
            }
        }
    }

    /**
     * After the folder is written: a measurement stopped by a failed run ({@link Interruption#stopOn})
     * rethrows that run's exception, so that {@code ./lab} prints its message and exits with its status
     * (1, 2 or 3) as it would have had nothing been kept.
     */
    static void rethrowFailure(Outcome<?> outcome) {
        outcome.failure().ifPresent(e -> {
            throw e;
        });
    }

    /**
     * After a run that returned: when a stop came before anything was measured ({@code measured}
     * false), clears the folder (ours removed, the user's left empty and usable as {@code --out}
     * again), says so and gives the exit status; otherwise empty, and the caller writes on.
     */
    static Optional<Integer> nothingMeasured(String name, ResultsFolder folder, Optional<Interruption.Cause> interruption,
            boolean measured, Consumer<String> progress) {
        if (interruption.isEmpty() || measured) {
            return Optional.empty();
        }
        boolean gone = folder.discardWritten();
        // A run that failed before anything was measured ends as it always did: its exception.
        interruption.get().rethrowFailure();
        progress.accept(name + ": " + interruption.get().said() + " before anything was measured; "
                + (gone ? "no results folder left" : folder.target() + " left empty"));
        return Optional.of(interruption.get().exitStatus());
    }
}
