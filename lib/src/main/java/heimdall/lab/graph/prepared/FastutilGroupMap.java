package heimdall.lab.graph.prepared;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

/**
 * {@link GroupMap} over fastutil's {@code Long2IntOpenHashMap}: an off-the-shelf primitive map, so the
 * hash baseline is not only our own hand-written one ({@link LongIntMap}).
 */
final class FastutilGroupMap implements GroupMap {
    private final Long2IntOpenHashMap map;

    FastutilGroupMap(int expected) {
        map = new Long2IntOpenHashMap(expected);
        map.defaultReturnValue(-1);
    }

    @Override
    public void put(long key, int value) {
        map.put(key, value);
    }

    @Override
    public int get(long key) {
        return map.get(key);
    }
}
