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

    /** Measures and writes {@code folder}; progress lines go to {@code progress}. */
    ReproductionResult run(Args args, ResultsFolder folder, Consumer<String> progress);
}
