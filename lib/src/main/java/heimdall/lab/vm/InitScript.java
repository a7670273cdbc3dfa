package heimdall.lab.vm;

import heimdall.lab.sys.VmFacts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The guest's {@code /init}, a busybox {@code sh} script written for one run: it says it booted (the first thing,
 * so the host can tell a kernel that boots from one that hangs), loads the guest kernel's own virtio and 9p modules
 * in dependency order, mounts the host's root read-only and the checkout and the run's share read-write (9p over
 * virtio), chroots into the host's root and runs the command in the same working folder with its output into the
 * share, writes its exit status there and powers off. A line {@code heimdall-vm-stop TERM} (or {@code INT}) the
 * host writes to the console is passed to the command as that signal, so it can end as it would on the host.
 *
 * <p>Markers on the console ({@code heimdall-vm: booted}, {@code running}, {@code failed: STEP}, {@code exit N}) are
 * what {@link GuestRun} waits for.
 */
final class InitScript {
    static final String BOOTED = "heimdall-vm: booted";
    static final String RUNNING = "heimdall-vm: running";
    static final String FAILED = "heimdall-vm: failed: ";
    static final String EXIT = "heimdall-vm: exit ";
    /** The console line (host to guest) that passes a signal to the command: {@code heimdall-vm-stop TERM}. */
    static final String STOP = "heimdall-vm-stop";
    /** Where the share is mounted in the guest (under the guest's own tmpfs {@code /run}). */
    static final String SHARE = VmFacts.SHARE;

    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private InitScript() {}

    /**
     * The script.
     *
     * @param modules the module names, loaded in this order from {@code /lib/modules/NAME.ko}
     * @param checkout the project checkout, mounted read-write at the same path
     * @param cwd the working folder of the command (the host's)
     * @param argv the command
     * @param env the environment of the command beyond PATH, HOME, LANG (names checked by the caller)
     * @param hostname the guest's host name
     */
    static String text(
            List<String> modules,
            Path checkout,
            Path cwd,
            List<String> argv,
            Map<String, String> env,
            String hostname) {
        String nine = "trans=virtio,version=9p2000.L,msize=512000";
        StringBuilder s = new StringBuilder();
        s.append("#!/bin/busybox sh\n");
        s.append("# /init of a ./lab vm guest (heimdall.lab.vm.InitScript), written for one run\n");
        s.append("B=/bin/busybox\n");
        s.append("$B echo ").append(q(BOOTED)).append('\n');
        s.append("fail() { $B echo \"").append(FAILED).append("$*\"; $B poweroff -f; $B sleep 60; }\n");
        s.append("$B mkdir -p /proc /sys /dev /newroot\n");
        s.append("$B mount -t proc proc /proc || fail 'mounting /proc'\n");
        s.append("$B mount -t sysfs sysfs /sys || fail 'mounting /sys'\n");
        s.append("$B mount -t devtmpfs devtmpfs /dev || fail 'mounting /dev'\n");
        for (String m : modules) {
            s.append("$B insmod /lib/modules/")
                    .append(m)
                    .append(".ko || fail ")
                    .append(q("loading the module " + m))
                    .append('\n');
        }
        s.append("$B mount -t 9p -o ro,")
                .append(nine)
                .append(" hostroot /newroot || fail 'mounting the host root (9p)'\n");
        String root = "/newroot";
        for (String[] m : new String[][] {
            {"proc", "proc", "/proc", ""},
            {"sysfs", "sysfs", "/sys", ""},
            {"devtmpfs", "devtmpfs", "/dev", ""},
            {"tmpfs", "tmpfs", "/tmp", "mode=1777"},
            {"tmpfs", "tmpfs", "/run", "mode=0755"}
        }) {
            s.append("$B mount -t ")
                    .append(m[0])
                    .append(m[3].isEmpty() ? "" : " -o " + m[3])
                    .append(' ')
                    .append(m[1])
                    .append(' ')
                    .append(root)
                    .append(m[2])
                    .append(" || fail 'mounting ")
                    .append(m[2])
                    .append("'\n");
        }
        // The checkout after the guest's own /tmp and /run: a checkout below one of them (a clone in /tmp)
        // would else be hidden under the tmpfs mounted there.
        s.append("$B mkdir -p ").append(q(root + checkout)).append('\n');
        s.append("$B mount -t 9p -o rw,")
                .append(nine)
                .append(" checkout ")
                .append(q(root + checkout))
                .append(" || fail ")
                .append(q("mounting the checkout " + checkout + " (9p)"))
                .append('\n');
        s.append("$B mkdir -p ")
                .append(root)
                .append("/dev/pts ")
                .append(root)
                .append("/dev/shm ")
                .append(root)
                .append(SHARE)
                .append('\n');
        s.append("$B mount -t devpts devpts ").append(root).append("/dev/pts\n");
        s.append("$B mount -t tmpfs -o mode=1777 tmpfs ").append(root).append("/dev/shm\n");
        s.append("$B mount -t 9p -o rw,")
                .append(nine)
                .append(" vmshare ")
                .append(root)
                .append(SHARE)
                .append(" || fail 'mounting the share (9p)'\n");
        // what the toolkit may look at; a kernel without one of them simply lacks it (no failure)
        s.append("$B mount -t cgroup2 cgroup2 ").append(root).append("/sys/fs/cgroup 2>/dev/null\n");
        s.append("$B mount -t bpf bpf ").append(root).append("/sys/fs/bpf 2>/dev/null\n");
        s.append("$B mount -t tracefs tracefs ").append(root).append("/sys/kernel/tracing 2>/dev/null\n");
        s.append("$B mount -t debugfs debugfs ").append(root).append("/sys/kernel/debug 2>/dev/null\n");
        s.append("$B hostname ").append(q(hostname)).append('\n');
        s.append("S=").append(root).append(SHARE).append('\n');
        s.append("$B echo ").append(q(RUNNING)).append('\n');
        StringBuilder cmd = new StringBuilder(
                "$B chroot /newroot /usr/bin/env -i PATH=" + PATH + " HOME=/root LANG=C.UTF-8 TERM=dumb");
        env.forEach((k, v) -> cmd.append(' ').append(q(k + "=" + v)));
        cmd.append(" /bin/sh -c 'cd \"$1\" || exit 126; shift; exec \"$@\"' sh ")
                .append(q(cwd.toString()));
        argv.forEach(a -> cmd.append(' ').append(q(a)));
        s.append(cmd).append(" >$S/stdout 2>$S/stderr </dev/null &\n");
        s.append("pid=$!\n");
        // the host's stop comes as a line on the console (QEMU's stdin): a blocked read, no polling that would wake
        // the guest while it measures
        s.append("$B stty -echo </dev/console 2>/dev/null\n");
        s.append("( while read -r word sig; do case \"$word $sig\" in '")
                .append(STOP)
                .append(" TERM'|'")
                .append(STOP)
                .append(" INT') $B kill -$sig $pid; break ;; esac; done ) </dev/console >/dev/null 2>&1 &\n");
        s.append("wait $pid\n");
        s.append("st=$?\n");
        s.append("$B echo $st > $S/status.tmp && $B mv $S/status.tmp $S/status\n");
        s.append("$B sync\n");
        s.append("$B echo \"").append(EXIT).append("$st\"\n");
        s.append("$B poweroff -f\n");
        return s.toString();
    }

    /** {@code value} in single quotes for sh, any quote inside closed and escaped. */
    static String q(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
