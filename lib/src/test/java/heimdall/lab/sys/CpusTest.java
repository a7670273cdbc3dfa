package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpusTest {
    @Test
    void parsesKernelCpuLists() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), Cpus.parseList("0-3,8,10-11"));
        assertEquals(List.of(5), Cpus.parseList("5\n"));
    }

    @Test
    void allowedMatchesTheThreadMaskAndThePinsComeFromIt() {
        List<Integer> allowed = Cpus.allowed();
        long[] mask = new long[16];
        assertEquals(allowed.size(), NativeLib.hl_allowed_cpus(mask, mask.length));
        for (int c : allowed) {
            assertTrue((mask[c / 64] >>> (c % 64) & 1) != 0, "CPU " + c);
        }
        assertEquals(allowed.get(allowed.size() - 1), Cpus.measuring());
        assertTrue(allowed.contains(Cpus.supervisor()));
        if (allowed.size() > 1) {
            assertNotEquals(Cpus.measuring(), Cpus.supervisor());
        }
        if (allowed.equals(List.of(0, 1))) {
            assertEquals(1, Cpus.measuring());
            assertEquals(0, Cpus.supervisor());
        }
    }

    @Test
    void pinningAThreadMovesItThereAndLeavesTheProcessSetAlone() throws Exception {
        List<Integer> allowed = Cpus.allowed();
        int target = allowed.get(0);
        int[] seen = new int[2];
        Thread t = new Thread(() -> {
            seen[0] = Cpus.pinCurrentThread(target);
            seen[1] = Cpus.current();
        });
        t.start();
        t.join();
        assertEquals(target, seen[0]);
        assertEquals(target, seen[1]);
        assertEquals(allowed, Cpus.allowed());
    }

    @Test
    void anOverrideOutsideTheAllowedSetIsBadInput() {
        System.setProperty("heimdall.lab.cpu", "4095");
        try {
            assertThrows(BadInput.class, Cpus::measuring);
        } finally {
            System.clearProperty("heimdall.lab.cpu");
        }
    }
}
