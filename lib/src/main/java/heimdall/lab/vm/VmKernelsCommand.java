package heimdall.lab.vm;

import heimdall.lab.Refusal;
import heimdall.lab.command.Args;
import heimdall.lab.command.CommandOptions;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab vm kernels [--offline]}: what the kernel cache holds and what Debian's archive offers, per name. */
public final class VmKernelsCommand extends VmCommand {
    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of("--offline"), Set.of());

    public VmKernelsCommand() {
        this(System.out, System.err);
    }

    VmKernelsCommand(PrintStream out, PrintStream err) {
        super(
                "vm kernels",
                "the kernels ./lab vm run knows: cached (verified) and fetchable from Debian's archive",
                OPTIONS,
                out,
                err);
    }

    @Override
    public String help() {
        return String.format(Locale.ROOT, """
                usage: ./lab vm kernels [--offline]

                For each kernel name (%s): the package cached in %s (its .deb checked against
                the SHA-256 recorded when it was fetched), and the package Debian's archive offers now (the private apt
                lists updated first, from the archive this machine's apt configuration names; --offline: not asked).
                Exit status 1 when a cached package fails its check or the archive cannot be read.""", NamedKernel.names(), KernelCache.defaultRoot());
    }

    @Override
    public int run(List<String> argv) {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        KernelCache cache = KernelCache.open(KernelCache.defaultRoot());
        Optional<DebianArchive> archive =
                a.flag("--offline") ? Optional.empty() : Optional.of(DebianArchive.ofMachine());
        int status = 0;
        out.println("kernel cache: " + cache.root());
        for (NamedKernel k : NamedKernel.values()) {
            out.println(k.label() + " (Debian " + k.suite() + ")");
            Optional<CachedKernel> cached = Optional.empty();
            try {
                cached = cache.cached(k);
                if (cached.isEmpty()) {
                    out.println("  cached:    none");
                } else {
                    CachedKernel c = cache.verified(k, cached.get());
                    out.println("  cached:    " + c.packageName() + " " + c.version() + ", release " + c.release()
                            + ", .deb sha256 "
                            + c.debSha256() + " (verified), fetched " + c.fetched());
                }
            } catch (Refusal e) {
                out.println("  cached:    FAILED: " + e.getMessage());
                status = 1;
            }
            if (archive.isPresent()) {
                try {
                    PrivateApt apt =
                            PrivateApt.in(cache.root().resolve("apt").resolve(k.folderName()), k, archive.get());
                    apt.update();
                    PrivateApt.Candidate c = apt.candidate();
                    boolean same = cached.filter(x -> x.packageName().equals(c.packageName())
                                    && x.version().equals(c.version()))
                            .isPresent();
                    out.println("  fetchable: " + c.packageName() + " " + c.version()
                            + (same
                                    ? " (the cached one)"
                                    : cached.isPresent()
                                            ? " (newer than the cached one: ./lab vm fetch --kernel " + k.label() + ")"
                                            : ""));
                } catch (Refusal e) {
                    out.println("  fetchable: FAILED: " + e.getMessage());
                    status = 1;
                }
            }
        }
        return status;
    }
}
