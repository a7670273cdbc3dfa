package heimdall.lab.vm;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.Printable;
import heimdall.lab.command.CommandLookup;
import heimdall.lab.command.CommandOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Where a guest's {@code ./lab} command writes, judged before QEMU starts and checked after the guest ends.
 * The guest shares only the checkout with the host read-write; everything else it sees is the host's root
 * read-only, or file systems of its own ({@code /tmp}, {@code /run}, {@code /dev}, ...) that vanish when it
 * powers off. So an output option of the inner command ({@link CommandOptions#outputs()}: {@code --out},
 * {@code -o}, {@code --plot}, ..., read from the command's own declaration through {@link CommandLookup})
 * that names a path outside the checkout is refused (exit 2, naming the option), and so is a working folder
 * the guest would see as its own tmpfs.
 *
 * <p>Refused rather than shared: sharing such a folder's parent read-write ({@code /tmp}, a home folder,
 * {@code /etc} for {@code -o /etc/x}) would hand a guest running a kernel under test write access to
 * everything beside it; and copying back afterwards would need a second share or a second trust decision.
 * The checkout (and its {@code results/}) is the one place a guest writes.
 */
final class GuestOutputs {
    /** Where the guest mounts file systems of its own over the host's (see {@link InitScript}). */
    static final List<Path> GUEST_OWN =
            List.of(Path.of("/proc"), Path.of("/sys"), Path.of("/dev"), Path.of("/tmp"), Path.of("/run"));

    private GuestOutputs() {}

    /** An output option of the guest's command: as given, and the host path it names. */
    record Output(String spelling, String value, Path onHost) {
        String said() {
            return spelling + " " + Printable.of(value);
        }
    }

    /**
     * The {@code ./lab} arguments a guest's command line runs: {@code args} itself, or with {@code --exec} the
     * words after a program that is this checkout's {@code lab}; empty for any other program (its outputs are
     * its own business).
     */
    static Optional<List<String>> labArgs(boolean exec, List<String> args, Path checkout, Path cwd) {
        if (!exec) {
            return Optional.of(args);
        }
        if (args.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path program = cwd.resolve(args.get(0));
            if (Files.isSameFile(program, checkout.resolve("lab"))) {
                return Optional.of(args.subList(1, args.size()));
            }
        } catch (IOException | RuntimeException notThatFile) {
            // not the checkout's ./lab
        }
        return Optional.empty();
    }

    /**
     * Checks the working folder and every output option in {@code labArgs} against {@code checkout}; the outputs
     * with the host paths they name.
     *
     * @throws BadInput naming the option (or the working folder) and why, when the guest would write where the
     *     host does not see it
     */
    static List<Output> check(List<String> labArgs, CommandLookup lookup, Path checkout, Path cwd) {
        Path home = real(checkout, "the checkout");
        Path here = real(cwd, "the working folder");
        if (!here.startsWith(home)) {
            for (Path own : GUEST_OWN) {
                if (here.startsWith(own)) {
                    throw new BadInput("the working folder " + Printable.of(cwd) + ": the guest mounts a " + own
                            + " of its own over the host's, so its command would run (and write) in a folder"
                            + " the host never sees; run ./lab vm run from the checkout (" + home + ")");
                }
            }
        }
        Optional<CommandLookup.Selected> selected = lookup.select(labArgs);
        if (selected.isEmpty() || selected.get().command().options().isEmpty()) {
            return List.of(); // no command, or none that declares options: nothing named to write
        }
        List<Output> outputs = new ArrayList<>();
        CommandOptions declared = selected.get().command().options().get();
        for (CommandOptions.Output o : declared.outputsIn(selected.get().args())) {
            Output out = new Output(o.spelling(), o.value(), onHost(here.resolve(o.value()), o.spelling()));
            if (!out.onHost().startsWith(home)) {
                throw new BadInput(out.said() + ": outside the checkout (" + home + "), the one folder the guest"
                        + " shares with the host read-write: the guest would write "
                        + (onGuestOwn(out.onHost())
                                ? "into its own " + onGuestOwnRoot(out.onHost()) + ", which vanishes when it powers off"
                                : "where the host's root is read-only")
                        + ", and the host would have nothing; name a path inside the checkout (e.g. "
                        + home.resolve("results").resolve("NAME") + "), or run the command on the host");
            }
            outputs.add(out);
        }
        return outputs;
    }

    /**
     * After the guest's command ended with status 0: a message for each output it named, and for the last line
     * it printed when that is an absolute path (a reproduction's results folder), that the host does not have.
     */
    static List<String> missingOnHost(List<Output> outputs, Optional<String> lastLine) {
        List<String> missing = new ArrayList<>();
        for (Output o : outputs) {
            if (!Files.exists(o.onHost(), LinkOption.NOFOLLOW_LINKS)) {
                missing.add(o.said() + " (" + o.onHost() + ")");
            }
        }
        lastLine.filter(l -> l.startsWith("/") && !l.isBlank() && l.chars().noneMatch(Character::isWhitespace))
                .filter(l -> {
                    try {
                        return !Files.exists(Path.of(l), LinkOption.NOFOLLOW_LINKS);
                    } catch (RuntimeException notAPath) {
                        return false;
                    }
                })
                .ifPresent(l -> missing.add("the folder it printed last, " + Printable.of(l)));
        return missing;
    }

    /** {@code path} as the host resolves it: its deepest existing part with every link followed, then the rest. */
    static Path onHost(Path path, String option) {
        Path existing = path.toAbsolutePath();
        Deque<Path> rest = new ArrayDeque<>();
        while (existing.getParent() != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            rest.push(existing.getFileName());
            existing = existing.getParent();
        }
        Path p;
        try {
            p = existing.toRealPath();
        } catch (IOException e) {
            throw new BadInput(option + " " + Printable.of(path) + ": cannot resolve " + Printable.of(existing) + ": "
                    + Io.reason(e) + " (a link to nothing?)");
        }
        for (Path name : rest) {
            p = p.resolve(name);
        }
        return p.normalize();
    }

    private static boolean onGuestOwn(Path p) {
        return GUEST_OWN.stream().anyMatch(p::startsWith);
    }

    private static Path onGuestOwnRoot(Path p) {
        return GUEST_OWN.stream().filter(p::startsWith).findFirst().orElse(p);
    }

    private static Path real(Path p, String what) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new BadInput(what + " " + Printable.of(p) + ": " + Io.reason(e));
        }
    }
}
