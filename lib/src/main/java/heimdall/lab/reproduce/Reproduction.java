package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Args;
import java.util.Set;
import java.util.function.Consumer;

/** One NAME of {@code ./lab reproduce}: its options and how it runs from them. */
interface Reproduction {
    String name();

    /** Its options, one per line, indented, for {@code --help} ({@code --quick} and {@code --out} are common). */
    String help();

    /** Options without a value, besides {@code --quick}. */
    Set<String> flags();

    /** Options with a value, besides {@code --out}. */
    Set<String> valued();

    /**
     * Reads and checks the options (a {@link heimdall.lab.BadInput} names the one that is wrong) and
     * returns the run they describe. Nothing is measured or written yet, so bad options leave no
     * results folder behind.
     */
    Run prepare(Args args);

    /**
     * Whether the run stops at Ctrl-C or SIGTERM and writes what it measured (its loop checks the
     * {@link Interruption}); a run that does not is left to the JVM's default (it ends, and no child
     * outlives it).
     */
    default boolean stopsOnSignal() {
        return false;
    }

    /** A run whose options have been checked. */
    @FunctionalInterface
    interface Run {
        /**
         * Measures and writes {@code folder}; progress lines go to {@code progress}. {@code stop} is
         * requested by a signal when {@link #stopsOnSignal()}.
         */
        ReproductionResult into(ResultsFolder folder, Consumer<String> progress, Interruption stop);
    }
}
