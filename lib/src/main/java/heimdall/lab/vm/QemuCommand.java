package heimdall.lab.vm;

import heimdall.lab.Io;
import heimdall.lab.Refusal;
import heimdall.lab.sys.VmFacts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;

/**
 * The QEMU command line of one guest: no defaults, no network ({@code -nic none}), no display, the console on
 * QEMU's stdout, {@code -no-reboot} (a guest's reboot or panic ends QEMU), the kernel booted directly
 * ({@code -kernel}/{@code -initrd}, qboot's tiny firmware when installed), and three 9p shares: the host's root
 * read-only, the checkout and the run's share read-write, the last two with a mapped security model
 * ({@link Share}): nothing a guest does changes a host file's owner, mode or type. It starts under
 * {@code setpriv --pdeathsig KILL}, so the kernel ends QEMU when the thread that started it dies, even when our JVM
 * is killed with SIGKILL.
 */
final class QemuCommand {
    static final String QEMU = "qemu-system-x86_64";
    static final Path QBOOT = Path.of("/usr/share/qemu/qboot.rom");

    private QemuCommand() {}

    /**
     * The kernel command line: quiet, a panic ends the guest, the TSC as clock (the vDSO then needs no system
     * call), and no timer check: under TCG on a loaded host the emulated CPU can be too slow for the boot's check
     * that the IO-APIC routes the timer, and 6.1 then panics ("IO-APIC + timer doesn't work!", seen with the
     * host at load 25); {@code no_timer_check} is the option the kernel offers virtual machines for exactly that.
     */
    static String cmdline() {
        return "console=ttyS0 quiet loglevel=4 panic=-1 tsc=reliable clocksource=tsc no_timer_check"
                + " random.trust_cpu=on rdinit=/init "
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
        a.addAll(share(Path.of("/"), "hostroot", Share.HOST_ROOT));
        a.addAll(share(checkout, "checkout", Share.CHECKOUT));
        a.addAll(share(share, "vmshare", Share.RUN));
        return a;
    }

    /**
     * How a share lets the guest write. In a read-write share the guest's owners, modes, device numbers and link
     * targets are QEMU's records (a mapped security model), never the host's: a {@code chown}, {@code chmod +s},
     * {@code mknod} or {@code ln -s} in the guest makes an ordinary file or folder on the host, owned by QEMU's
     * user (root), with the mode below; the guest sees what it asked for.
     */
    enum Share {
        /** The host's root: read-only, seen as it is ({@code none}: nothing is written, nothing to record). */
        HOST_ROOT("security_model=none,readonly=on"),
        /**
         * The checkout: records in the files' extended attributes ({@code user.virtfs.*}), so a results folder
         * carries nothing beside its files. New files are 0644 and folders 0755 on the host, as under the usual
         * umask: readable by the host's later commands and by git, writable by root alone.
         */
        CHECKOUT("security_model=mapped-xattr,fmode=0644,dmode=0755"),
        /**
         * The run's share in our scratch folder: records in hidden files beside them ({@code .virtfs_metadata}),
         * which work on any file system (a tmpfs {@code /tmp} before Linux 6.6 keeps no user xattrs).
         */
        RUN("security_model=mapped-file,fmode=0600,dmode=0700");

        final String options;

        Share(String options) {
            this.options = options;
        }
    }

    /**
     * A 9p share: its {@code -fsdev} (a comma in the path doubled, as QEMU's option syntax wants) and its virtio
     * device. Not {@code -virtfs}, which drops {@code fmode} and {@code dmode} (QEMU 7.2: new files were 0600).
     */
    static List<String> share(Path path, String tag, Share kind) {
        return List.of(
                "-fsdev",
                "local,id=" + tag + ",path=" + path.toString().replace(",", ",,") + "," + kind.options
                        + ",multidevs=remap",
                "-device",
                "virtio-9p-pci,fsdev=" + tag + ",mount_tag=" + tag);
    }

    /** The extended attribute {@link #requireUserXattrs} sets and removes. */
    private static final String PROBE = "heimdall-lab.xattr-probe";

    /**
     * Refuses, naming the folder, when the checkout's file system keeps no user extended attributes: its share
     * ({@link Share#CHECKOUT}) records what the guest does to a file there, and without them every write of the
     * guest would fail. Probed on the checkout folder itself (an attribute set and removed), before QEMU starts.
     */
    static void requireUserXattrs(Path checkout) {
        UserDefinedFileAttributeView view =
                Files.getFileAttributeView(checkout, UserDefinedFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        try {
            if (view == null) {
                throw new IOException("no user extended attributes");
            }
            view.write(PROBE, ByteBuffer.wrap(new byte[] {1}));
            view.delete(PROBE);
        } catch (IOException e) {
            throw new Refusal("sharing the checkout " + checkout + " with the guest: its file system keeps no user "
                    + "extended attributes (" + Io.reason(e) + "), where QEMU records what the guest does to its "
                    + "files (owners, modes, links) instead of doing it to the host's; use a checkout on ext4, xfs or "
                    + "btrfs (or tmpfs on Linux 6.6 or later)");
        }
    }
}
