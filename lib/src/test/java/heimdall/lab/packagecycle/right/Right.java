package heimdall.lab.packagecycle.right;

import heimdall.lab.packagecycle.left.Left;

/** The other half of the planted package cycle for {@link heimdall.lab.PackageCyclesTest}: right uses left. */
public final class Right {
    private Right() {}

    /** A value left reads. */
    public static int answer() {
        return 41;
    }

    /** A use of the other package, closing the cycle. */
    public static int back() {
        return Left.uses();
    }
}
