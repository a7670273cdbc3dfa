package heimdall.lab.follower;

import heimdall.lab.graph.FixtureGraphs;

/**
 * A JVM that spawns a child held at its exec gate, attaches the follower for it, says "attached PID"
 * and waits to be killed. {@link LeftoverTest} kills it with SIGKILL.
 */
public final class FollowerHolder {
    private FollowerHolder() {}

    public static void main(String[] args) throws Exception {
        Hook hook = Hook.valueOf(args[0]);
        // A child held at its exec gate, followed: it must not outlive this JVM either.
        int[] gate = new int[1];
        int child =
                FollowerNative.hf_spawn("/bin/true", new com.sun.jna.StringArray(new String[] {"/bin/true"}), 0, gate);
        Follower f = Follower.attach(KernelTables.of(FixtureGraphs.abcdf()), child, hook);
        System.out.println("attached " + f.pid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
