package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import java.util.Optional;

/**
 * How a reproduction's run ended, as the framework ({@link Stoppable}) decided it, once: the one value
 * {@link ReproduceCommand} prints and maps to an exit status. By then the results folder is as it
 * stays: written for {@link Complete}, {@link Partial} and a {@link Failed} that kept rows, cleared
 * (no folder, or the user's {@code --out} left empty) for {@link Nothing} and a {@link Failed} that
 * kept none.
 *
 * @param <T> what the body returned ({@link ReproductionResult} for {@code ./lab reproduce})
 */
public sealed interface RunOutcome<T> {
    /** Every run asked for was measured (rows may still have failed: {@code status: failed}). */
    record Complete<T>(T result) implements RunOutcome<T> {}

    /** A signal or a notebook interrupt stopped the run after something was measured: kept, marked interrupted. */
    record Partial<T>(T result, Interruption.Cause cause) implements RunOutcome<T> {}

    /** A stop came before anything worth keeping was measured: nothing was kept. */
    record Nothing<T>(Interruption.Cause cause) implements RunOutcome<T> {}

    /**
     * The run threw, or one of its runs did ({@link Interruption#stopOn}): {@code error} ends the command
     * with its message and status once what was measured ({@code kept}, written and marked interrupted
     * naming the failure) is shown.
     */
    record Failed<T>(RuntimeException error, Optional<T> kept) implements RunOutcome<T> {}
}
