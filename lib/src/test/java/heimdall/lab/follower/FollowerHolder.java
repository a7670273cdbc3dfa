package heimdall.lab.follower;

import heimdall.lab.graph.FixtureGraphs;

/**
 * A JVM that attaches the follower (for itself: armed only by an exec it never makes), says
 * "attached" and waits to be killed. {@link LeftoverTest} kills it with SIGKILL.
 */
public final class FollowerHolder {
    private FollowerHolder() {}

    public static void main(String[] args) throws Exception {
        Hook hook = Hook.valueOf(args[0]);
        Follower f = Follower.attach(KernelTables.of(FixtureGraphs.abcdf()), (int) ProcessHandle.current().pid(), hook);
        System.out.println("attached " + f.pid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
