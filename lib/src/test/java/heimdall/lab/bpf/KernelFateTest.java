package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import heimdall.lab.bpf.KernelFate.Kind;
import org.junit.jupiter.api.Test;

class KernelFateTest {
    @Test
    void returnValuesMapToWhatTheProcessSees() {
        assertEquals(new KernelFate(Kind.RUNS, 0), KernelFate.of(0x7fff0000));
        assertEquals(new KernelFate(Kind.RUNS, 0), KernelFate.of(0x7ffc0000));
        assertEquals(new KernelFate(Kind.ERRNO, 38), KernelFate.of(0x50026));
        assertEquals(new KernelFate(Kind.ERRNO, 4095), KernelFate.of(0x5ffff), "capped at MAX_ERRNO");
        assertEquals(new KernelFate(Kind.KILLED_BY_SIGSYS, 0), KernelFate.of(0x80000000));
        assertEquals(new KernelFate(Kind.KILLED_BY_SIGSYS, 0), KernelFate.of(0));
        assertEquals(new KernelFate(Kind.SIGSYS_TRAP, 0), KernelFate.of(0x30000));
        assertEquals(new KernelFate(Kind.ERRNO, 38), KernelFate.of(0x7fc00000), "NOTIFY without a listener");
        assertEquals(new KernelFate(Kind.NOTIFIED, 0), KernelFate.of(0x7fc00000, false, true));
        assertEquals(new KernelFate(Kind.ERRNO, 38), KernelFate.of(0x7ff00001), "TRACE without a tracer");
        assertEquals(new KernelFate(Kind.TRACED, 0), KernelFate.of(0x7ff00001, true, false));
    }
}
