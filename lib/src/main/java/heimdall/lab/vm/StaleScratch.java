package heimdall.lab.vm;

import heimdall.lab.sys.CreatorMark;
import heimdall.lab.sys.Scratch;
import java.nio.file.Path;

/**
 * A {@code ./lab vm run} killed with SIGKILL takes QEMU with it (its parent-death signal) but cannot remove its
 * scratch folder (the kernel unpacked, the initramfs: hundreds of MB). Its folder is a {@link Scratch} named
 * {@value #PREFIX}..., so it carries a {@link CreatorMark} (pid, start time from {@code /proc}, boot id, pid
 * namespace); before it starts, each run removes the folders whose creator is certainly dead, by the same rule
 * as every other sweeper: a creator in another pid namespace cannot be looked up, so its folder is kept, and a
 * clock step cannot make a live run look dead.
 */
final class StaleScratch {
    static final String PREFIX = Scratch.PREFIX + "vm-";

    private StaleScratch() {}

    /** Removes the {@code heimdall-vm-*} folders in {@code parent} that a dead run left; the count. */
    static int reap(Path parent) {
        return CreatorMark.sweep(parent, n -> n.startsWith(PREFIX));
    }
}
