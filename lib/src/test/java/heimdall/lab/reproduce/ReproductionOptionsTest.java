package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.cli.Main;
import heimdall.lab.command.Args;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 2: each reproduction's options are declared once (ReproductionOption) and the parsing,
 * the help with both defaults, and completion all come from that declaration. Nothing here measures:
 * every run below ends at its options, before a results folder exists.
 */
class ReproductionOptionsTest {
    @TempDir
    Path tmp;

    /** What one ./lab run printed and returned. */
    record Outcome(int status, String out, String err) {}

    static Outcome lab(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                List.of(argv),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void oneNamesHelpShowsItsOptionsWithTheQuickAndTheFullDefault() {
        Outcome o = lab("reproduce", "floor-cost", "--help");
        assertEquals(0, o.status(), o.err());
        String help = o.out();
        assertTrue(help.startsWith("usage: ./lab reproduce floor-cost [--quick] [--out DIR] [options]"), help);
        assertTrue(help.contains("--runs N") && help.contains("(quick: 3; full: 7)"), help);
        assertTrue(help.contains("--calls N") && help.contains("(quick: 50,000; full: 1,000,000)"), help);
        assertTrue(help.contains("--broker-calls N") && help.contains("(quick: 2,000; full: 20,000)"), help);
        assertTrue(help.contains("--no-broker") && help.contains("--quick") && help.contains("--out DIR"), help);
        assertFalse(help.contains("--batch-runs"), "kernel-bitmap's options are not floor-cost's: " + help);
        // the option before NAME, and host-load's own quick default for a non-count
        String hostLoad = lab("reproduce", "--quick", "host-load", "--help").out();
        assertTrue(hostLoad.startsWith("usage: ./lab reproduce host-load"), hostLoad);
        assertTrue(hostLoad.contains("--settle SECONDS") && hostLoad.contains("(quick: 5; full: 60)"), hostLoad);
        assertTrue(lab("reproduce", "graph-lookup", "--help")
                .out()
                .startsWith("usage: ./lab reproduce graph-lookup [--quick] [--out DIR] [options] [NODES EDGES]"));
    }

    @Test
    void theWholeHelpListsEveryDeclaredOptionOfEveryNameAsDeclared() {
        String help = lab("reproduce", "--help").out();
        for (Reproduction r : ReproduceCommand.ALL) {
            int at = help.indexOf("\n" + r.name() + " options:");
            assertTrue(at >= 0, r.name() + ": " + help);
            for (ReproductionOption o : r.options()) {
                assertTrue(help.indexOf(o.help(), at) > at, r.name() + " " + o.name() + " in " + help);
                if (o.kind() == ReproductionOption.Kind.NUMBER) {
                    assertTrue(o.help().contains("quick: ") || o.help().contains("default: "), o.help());
                }
            }
        }
    }

    @Test
    void everyNamesOptionsAreDistinctAndNoneShadowsTheCommonOnes() {
        for (Reproduction r : ReproduceCommand.ALL) {
            Set<String> seen = new HashSet<>();
            for (ReproductionOption o : ReproduceCommand.declared(r)) {
                assertTrue(seen.add(o.name()), r.name() + " declares " + o.name() + " twice");
            }
        }
    }

    /** The command declares every name's options to picocli: completion is made from Command.options(). */
    @Test
    void completionIsGivenTheDeclaredOptions() {
        var declared = new ReproduceCommand().options().orElseThrow();
        for (Reproduction r : ReproduceCommand.ALL) {
            for (ReproductionOption o : ReproduceCommand.declared(r)) {
                assertTrue(
                        (o.valued() ? declared.valued() : declared.flags()).contains(o.name()),
                        r.name() + " " + o.name());
            }
        }
    }

    /**
     * Every number or CPU option of every name, given a word, a value past its range and an empty
     * value: status 2, the message names the option, and no folder is left (neither ours nor a trace in
     * the user's own).
     */
    @Test
    void aBadValueNamesTheOptionExits2AndLeavesNoFolder() throws Exception {
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        List<String> checked = new ArrayList<>();
        for (Reproduction r : ReproduceCommand.ALL) {
            for (ReproductionOption o : r.options()) {
                if (o.kind() != ReproductionOption.Kind.NUMBER && o.kind() != ReproductionOption.Kind.CPU) {
                    continue;
                }
                String past = o.kind() == ReproductionOption.Kind.CPU ? "4294967297" : Long.toString(o.max()) + "0";
                for (String bad : List.of("many", past, "")) {
                    Path out = tmp.resolve("absent-" + checked.size());
                    for (Path where : List.of(out, mine)) {
                        Outcome x = lab("reproduce", r.name(), "--quick", o.name(), bad, "--out", where.toString());
                        String what = r.name() + " " + o.name() + " '" + bad + "' → " + x.err();
                        assertEquals(2, x.status(), what);
                        assertTrue(x.err().contains("option " + o.name()), what);
                        assertFalse(x.err().contains("\tat "), "no stack trace: " + what);
                        assertTrue(x.out().isEmpty(), what);
                    }
                    assertFalse(Files.exists(out), "no folder: " + out);
                    try (var left = Files.list(mine)) {
                        assertEquals(0, left.count(), "the user's folder stays empty");
                    }
                    checked.add(r.name() + " " + o.name());
                }
            }
        }
        assertTrue(checked.size() >= 3 * 14, checked.toString());
    }

    @Test
    void anOptionOfAnotherNameIsUnknownHere() {
        Outcome x = lab(
                "reproduce", "lanes", "--runs", "3", "--out", tmp.resolve("l").toString());
        assertEquals(2, x.status(), x.err());
        assertTrue(x.err().contains("unknown option --runs") && x.err().contains("reproduce lanes"), x.err());
        assertFalse(Files.exists(tmp.resolve("l")));
        Outcome extra = lab(
                "reproduce", "kernel-bitmap", "stray", "--out", tmp.resolve("k").toString());
        assertEquals(2, extra.status(), extra.err());
        assertTrue(extra.err().contains("unexpected argument 'stray'"), extra.err());
        assertFalse(Files.exists(tmp.resolve("k")));
    }

    /** A number's value: the given one, else --quick's default, else the full one; out of range is refused. */
    @Test
    void aNumbersDefaultFollowsQuick() {
        ReproductionOption runs = ReproductionOption.count("--runs", "runs", 3, 7, 100);
        Set<String> flags = Set.of("--quick");
        Set<String> valued = Set.of("--runs");
        assertEquals(7, runs.number(Args.parse("t", List.of(), flags, valued)));
        assertEquals(3, runs.number(Args.parse("t", List.of("--quick"), flags, valued)));
        assertEquals(12, runs.number(Args.parse("t", List.of("--quick", "--runs", "12"), flags, valued)));
        BadInput e =
                assertThrows(BadInput.class, () -> runs.number(Args.parse("t", List.of("--runs=101"), flags, valued)));
        assertTrue(e.getMessage().contains("option --runs: 101 is out of range (1..100)"), e.getMessage());
        assertThrows(BadInput.class, () -> runs.number(Args.parse("t", List.of("--runs", "0"), flags, valued)));
        assertEquals("(quick: 3; full: 7)", runs.defaults().orElseThrow());
        assertEquals(
                "(default: 2)",
                ReproductionOption.cpu("--cpu", "c", 2).defaults().orElseThrow());
        assertTrue(ReproductionOption.flag("--x", "x").defaults().isEmpty());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ReproductionOption("runs", ReproductionOption.Kind.FLAG, "", "", null, null, 0, 0));
    }

    /**
     * An error the run itself finds (a --podman profile that parses only when the run compiles it) ends
     * through the same framework: status 2 naming the file and field, no folder of ours, the user's
     * own left empty, no child left running.
     */
    @Test
    void anErrorFoundDuringTheRunLeavesNoFolderAndNoChild() throws Exception {
        Path profile = tmp.resolve("bad.json");
        Files.writeString(
                profile,
                "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getpid\"],"
                        + "\"action\":\"SCMP_ACT_BOGUS\"}]}");
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        for (Path out : List.of(tmp.resolve("absent"), mine)) {
            Outcome x =
                    lab("reproduce", "attach-cost", "--quick", "--podman", profile.toString(), "--out", out.toString());
            assertEquals(2, x.status(), x.err());
            assertTrue(x.err().contains(profile.toString()) && x.err().contains("syscalls[0].action"), x.err());
            assertFalse(x.err().contains("\tat "), x.err());
            assertEquals(0, heimdall.lab.child.MeasuredChild.live(), "no child left running");
        }
        assertFalse(Files.exists(tmp.resolve("absent")), "no folder of ours");
        try (var left = Files.list(mine)) {
            assertEquals(0, left.count(), "the user's folder left empty");
        }
    }
}
