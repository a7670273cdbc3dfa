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
     */
    record Outcome<T>(Optional<T> result, Optional<Interruption.Cause> discarded) {}

    /**
     * Runs {@code body} with the stop flag open. An exception while a stop was requested is the stop
     * (the signal ended a child mid-run); any other exception leaves the folder as an early failure
     * does (removed when empty and ours) and is rethrown.
     */
    static <T> Outcome<T> run(String name, ResultsFolder folder, Consumer<String> progress, Body<T> body) throws InterruptedException {
        try (Interruption stop = Interruption.catchSignals()) {
            try {
                return new Outcome<>(Optional.of(body.run()), Optional.empty());
            } catch (RuntimeException | InterruptedException e) {
                if (!stop.requested()) {
                    folder.discardIfEmpty();
                    throw e;
                }
                Interruption.Cause c = stop.cause().orElseThrow();
                boolean gone = folder.discardWritten();
                progress.accept(name + ": " + c.said() + " before its rows were complete; it keeps no partial rows, so nothing was kept ("
                        + (gone ? "no results folder left" : folder.path() + " left empty") + ")");
                return new Outcome<>(Optional.empty(), Optional.of(c));
            }
        }
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
        progress.accept(name + ": " + interruption.get().said() + " before anything was measured; "
                + (gone ? "no results folder left" : folder.path() + " left empty"));
        return Optional.of(interruption.get().exitStatus());
    }
}
