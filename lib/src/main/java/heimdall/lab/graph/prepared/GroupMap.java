package heimdall.lab.graph.prepared;

/** The reference follower's map from a (position, syscall) key to a successor group, built once then read. */
interface GroupMap {
    void put(long key, int value);

    /** The value of {@code key}, or -1. */
    int get(long key);
}
