package heimdall.lab.graph.prepared;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The data cache sizes of CPU 0 as the kernel reports them under
 * {@code /sys/devices/system/cpu/cpu0/cache/index*} ({@code level}, {@code type}, {@code size}).
 *
 * @param l1d level-1 data cache, bytes
 * @param l2 level-2 cache, bytes
 * @param source where the figures came from (the sysfs directory, or why they are assumed)
 */
public record CacheSizes(long l1d, long l2, String source) {
    static final Path SYSFS = Path.of("/sys/devices/system/cpu/cpu0/cache");

    /** Typical x86-64 sizes, used only when sysfs does not list the caches (a layout choice, not a decision). */
    public static final CacheSizes ASSUMED = new CacheSizes(32 << 10, 512 << 10, "assumed (sysfs lists no caches)");

    /** Reads sysfs; {@link #ASSUMED} sizes for any level it does not list. */
    public static CacheSizes read() {
        return read(SYSFS);
    }

    static CacheSizes read(Path dir) {
        long l1d = -1;
        long l2 = -1;
        for (int i = 0; i < 16; i++) {
            Path index = dir.resolve("index" + i);
            if (!Files.isDirectory(index)) {
                continue;
            }
            try {
                int level = Integer.parseInt(
                        Files.readString(index.resolve("level")).strip());
                String type = Files.readString(index.resolve("type")).strip();
                long size = parseSize(Files.readString(index.resolve("size")).strip());
                if (level == 1 && type.equals("Data")) {
                    l1d = size;
                } else if (level == 2 && !type.equals("Instruction")) {
                    l2 = size;
                }
            } catch (IOException | NumberFormatException e) {
                // An unreadable index is left out; the level falls back to the assumed size below.
            }
        }
        if (l1d <= 0 && l2 <= 0) {
            return ASSUMED;
        }
        return new CacheSizes(
                l1d > 0 ? l1d : ASSUMED.l1d(),
                l2 > 0 ? l2 : ASSUMED.l2(),
                dir + (l1d > 0 && l2 > 0 ? "" : " (a level missing, assumed)"));
    }

    /** {@code 48K}, {@code 1024K}, {@code 32M} or plain bytes. */
    static long parseSize(String s) {
        long unit = 1;
        char last = s.isEmpty() ? ' ' : Character.toUpperCase(s.charAt(s.length() - 1));
        if (last == 'K') {
            unit = 1 << 10;
        } else if (last == 'M') {
            unit = 1 << 20;
        } else if (last == 'G') {
            unit = 1 << 30;
        }
        return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "L1d %dK, L2 %dK", l1d >> 10, l2 >> 10);
    }
}
