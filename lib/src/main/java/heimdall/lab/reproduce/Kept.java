package heimdall.lab.reproduce;

import heimdall.lab.analysis.Distributions;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bench.ResultsFolder;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The one way a reproduction's run becomes a results folder: the framework, never the body, writes
 * {@code summary.json}, {@code environment.json} and {@code table.md} from what the run recorded, then the
 * compact distributions and the plots from what is in memory, and puts the folder in place. Used by
 * {@code ./lab reproduce}, by the bodies' own notebook entry points and by {@code ./lab explore check} alike.
 */
public final class Kept {
    private Kept() {}

    /**
     * Writes what {@code result} recorded into {@code folder}, adds {@code distributions.json} and (unless a
     * stop cut the run short) the plots, and publishes the folder; returns where it is. On a failure nothing
     * part-written is left.
     */
    public static Path keep(ResultsFolder folder, ReproductionResult result, Consumer<String> progress) {
        try {
            if (result.recorded() != null) {
                result.recorded().writeInto(folder);
            }
            // beside samples.arrow (kept out of git): the compact distributions a committed folder redraws from
            Distributions.writeBeside(folder, progress);
            if (result.interruption().isPresent()) {
                // the measurements are safe; the plots can follow
                progress.accept("plots skipped (" + result.interruption().get().said()
                        + "); draw them later with Plots.writeInto(dir, System.out::println)");
            } else {
                Plots.writeInto(folder, progress);
            }
            return folder.publish();
        } finally {
            folder.abandon(); // a failure above: nothing part-written is left (a no-op once published)
        }
    }
}
