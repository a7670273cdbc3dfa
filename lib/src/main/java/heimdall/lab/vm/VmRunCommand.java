package heimdall.lab.vm;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import heimdall.lab.command.Args;
import heimdall.lab.command.CommandLookup;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import heimdall.lab.sys.VmFacts;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab vm run --kernel K [...] -- ARGS...}: {@code ./lab ARGS...} in a guest of kernel K. */
public final class VmRunCommand extends VmCommand {
    static final CommandOptions OPTIONS = CommandOptions.of(
            Set.of("--exec"),
            Set.of("--kernel", "--modules", "--cpus", "--memory", "--timeout", "--watchdog", "--accel"));
    static final int DEFAULT_MEMORY_MIB = 4096;
    static final int DEFAULT_TIMEOUT_S = 1200;
    static final int DEFAULT_WATCHDOG_S = 600;
    /** How long a guest gets to print its boot marker under KVM before it is judged not to boot there. */
    static final Duration KVM_BOOT_DEADLINE = Duration.ofSeconds(10);
    /** The same under TCG, where a boot takes a few seconds on an idle host. */
    static final Duration TCG_BOOT_DEADLINE = Duration.ofSeconds(120);
    /** From the boot marker to the command's start: modules and mounts. */
    static final Duration SETUP_DEADLINE = Duration.ofSeconds(120);

    /** Which command a guest's {@code ./lab} command line selects (its output options are checked). */
    private final CommandLookup commands;

    /** The command, knowing the other commands through {@code commands} (./lab's own command tree). */
    public VmRunCommand(CommandLookup commands) {
        this(commands, System.out, System.err);
    }

    VmRunCommand(CommandLookup commands, PrintStream out, PrintStream err) {
        super(
                "vm run",
                "run ./lab ARGS in a QEMU guest of another kernel (debian:5.10, debian:6.1, debian:6.12, or a bzImage)",
                OPTIONS,
                out,
                err);
        this.commands = commands;
    }

    @Override
    public String help() {
        return String.format(
                Locale.ROOT,
                """
                usage: ./lab vm run --kernel K [--modules DIR] [--cpus N] [--memory MIB] [--timeout S] [--watchdog S]
                                    [--accel auto|kvm|tcg] [--exec] -- ARGS...

                Boots a QEMU guest of kernel K and runs ./lab ARGS in it (with --exec: the program ARGS), in the same
                checkout and working folder: the host's root is shared read-only, the checkout (its results/ folder
                included) read-write; the guest has no network. Its output is ours, its exit status ours.
                An output of the command (--out, -o, --plot, ...) must lie inside the checkout, the one folder the
                host sees the guest write (elsewhere it would land in the guest's own /tmp): refused before the
                boot otherwise. What the guest does to owners, modes and links there stays in QEMU's records
                (security_model=mapped-xattr): on the host its files are root's, 0644 (folders 0755).

                  --kernel K      a name (%s; fetched from Debian's archive into %s on first
                                  use and checked by SHA-256 before every use), or the path of a bzImage
                  --modules DIR   with a bzImage: its lib/modules/RELEASE folder (the modules must be the kernel's)
                  --cpus N        vCPUs (default: 2, or fewer when this process may use fewer CPUs)
                  --memory MIB    guest memory in MiB (default %d)
                  --timeout S     the whole run's deadline (default %d s); QEMU is killed after it
                  --watchdog S    a guest whose command prints nothing for S seconds is killed as stalled (default %d;
                                  120 s once its kernel has reported a stall: RCU, soft lockup, hung task)
                  --accel A       auto (default): KVM when /dev/kvm opens and the guest boots under it within %d s, else
                                  TCG (emulated, said on stderr); kvm: KVM or a refusal; tcg: TCG without trying KVM
                  --exec          ARGS is a program and its arguments, not ./lab's

                The guest's kernel command line has tsc=reliable clocksource=tsc, so clock_gettime stays in the vDSO.
                environment.json of a results folder written in the guest has a "vm" object (kernel, package, version,
                sha256, release, accelerator, vcpus, memory_mib, emulated). Environment variables LAB_* and JAVA_HOME
                are passed to the guest. Ctrl-C or SIGTERM passes the signal to the guest's command and ends QEMU
                after at most %d s.
                Exit status: the guest command's; 1 when the kernel cannot be fetched or verified, the guest does not
                boot or set up by its deadline, times out or stalls, or ends 0 without an output it named on the
                host; 2 bad input (--kernel, --modules, an output outside the checkout, ...).""",
                NamedKernel.names(),
                KernelCache.defaultRoot(),
                DEFAULT_MEMORY_MIB,
                DEFAULT_TIMEOUT_S,
                DEFAULT_WATCHDOG_S,
                KVM_BOOT_DEADLINE.toSeconds(),
                GuestRun.STOP_GRACE.toSeconds());
    }

    /** What {@code --accel} asks. */
    enum AccelChoice {
        AUTO,
        KVM,
        TCG
    }

    /** The parsed command line. */
    record Request(
            String kernel,
            Optional<Path> modules,
            int cpus,
            int memoryMib,
            Duration timeout,
            Duration watchdog,
            AccelChoice accel,
            boolean exec,
            List<String> args) {}

    /** Parses and checks {@code argv}; bad input names the option. */
    static Request parse(List<String> argv) {
        Args a = Args.parse("vm run", argv, OPTIONS).atMost(0);
        String kernel = a.value("--kernel")
                .orElseThrow(() -> new BadInput("--kernel: missing; give one of "
                        + NamedKernel.names()
                        + " or the path of a bzImage with --modules DIR (./lab vm run --help)"));
        Optional<Path> modules = a.value("--modules").map(Path::of);
        if (NamedKernel.looksLikeName(kernel)) {
            NamedKernel.parse(kernel);
            if (modules.isPresent()) {
                throw new BadInput("--modules: only with a bzImage path; " + kernel + " brings its own modules");
            }
        } else if (modules.isEmpty()) {
            throw new BadInput(
                    "--modules: missing; a bzImage (--kernel " + kernel + ") needs its lib/modules/RELEASE folder");
        }
        int allowed = Cpus.allowed().size();
        int cpus = a.intValue("--cpus", Math.min(2, allowed), 1, Math.max(1, allowed));
        int memory = a.intValue("--memory", DEFAULT_MEMORY_MIB, 256, 1 << 20);
        Duration timeout = Duration.ofSeconds(a.longValue("--timeout", DEFAULT_TIMEOUT_S, 10, 7 * 24 * 3600));
        Duration watchdog = Duration.ofSeconds(a.longValue("--watchdog", DEFAULT_WATCHDOG_S, 10, 7 * 24 * 3600));
        AccelChoice accel;
        try {
            accel = AccelChoice.valueOf(a.value("--accel").orElse("auto").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadInput("--accel " + a.value("--accel").get() + ": not auto, kvm or tcg");
        }
        if (a.flag("--exec") && a.afterDashes().isEmpty()) {
            throw new BadInput("--exec: no program given after --");
        }
        return new Request(kernel, modules, cpus, memory, timeout, watchdog, accel, a.flag("--exec"), a.afterDashes());
    }

    @Override
    public int run(List<String> argv) {
        Request r = parse(argv);
        if (!NamedKernel.looksLikeName(r.kernel())) {
            // the user's kernel and modules judged before anything is started: bad input is said first
            BzImage header = BzImage.read(Path.of(r.kernel()), "--kernel");
            KernelModules.load(r.modules().get(), header.release(), "--modules");
        }
        Path checkout = checkout();
        Path cwd = Path.of("").toAbsolutePath();
        // where the guest's ./lab writes, judged before anything starts: only the checkout reaches the host
        Optional<List<String>> labArgs = GuestOutputs.labArgs(r.exec(), r.args(), checkout, cwd);
        List<GuestOutputs.Output> outputs = GuestOutputs.check(labArgs.orElse(List.of()), commands, checkout, cwd);
        QemuCommand.requireInstalled();
        QemuCommand.requireUserXattrs(checkout);
        Initramfs.requireStaticBusybox();
        int stale = StaleScratch.reap(Path.of(System.getProperty("java.io.tmpdir")));
        if (stale > 0) {
            err.println("lab vm: removed " + stale + " scratch folder" + (stale == 1 ? "" : "s")
                    + " of runs that were killed");
        }
        try (Scratch scratch = Scratch.create(StaleScratch.PREFIX, GuestRun.STOP_GRACE.plusSeconds(15));
                Interruption interruption = Interruption.catchSignals()) {
            GuestKernel kernel = kernel(r, scratch.path());
            List<KernelModules.Module> modules = KernelModules.load(
                    kernel.modules(),
                    kernel.release(),
                    r.modules().isPresent() ? "--modules" : "the package's modules");
            Path share = scratch.newDirectory("share");
            String hostname = ("vm-" + (NamedKernel.looksLikeName(r.kernel()) ? r.kernel() : kernel.release()))
                    .replaceAll("[^A-Za-z0-9.-]", "-");
            List<String> command =
                    r.exec() ? r.args() : prepend(checkout.resolve("lab").toString(), r.args());
            Path initrd = Initramfs.build(
                    scratch.path(),
                    InitScript.text(
                            KernelModules.names(modules), checkout, cwd, command, GuestEnvironment.passed(), hostname),
                    modules);
            for (String f : List.of("stdout", "stderr")) {
                SafeFiles.writeNew(share.resolve(f), new byte[0]);
            }
            if (interruption.requested()) {
                return stoppedEarly(interruption);
            }
            Ended ended = boot(r, kernel, initrd, checkout, share, interruption);
            int status = ended.status();
            if (status == 0) {
                List<String> missing =
                        GuestOutputs.missingOnHost(outputs, labArgs.isPresent() ? ended.lastLine() : Optional.empty());
                if (!missing.isEmpty()) {
                    throw new Refusal("the guest's command ended with status 0, but the host has no "
                            + String.join(", nor ", missing)
                            + ": the guest wrote it where the host does not see it (only the checkout is shared)");
                }
            }
            return status;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the guest's files", e);
        }
    }

    /** How a guest's run ended: the command's status and the last line it printed (none when it never ran). */
    private record Ended(int status, Optional<String> lastLine) {}

    private Ended boot(Request r, GuestKernel kernel, Path initrd, Path checkout, Path share, Interruption interruption)
            throws IOException {
        List<Accelerator> tries = accelerators(r.accel());
        for (int i = 0; i < tries.size(); i++) {
            Accelerator accel = tries.get(i);
            boolean last = i == tries.size() - 1;
            VmFacts facts = new VmFacts(
                    kernel.kernel(),
                    kernel.packageName().orElse(null),
                    kernel.version().orElse(null),
                    kernel.sha256(),
                    kernel.release(),
                    accel.label(),
                    r.cpus(),
                    r.memoryMib(),
                    accel.emulated());
            Files.deleteIfExists(share.resolve(VmFacts.FILE));
            SafeFiles.writeNew(share.resolve(VmFacts.FILE), facts.json());
            err.printf(
                    Locale.ROOT,
                    "lab vm: %s (%s), %d vCPU%s (this process may use %d CPUs), %d MiB, %s%n",
                    kernel.kernel(),
                    kernel.packageName()
                            .map(p -> p + " " + kernel.version().orElse(""))
                            .orElse("release " + kernel.release()),
                    r.cpus(),
                    r.cpus() == 1 ? "" : "s",
                    Cpus.allowed().size(),
                    r.memoryMib(),
                    accel == Accelerator.KVM ? "trying KVM" : "TCG (emulated)");
            GuestRun guest = new GuestRun(
                    QemuCommand.argv(accel, kernel.vmlinuz(), initrd, r.cpus(), r.memoryMib(), checkout, share),
                    share,
                    out,
                    err);
            Thread reaper = new Thread(guest::kill, "vm-qemu-reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            long t0 = System.nanoTime();
            try {
                Duration deadline = accel == Accelerator.KVM ? KVM_BOOT_DEADLINE : TCG_BOOT_DEADLINE;
                try {
                    guest.boot(deadline, interruption);
                } catch (GuestRun.NotBooted e) {
                    if (accel == Accelerator.KVM && !last) {
                        err.println("lab vm: KVM: guest did not boot within " + deadline.toSeconds()
                                + " s; using TCG (emulated)");
                        continue;
                    }
                    throw new Refusal((accel == Accelerator.KVM ? "KVM: " : "booting the guest (TCG): ")
                            + e.getMessage()
                            + "; QEMU killed");
                }
                err.printf(
                        Locale.ROOT,
                        "lab vm: booted under %s in %.1f s; running %s%n",
                        accel.label(),
                        (System.nanoTime() - t0) / 1e9,
                        r.exec() ? String.join(" ", r.args()) : "./lab " + String.join(" ", r.args()));
                int status = guest.finish(SETUP_DEADLINE, r.timeout(), r.watchdog(), interruption);
                err.printf(
                        Locale.ROOT,
                        "lab vm: the guest's command ended with status %d; %.1f s from QEMU's start%n",
                        status,
                        (System.nanoTime() - t0) / 1e9);
                return new Ended(status, guest.lastLine());
            } catch (GuestRun.StoppedEarly e) {
                return new Ended(stoppedEarly(interruption), Optional.empty());
            } finally {
                guest.kill();
                try {
                    Runtime.getRuntime().removeShutdownHook(reaper);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs (or ran) anyway
                }
            }
        }
        throw new IllegalStateException("no accelerator to try");
    }

    private int stoppedEarly(Interruption interruption) {
        err.println(
                "lab vm: " + interruption.cause().map(Interruption.Cause::said).orElse("stopped")
                        + " before the guest's command started; nothing ran, QEMU (if started) killed");
        return interruption.exitStatus();
    }

    /** The accelerators to try in order, KVM only when /dev/kvm opens. */
    private List<Accelerator> accelerators(AccelChoice choice) {
        String why = Accelerator.kvmUnavailable();
        return switch (choice) {
            case TCG -> List.of(Accelerator.TCG);
            case KVM -> {
                if (why != null) {
                    throw new Refusal("KVM: not usable: " + why + " (--accel kvm)");
                }
                yield List.of(Accelerator.KVM);
            }
            case AUTO -> {
                if (why != null) {
                    err.println("lab vm: KVM: not tried: " + why + "; using TCG (emulated)");
                    yield List.of(Accelerator.TCG);
                }
                yield List.of(Accelerator.KVM, Accelerator.TCG);
            }
        };
    }

    /** The kernel to boot, in {@code scratch}: a named one from the cache, or a copy of the user's bzImage. */
    private GuestKernel kernel(Request r, Path scratch) throws IOException {
        if (NamedKernel.looksLikeName(r.kernel())) {
            NamedKernel k = NamedKernel.parse(r.kernel());
            return KernelCache.open(KernelCache.defaultRoot()).use(k, scratch, err);
        }
        Path given = Path.of(r.kernel());
        BzImage.read(given, "--kernel"); // a clear error before the copy
        // boot a copy we checked, not the user's file, which could change between our check and QEMU's read
        Path copy = scratch.resolve("bzImage");
        Files.copy(given, copy);
        BzImage header = BzImage.read(copy, "--kernel");
        return new GuestKernel(
                given.toString(),
                Optional.empty(),
                Optional.empty(),
                Sha256.of(copy),
                copy,
                r.modules().get(),
                header.release());
    }

    /** The checkout {@code ./lab} runs from (the script passes it). */
    static Path checkout() {
        String home = System.getProperty("heimdall.lab.home");
        if (home == null) {
            throw new Refusal("vm run: the checkout is unknown (heimdall.lab.home unset): run it as ./lab vm run");
        }
        return Path.of(home).toAbsolutePath().normalize();
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
