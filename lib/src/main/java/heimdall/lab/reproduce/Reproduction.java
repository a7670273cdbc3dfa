package heimdall.lab.reproduce;

import heimdall.lab.bench.Session;
import heimdall.lab.command.Args;
import java.util.List;

/**
 * One NAME of {@code ./lab reproduce}: its options, declared as data, and how it runs from them. The
 * framework ({@link ReproduceCommand}) parses the options, prints their help, opens the results folder,
 * stops every run the same way ({@link Stoppable}) and prints what was written; a reproduction only
 * measures and writes its rows.
 */
public interface Reproduction {
    String name();

    /**
     * Its options besides {@code --quick} and {@code --out}, which every reproduction has: parsing,
     * {@code --help} and completion are all made from this list.
     */
    List<ReproductionOption> options();

    /** What {@code --help} says after the options (what is measured, what else is read); empty for nothing. */
    default String notes() {
        return "";
    }

    /** The positional arguments it takes after NAME, for help (e.g. {@code [NODES EDGES]}); empty for none. */
    default String positionals() {
        return "";
    }

    /** The most positional arguments it takes after NAME. */
    default int maxPositionals() {
        return 0;
    }

    /** Its option called {@code name} (a reproduction reads its values through its own declarations). */
    default ReproductionOption option(String name) {
        return options().stream()
                .filter(o -> o.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(name() + " declares no option " + name));
    }

    /**
     * Reads and checks the options (a {@link heimdall.lab.BadInput} names the one that is wrong) and
     * returns the run they describe; {@code args.positionals()} are those after NAME. Nothing is measured
     * or written yet, so bad options leave no results folder behind.
     */
    Run prepare(Args args);

    /** A run whose options have been checked. */
    @FunctionalInterface
    interface Run {
        /**
         * Measures and writes the session's folder, its progress lines to the session, leaving off when
         * the session asks ({@link Session#stopRequested}). The framework opened the session and alone
         * clears the folder when the run keeps nothing.
         */
        ReproductionResult into(Session session) throws InterruptedException;
    }
}
