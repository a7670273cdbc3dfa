package heimdall.lab.child;

import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The kernel's current clocksource, and whether the vDSO reads it without a system call. The measured
 * child times every call with {@code clock_gettime(CLOCK_MONOTONIC)} from the vDSO; on a clocksource the
 * vDSO cannot read (hpet, acpi_pm, jiffies, a paravirtual clock the host does not mark stable) libc falls
 * back to the {@code clock_gettime} system call, so each sample would also hold two system calls of the
 * clock's own, a floor that does not allow {@code clock_gettime} would kill the child, and a follower on
 * the syscall-entry tracepoint would step the clock's calls too. Such a run is refused, with or without a
 * floor: no figure is timed with a clock that makes a system call.
 *
 * <p>The clocksources with a vDSO path are those whose kernel definition sets {@code vdso_clock_mode}
 * (Linux 5.6 and later; HPET lost its vDSO path in 5.6): x86 {@code tsc} and {@code tsc-early}
 * ({@code VDSO_CLOCKMODE_TSC}), {@code kvm-clock} and {@code xen} ({@code VDSO_CLOCKMODE_PVCLOCK}, set only
 * when the hypervisor marks the clock stable: not visible from user space, so taken as given),
 * {@code hyperv_clocksource_tsc_page} ({@code VDSO_CLOCKMODE_HVCLOCK}); arm64 {@code arch_sys_counter}
 * ({@code VDSO_CLOCKMODE_ARCHTIMER}); riscv {@code riscv_clocksource}. Any other name is refused.
 */
public record Clocksource(String name) {
    /** Where the kernel names its current clocksource. */
    public static final Path CURRENT = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    /** The clocksources the vDSO reads, by the names the kernel gives them. */
    public static final Set<String> VDSO = Set.of(
            "tsc",
            "tsc-early",
            "kvm-clock",
            "xen",
            "hyperv_clocksource_tsc_page",
            "arch_sys_counter",
            "riscv_clocksource");

    /** The current clocksource as the kernel names it now. */
    public static Clocksource current() {
        return read(CURRENT);
    }

    /**
     * The clocksource named in {@code file}.
     *
     * @throws Refusal the file cannot be read or is empty: the clock cannot be judged, so nothing is timed
     */
    static Clocksource read(Path file) {
        String name;
        try {
            name = Files.readString(file).strip();
        } catch (IOException e) {
            throw new Refusal("cannot tell the kernel's clocksource (" + file + ": " + e.getMessage()
                    + "): a measured child times its calls only with a clock the vDSO reads");
        }
        if (name.isEmpty() || name.length() > 64 || !name.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new Refusal("cannot tell the kernel's clocksource: " + file + " does not name one");
        }
        return new Clocksource(name);
    }

    /** Whether the vDSO reads this clocksource without a system call. */
    public boolean vdso() {
        return VDSO.contains(name);
    }

    /**
     * Refuses when this clocksource has no vDSO path.
     *
     * @throws Refusal naming the clocksource and what to do
     */
    public void requireVdso() {
        if (!vdso()) {
            throw new Refusal("the kernel's clocksource is " + name + " (" + CURRENT
                    + "): the vDSO has no path for it, so "
                    + "clock_gettime would be a system call in every timed call (and a floor that does not allow it "
                    + "kills the child); nothing is measured on it. Choose one of " + available()
                    + " that the vDSO reads "
                    + VDSO.stream().sorted().toList() + " (echo NAME > " + CURRENT + "), or boot with clocksource=tsc "
                    + "(a guest: tsc=reliable clocksource=tsc)");
        }
    }

    private static String available() {
        try {
            return "the available ones ("
                    + Files.readString(CURRENT.resolveSibling("available_clocksource"))
                            .strip() + ")";
        } catch (IOException e) {
            return "the available ones";
        }
    }
}
