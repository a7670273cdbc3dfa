package heimdall.lab.vm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.List;

/**
 * How QEMU runs the guest's code: KVM (the host's CPU, native speed) or TCG (emulated, figures comparable only
 * within one folder). Never assumed: KVM is tried only when {@code /dev/kvm} opens, and kept only when the guest
 * boots under it by a deadline ({@link GuestRun}); otherwise TCG, said on stderr and recorded.
 */
public enum Accelerator {
    KVM("kvm", List.of("-accel", "kvm")),
    // QEMU's plain qemu64 CPU, with RDRAND so the guest kernel's random pool is ready at once. Not "max": that
    // offers AVX and AVX2, whose emulation is new in Debian 12's QEMU 7.2, and the guest JVM's JIT would use them.
    // One TCG thread for all vCPUs (thread=single), not one per vCPU: under multi-threaded TCG the guest JVM
    // crashed with SIGSEGV (SEGV_MAPERR at wild addresses, in JIT-compiled and interpreted Arrow reads) in 2
    // of 2 quick follower-cost runs on Debian's 6.1, right after the rows; with thread=single, none. The guest
    // keeps its 2 vCPUs (the placements need them), run in turn, so it takes about 1.3x as long.
    TCG("tcg", List.of("-accel", "tcg,thread=single", "-cpu", "qemu64,+rdrand"));

    private final String label;
    private final List<String> qemuArgs;

    Accelerator(String label, List<String> qemuArgs) {
        this.label = label;
        this.qemuArgs = qemuArgs;
    }

    /** {@code kvm} or {@code tcg}, as {@code environment.json} and {@code --accel} say it. */
    public String label() {
        return label;
    }

    /** QEMU's arguments for it. */
    List<String> qemuArgs() {
        return qemuArgs;
    }

    /** Whether the guest's instructions are emulated. */
    public boolean emulated() {
        return this == TCG;
    }

    /** Why KVM cannot even be tried, or null when {@code /dev/kvm} opens for reading and writing. */
    static String kvmUnavailable() {
        try (RandomAccessFile f = new RandomAccessFile("/dev/kvm", "rw")) {
            return null;
        } catch (IOException e) {
            return "/dev/kvm does not open (" + e.getMessage() + ")";
        }
    }
}
