package heimdall.lab.vm;

import heimdall.lab.Refusal;
import heimdall.lab.sys.VmFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The QEMU command line of one guest: no defaults, no network ({@code -nic none}), no display, the console on
 * QEMU's stdout, {@code -no-reboot} (a guest's reboot or panic ends QEMU), the kernel booted directly
 * ({@code -kernel}/{@code -initrd}, qboot's tiny firmware when installed), and three 9p shares: the host's root
 * read-only, the checkout and the run's share read-write. It starts under {@code setpriv --pdeathsig KILL}, so the
 * kernel ends QEMU when the thread that started it dies, even when our JVM is killed with SIGKILL.
 */
final class QemuCommand {
    static final String QEMU = "qemu-system-x86_64";
    static final Path QBOOT = Path.of("/usr/share/qemu/qboot.rom");

    private QemuCommand() {}

    /** The kernel command line: quiet, a panic ends the guest,
     * the TSC as clock (the vDSO then needs no system call). */
    static String cmdline() {
        return "console=ttyS0 quiet loglevel=4 panic=-1 tsc=reliable clocksource=tsc random.trust_cpu=on rdinit=/init "
                + VmFacts.CMDLINE_MARK;
    }

    /** Refuses, naming the package, when QEMU or setpriv is missing. */
    static void requireInstalled() {
        for (String[] tool : new String[][] {{QEMU, "qemu-system-x86"}, {"setpriv", "util-linux"}}) {
            if (!onPath(tool[0])) {
                throw new Refusal(
                        "starting the guest: " + tool[0] + " is not installed (apt-get install " + tool[1] + ")");
            }
        }
    }

    private static boolean onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }

    static List<String> argv(
            Accelerator accel, Path vmlinuz, Path initrd, int cpus, int memoryMib, Path checkout, Path share) {
        List<String> a = new ArrayList<>(List.of(
                "setpriv",
                "--pdeathsig",
                "KILL",
                "--",
                QEMU,
                "-nodefaults",
                "-no-user-config",
                "-display",
                "none",
                "-serial",
                "stdio",
                "-no-reboot",
                "-nic",
                "none"));
        if (Files.isRegularFile(QBOOT)) {
            a.addAll(List.of("-bios", QBOOT.toString()));
        }
        a.addAll(accel.qemuArgs());
        a.addAll(List.of("-smp", Integer.toString(cpus), "-m", memoryMib + "M"));
        a.addAll(List.of("-kernel", vmlinuz.toString(), "-initrd", initrd.toString(), "-append", cmdline()));
        a.addAll(List.of("-virtfs", share(Path.of("/"), "hostroot", true)));
        a.addAll(List.of("-virtfs", share(checkout, "checkout", false)));
        a.addAll(List.of("-virtfs", share(share, "vmshare", false)));
        return a;
    }

    /** A {@code -virtfs} value; a comma in the path is doubled, as QEMU's option syntax wants. */
    static String share(Path path, String tag, boolean readOnly) {
        return "local,path=" + path.toString().replace(",", ",,") + ",mount_tag=" + tag
                + ",security_model=none,multidevs=remap"
                + (readOnly ? ",readonly=on" : "");
    }
}
