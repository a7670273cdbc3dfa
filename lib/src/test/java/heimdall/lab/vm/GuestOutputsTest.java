package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandLookup;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.testing.LabRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A guest writes only where the host sees it: the inner command's output options ({@code --out}, {@code -o},
 * {@code --plot}, read from the command's own declaration) outside the checkout are refused before QEMU starts
 * (exit 2 naming the option), a link inside the checkout that leads out counts as outside, and after the guest a
 * named output or printed folder the host lacks is said. The shares QEMU gets never let a guest change a host
 * file's owner, mode or type (the real guest's check: {@link VmGuestTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuestOutputsTest {
    @TempDir
    Path checkout;

    @TempDir
    Path elsewhere;

    /** A command declaring {@code --out} (also {@code -o}), {@code --plot} (written) and {@code --runs}. */
    static final Command WRITER = new Command() {
        @Override
        public String name() {
            return "bpf stats";
        }

        @Override
        public String summary() {
            return "a stand-in";
        }

        @Override
        public String help() {
            return "";
        }

        @Override
        public Optional<CommandOptions> options() {
            return Optional.of(CommandOptions.of(Set.of("--json"), Set.of("--out", "--plot", "--runs"))
                    .withShortOut()
                    .writing("--plot"));
        }

        @Override
        public int run(List<String> args) {
            return 0;
        }
    };

    static final CommandLookup LOOKUP =
            argv -> argv.size() >= 2 && argv.subList(0, 2).equals(List.of("bpf", "stats"))
                    ? Optional.of(new CommandLookup.Selected(WRITER, argv.subList(2, argv.size())))
                    : Optional.empty();

    List<GuestOutputs.Output> check(String... labArgs) {
        return GuestOutputs.check(List.of(labArgs), LOOKUP, checkout, checkout);
    }

    @Test
    void outputOptionsAreReadAsArgsReadsThem() {
        CommandOptions o = WRITER.options().orElseThrow();
        assertEquals(Set.of("--out", "--plot"), o.outputs(), "--out is an output wherever it is declared");
        List<CommandOptions.Output> found = o.outputsIn(
                List.of("P", "-o", "a", "--runs", "3", "--out=b", "--json", "--plot", "c", "--", "--out", "d"));
        assertEquals(
                List.of(
                        new CommandOptions.Output("-o", "a"),
                        new CommandOptions.Output("--out", "b"),
                        new CommandOptions.Output("--plot", "c")),
                found);
        // a valued option's value is never read as an option
        assertEquals(List.of(), o.outputsIn(List.of("--runs", "--out")));
    }

    @Test
    void anOutputOutsideTheCheckoutIsRefusedNamingTheOptionAndWhy() {
        for (String[] given : new String[][] {
            {"-o", "/tmp/x"}, {"--out", elsewhere.resolve("y").toString()}, {"--out=/tmp/y"}, {"--plot", "/etc/p.png"}
        }) {
            List<String> args = new java.util.ArrayList<>(List.of("bpf", "stats", "P"));
            args.addAll(List.of(given));
            BadInput e = assertThrows(BadInput.class, () -> GuestOutputs.check(args, LOOKUP, checkout, checkout));
            String spelling = given[0].startsWith("--out=") ? "--out" : given[0];
            assertTrue(e.getMessage().startsWith(spelling + " "), e.getMessage());
            assertTrue(e.getMessage().contains("outside the checkout (" + real(checkout) + ")"), e.getMessage());
            LabRun.assertClean(e.getMessage());
        }
        BadInput tmp = assertThrows(BadInput.class, () -> check("bpf", "stats", "P", "-o", "/tmp/x"));
        assertTrue(tmp.getMessage().contains("into its own /tmp, which vanishes when it powers off"), tmp.getMessage());
    }

    @Test
    void aPathInsideTheCheckoutPassesAndALinkThatLeadsOutDoesNot() throws Exception {
        Files.createDirectories(checkout.resolve("results"));
        List<GuestOutputs.Output> ok = check("bpf", "stats", "P", "-o", "results/new/x.json", "--plot", "p.png");
        assertEquals(2, ok.size());
        assertEquals(real(checkout).resolve("results/new/x.json"), ok.get(0).onHost());
        // relative paths are the guest's working folder's, which is ours
        Files.createSymbolicLink(checkout.resolve("results/out"), elsewhere);
        BadInput e = assertThrows(BadInput.class, () -> check("bpf", "stats", "P", "--out", "results/out/z"));
        assertTrue(e.getMessage().startsWith("--out results/out/z: outside the checkout"), e.getMessage());
        BadInput up = assertThrows(BadInput.class, () -> check("bpf", "stats", "P", "--out", "results/../../z"));
        assertTrue(up.getMessage().startsWith("--out results/../../z: outside the checkout"), up.getMessage());
        // a command that selects nothing, or other words: nothing to judge here (the guest's ./lab says it)
        assertEquals(List.of(), check("--version"));
        assertEquals(List.of(), check("bpf", "nosuch", "-o", "/tmp/x"));
    }

    @Test
    void aWorkingFolderTheGuestMountsItsOwnTmpfsOnIsRefused() {
        BadInput e = assertThrows(
                BadInput.class, () -> GuestOutputs.check(List.of("--version"), LOOKUP, checkout, Path.of("/tmp")));
        assertTrue(
                e.getMessage().startsWith("the working folder /tmp: the guest mounts a /tmp of its own"),
                e.getMessage());
    }

    @Test
    void execOfTheCheckoutsLabIsJudgedAsLabAndAnyOtherProgramIsNot() throws Exception {
        Files.writeString(checkout.resolve("lab"), "#!/bin/sh\n");
        assertEquals(
                Optional.of(List.of("bpf", "stats")),
                GuestOutputs.labArgs(true, List.of("./lab", "bpf", "stats"), checkout, checkout));
        assertEquals(
                Optional.of(List.of("x")),
                GuestOutputs.labArgs(true, List.of(checkout.resolve("lab").toString(), "x"), checkout, elsewhere));
        assertEquals(Optional.empty(), GuestOutputs.labArgs(true, List.of("sh", "-c", "x"), checkout, checkout));
        assertEquals(Optional.of(List.of("a")), GuestOutputs.labArgs(false, List.of("a"), checkout, checkout));
    }

    @Test
    void afterTheGuestAnOutputOrAPrintedFolderTheHostLacksIsSaid() throws Exception {
        Path made = Files.createDirectories(checkout.resolve("results/made"));
        List<GuestOutputs.Output> outputs = check("bpf", "stats", "P", "--out", "results/made", "--plot", "gone.png");
        List<String> missing = GuestOutputs.missingOnHost(outputs, Optional.of("/tmp/heimdall-no-such-folder"));
        assertEquals(2, missing.size(), missing.toString());
        assertTrue(missing.get(0).startsWith("--plot gone.png"), missing.toString());
        assertEquals("the folder it printed last, /tmp/heimdall-no-such-folder", missing.get(1));
        assertEquals(List.of(), GuestOutputs.missingOnHost(outputs.subList(0, 1), Optional.of(made.toString())));
        assertEquals(List.of(), GuestOutputs.missingOnHost(List.of(), Optional.of("kernel: Linux 6.1.0 x86_64")));
    }

    @Test
    void theLastLineOfTheGuestsOutputIsKeptAcrossReads() {
        GuestRun.LastLine l = new GuestRun.LastLine();
        assertEquals(Optional.empty(), l.line());
        byte[] a = "table\n/work/res".getBytes(StandardCharsets.UTF_8);
        byte[] b = "ults/x\n".getBytes(StandardCharsets.UTF_8);
        l.add(a, a.length);
        l.add(b, b.length);
        assertEquals(Optional.of("/work/results/x"), l.line());
    }

    @Test
    void theReadWriteSharesAreMappedSoAGuestNeverChangesAHostFilesOwnerModeOrType() {
        List<String> argv = QemuCommand.argv(
                Accelerator.TCG, Path.of("/k"), Path.of("/i"), 1, 512, Path.of("/co,de"), Path.of("/s"));
        List<String> shares = new java.util.ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            if (argv.get(i).equals("-fsdev")) {
                shares.add(argv.get(i + 1));
            }
        }
        assertFalse(argv.contains("-virtfs"), "-virtfs drops fmode and dmode");
        assertEquals(3, shares.size(), shares.toString());
        assertEquals("local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap", shares.get(0));
        assertEquals(
                "local,id=checkout,path=/co,,de,security_model=mapped-xattr,fmode=0644,dmode=0755,multidevs=remap",
                shares.get(1));
        assertTrue(shares.get(2).contains("security_model=mapped-file"), shares.get(2));
        for (String s : shares) {
            assertTrue(s.contains("readonly=on") || !s.contains("security_model=none"), "a writable share: " + s);
        }
        assertTrue(argv.contains("virtio-9p-pci,fsdev=checkout,mount_tag=checkout"), argv.toString());
    }

    @Test
    void aCheckoutWithoutUserXattrsIsRefusedBeforeQemuStarts() {
        QemuCommand.requireUserXattrs(checkout); // this file system keeps them
        Refusal e = assertThrows(Refusal.class, () -> QemuCommand.requireUserXattrs(Path.of("/proc/self")));
        assertTrue(
                e.getMessage()
                        .startsWith("sharing the checkout /proc/self with the guest: its file system keeps"
                                + " no user extended attributes"),
                e.getMessage());
    }

    @Test
    void vmRunRefusesAnOutsideOutputWithStatusTwoBeforeAnythingStarts() {
        String before = System.getProperty("heimdall.lab.home");
        System.setProperty(
                "heimdall.lab.home", Path.of("").toAbsolutePath().getParent().toString());
        try {
            LabRun o = LabRun.of("vm", "run", "--kernel", "debian:6.1", "--", "bpf", "stats", "P", "-o", "/tmp/x");
            o.assertRefused(2, "-o /tmp/x", "outside the checkout");
            assertFalse(o.err().contains("lab vm: debian"), "nothing started:\n" + o.err());
            LabRun.of(
                            "vm",
                            "run",
                            "--kernel",
                            "debian:6.1",
                            "--",
                            "reproduce",
                            "follower-cost",
                            "--quick",
                            "--out",
                            "/tmp/y")
                    .assertRefused(2, "--out /tmp/y", "outside the checkout");
            LabRun.of("vm", "run", "--kernel", "debian:6.1", "--", "compare", "a", "b", "-o", "/tmp/p.png")
                    .assertRefused(2, "-o /tmp/p.png", "outside the checkout");
        } finally {
            if (before == null) {
                System.clearProperty("heimdall.lab.home");
            } else {
                System.setProperty("heimdall.lab.home", before);
            }
        }
    }

    static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
