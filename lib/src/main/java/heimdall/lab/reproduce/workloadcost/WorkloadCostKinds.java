package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.results.ReproductionKind;
import java.util.List;

/**
 * This package's kinds, found through {@code META-INF/services} beside {@code reproduce.ReproductionKinds}
 * (which cannot name them: this package uses the framework there, so the framework may not use it).
 */
public final class WorkloadCostKinds implements ReproductionKind.Registry {
    /** For {@link java.util.ServiceLoader}. */
    public WorkloadCostKinds() {}

    @Override
    public List<ReproductionKind<?, ?>> kinds() {
        return List.of(new WorkloadCostKind());
    }
}
