package heimdall.lab.reproduce;

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

    /** A run whose options have been checked. */
    @FunctionalInterface
    interface Run {
        /** Measures and writes {@code folder}; progress lines go to {@code progress}. */
        ReproductionResult into(ResultsFolder folder, Consumer<String> progress);
    }
}
