package heimdall.lab.reproduce;

import heimdall.lab.results.ReproductionKind;
import java.util.List;

/**
 * The one registry of reproduction kinds: every reproduction is one package-private class here (its
 * name, row type, options and run, compare identity, published twin and plots) and one line below.
 * {@code ./lab reproduce}, its help and completion, {@code Results.load}, {@code compare} and the plots
 * all read this list; {@link ReproductionKind#all()} finds it through {@code META-INF/services}, since
 * the packages that read folders sit below this one.
 */
public final class ReproductionKinds implements ReproductionKind.Registry {
    /** Every kind in help's order: {@code ./lab reproduce}'s NAMEs, then those with commands of their own. */
    static final List<ReproductionKind<?, ?>> ALL = List.of(
            new FloorCostRun(),
            new KernelBitmapRun(),
            new AttachCostRun(),
            new HostLoadRun(),
            new FollowerCostRun(),
            new GraphLookupRun(),
            new LanesRun(),
            new KernelMatrixRun(),
            new GraphJmhKind(),
            new ExploreCheckKind());

    /** For {@link java.util.ServiceLoader}. */
    public ReproductionKinds() {}

    @Override
    public List<ReproductionKind<?, ?>> kinds() {
        return ALL;
    }
}
