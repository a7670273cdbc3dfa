package heimdall.lab.landlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.NativeLib;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java rights are the C ones: every bit against {@code <linux/landlock.h>} where the installed header
 * defines it (Debian's may be older than the kernel), and every ABI's set against {@code hl_landlock.h}
 * as compiled into libheimdall.
 */
class LandlockConstantsTest {
    static final Path HEADER = Path.of("/usr/include/linux/landlock.h");
    private static final Pattern DEFINE =
            Pattern.compile("#define\\s+(LANDLOCK_(?:ACCESS_FS|ACCESS_NET|SCOPE)_\\w+)\\s+\\(1ULL\\s*<<\\s*(\\d+)\\)");

    @Test
    void everyRightTheInstalledHeaderDefinesHasOurBit() throws IOException {
        Map<String, Long> header = new HashMap<>();
        Matcher m = DEFINE.matcher(Files.readString(HEADER));
        while (m.find()) {
            header.put(m.group(1), 1L << Integer.parseInt(m.group(2)));
        }
        // the header building this project has at least the thirteen rights of ABI 1 and REFER (Debian 12's)
        assertTrue(header.size() >= 14, "rights read from " + HEADER + ": " + header.keySet());
        Map<String, LandlockRight> ours = new HashMap<>();
        for (LandlockRight r : LandlockRight.values()) {
            ours.put(r.cName(), r);
        }
        for (Map.Entry<String, Long> e : header.entrySet()) {
            LandlockRight r = ours.get(e.getKey());
            if (r == null) {
                continue; // a right of an ABI above the newest we know: never handled, so never asked for
            }
            assertEquals(e.getValue().longValue(), r.value(), e.getKey());
        }
    }

    @Test
    void everyAbisRightsAreTheSameInJavaAndInTheNativeLibrary() {
        assertEquals(LandlockRight.NEWEST_ABI, NativeLib.hl_landlock_known(0, 3));
        for (int abi = 0; abi <= LandlockRight.NEWEST_ABI + 1; abi++) {
            var known = LandlockRight.knownBy(abi);
            assertEquals(
                    NativeLib.hl_landlock_known(abi, 0), LandlockRight.mask(known, LandlockRight.Kind.FS), "fs " + abi);
            assertEquals(
                    NativeLib.hl_landlock_known(abi, 1),
                    LandlockRight.mask(known, LandlockRight.Kind.NET),
                    "net " + abi);
            assertEquals(
                    NativeLib.hl_landlock_known(abi, 2),
                    LandlockRight.mask(known, LandlockRight.Kind.SCOPE),
                    "scope " + abi);
        }
    }
}
