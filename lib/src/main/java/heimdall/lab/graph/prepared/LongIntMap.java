package heimdall.lab.graph.prepared;

import java.util.Arrays;

/** Open-addressing map from non-negative long keys to ints, built once then read; no boxing on get. */
final class LongIntMap implements GroupMap {
    private final long[] keys;
    private final int[] values;
    private final int mask;

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        mask = cap - 1;
        Arrays.fill(keys, -1);
    }

    private static int spread(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public void put(long key, int value) {
        int i = spread(key) & mask;
        while (keys[i] != -1 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
    }

    @Override
    public int get(long key) {
        int i = spread(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == -1) {
                return -1;
            }
            i = (i + 1) & mask;
        }
    }
}
