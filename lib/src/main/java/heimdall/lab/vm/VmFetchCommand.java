package heimdall.lab.vm;

import heimdall.lab.BadInput;
import heimdall.lab.command.Args;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.sys.Scratch;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code ./lab vm fetch --kernel NAME}: fetches the archive's current package of a named kernel into the cache. */
public final class VmFetchCommand extends VmCommand {
    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of(), Set.of("--kernel"));

    public VmFetchCommand() {
        this(System.out, System.err);
    }

    VmFetchCommand(PrintStream out, PrintStream err) {
        super(
                "vm fetch",
                "fetch a named kernel's current Debian package into the kernel cache (replacing the cached one)",
                OPTIONS,
                out,
                err);
    }

    @Override
    public String help() {
        return String.format(Locale.ROOT, """
                usage: ./lab vm fetch --kernel NAME

                Fetches the current package of NAME (%s) with apt from a private sources list (the
                archive this machine's apt configuration names, checked against Debian's archive keyring), checks it
                against the signed index's SHA-256 and records it in %s, replacing what was cached.
                ./lab vm run fetches a kernel that is not cached by itself; this refreshes one that is.
                Exit status 1 when it cannot be fetched or verified.""", NamedKernel.names(), KernelCache.defaultRoot());
    }

    @Override
    public int run(List<String> argv) {
        Args a = Args.parse(name(), argv, OPTIONS).atMost(0);
        NamedKernel k = NamedKernel.parse(a.value("--kernel")
                .orElseThrow(() -> new BadInput("--kernel: missing; give one of " + NamedKernel.names())));
        KernelCache cache = KernelCache.open(KernelCache.defaultRoot());
        try (Scratch scratch = Scratch.create("heimdall-vm-fetch-")) {
            CachedKernel c = cache.fetch(k, DebianArchive.ofMachine(), scratch.path(), err);
            out.println(k.label() + ": " + c.packageName() + " " + c.version() + ", release " + c.release()
                    + ", .deb sha256 "
                    + c.debSha256() + ", vmlinuz sha256 " + c.vmlinuzSha256());
        }
        return 0;
    }
}
