/**
 * {@code ./lab vm}: runs a {@code ./lab} command under another Linux kernel, in a QEMU guest that shares
 * this host's files.
 *
 * <p>What it owns, one class per job:
 * <ul>
 *   <li>the kernels: {@link heimdall.lab.vm.NamedKernel} (Debian's, by name), {@link heimdall.lab.vm.DebianArchive}
 *       (the archive's address, read from the machine's own apt configuration), {@link heimdall.lab.vm.PrivateApt}
 *       (apt with a sources list and state of its own, checked against Debian's archive keyring),
 *       {@link heimdall.lab.vm.KernelCache} (the downloaded packages and their SHA-256, re-verified before use),
 *       {@link heimdall.lab.vm.BzImage} and {@link heimdall.lab.vm.KernelModules} (a kernel and its modules checked
 *       to belong together), {@link heimdall.lab.vm.GuestKernel} (what a guest boots);</li>
 *   <li>the guest: {@link heimdall.lab.vm.Initramfs} and {@link heimdall.lab.vm.InitScript} (busybox and the guest
 *       kernel's own virtio and 9p modules, a small {@code /init}), {@link heimdall.lab.vm.QemuCommand} (the
 *       QEMU command line), {@link heimdall.lab.vm.Accelerator} (KVM measured by a boot, else TCG),
 *       {@link heimdall.lab.vm.GuestRun} (boot, deadlines, watchdog, output, exit status, cleanup);</li>
 *   <li>the facts: {@link heimdall.lab.sys.VmFacts}, the {@code vm} object of a results folder's
 *       {@code environment.json}, written by the host and read back by the guest's {@code ./lab}.</li>
 * </ul>
 *
 * <p>No virtual machine monitor or init system of our own: Debian's QEMU boots the guest directly
 * ({@code -kernel}, {@code -initrd}), as libbpf's vmtest does; nothing is mounted on the host.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code bench} (a run stopped on a signal) and {@code command};
 * only {@code cli} uses it.
 */
package heimdall.lab.vm;
