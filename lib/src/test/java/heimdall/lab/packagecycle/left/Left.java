package heimdall.lab.packagecycle.left;

import heimdall.lab.packagecycle.right.Right;

/** One half of a planted package cycle for {@link heimdall.lab.PackageCyclesTest}: left uses right. */
public final class Left {
    private Left() {}

    /** A use of the other package, so the dependency is in the bytecode. */
    public static int uses() {
        return Right.answer() + 1;
    }
}
