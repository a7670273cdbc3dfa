package heimdall.lab.reproduce.mechanisms;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.Errno;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.floor.Floor;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The two policies' decisions on the same names: Landlock's {@code readBeneath(in/)} against the broker
 * (the broker floor, BROKER answer, both supervisors), each name opened once by a fresh measured child from
 * {@code in/}. Landlock decides on the file reached, by where it sits; the broker on the name, resolved
 * beneath {@code in/} ({@code RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS}), then on what it found (a regular file
 * with one link). Each case says what each is expected to answer and why; a case that answers otherwise is
 * reported, never hidden.
 */
final class DecisionGrid {
    private DecisionGrid() {}

    /** What a policy does with a name. */
    enum Decision {
        ADMIT,
        REFUSE;

        String word() {
            return this == ADMIT ? "admit" : "refuse";
        }
    }

    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final int O_NONBLOCK = 0x800;
    private static final int O_DIRECTORY = 0x10000;

    /**
     * One name of the grid.
     *
     * @param name the name given, from {@code in/}
     * @param what what it is, in words
     * @param flags the open flags besides {@code O_RDONLY|O_CLOEXEC}
     * @param landlock what Landlock is expected to decide
     * @param broker what the broker is expected to decide
     * @param why the reason, for a difference; the shared reason otherwise
     * @param needsRoot made only as root (a device node, another user's file)
     */
    record Case(
            String name, String what, int flags, Decision landlock, Decision broker, String why, boolean needsRoot) {
        boolean equal() {
            return landlock == broker;
        }
    }

    /** The grid; {@link #make} plants what each name needs. */
    static final List<Case> CASES = List.of(
            new Case(
                    "data.txt",
                    "a regular file inside",
                    0,
                    Decision.ADMIT,
                    Decision.ADMIT,
                    "both admit a file beneath in/",
                    false),
            new Case(
                    "../out/secret.txt",
                    "a file outside",
                    0,
                    Decision.REFUSE,
                    Decision.REFUSE,
                    "both refuse a file outside in/",
                    false),
            new Case(
                    "sub/../data.txt",
                    "`..` that stays inside",
                    0,
                    Decision.ADMIT,
                    Decision.ADMIT,
                    "RESOLVE_BENEATH allows a `..` that does not leave in/; Landlock sees the file reached",
                    false),
            new Case(
                    "../in/data.txt",
                    "`..` out and back in",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the name leaves in/ before it comes back: RESOLVE_BENEATH refuses any walk above in/ (the broker answers EACCES);"
                            + " Landlock judges only the file reached, which is beneath in/",
                    false),
            new Case(
                    "link-in",
                    "a symlink inside, pointing in",
                    0,
                    Decision.ADMIT,
                    Decision.ADMIT,
                    "both follow a relative link that stays beneath in/",
                    false),
            new Case(
                    "link-out",
                    "a symlink inside, pointing out",
                    0,
                    Decision.REFUSE,
                    Decision.REFUSE,
                    "both refuse: the broker's walk leaves in/, Landlock's file is outside",
                    false),
            new Case(
                    "../out/link-in",
                    "a symlink outside, pointing in",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the name starts outside in/ (`..`): the broker refuses the name; Landlock admits the file it "
                            + "ends at, beneath in/",
                    false),
            new Case(
                    "abs-link-in",
                    "an absolute symlink inside, pointing in",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "RESOLVE_BENEATH refuses an absolute link even to a file beneath in/; Landlock admits the file",
                    false),
            new Case(
                    "hard-out",
                    "a hard link made inside, of a file outside",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "Landlock sees the link's place in the hierarchy (beneath in/), not the inode's other names, "
                            + "so whoever can link into in/ widens it; the broker refuses any file with more than one"
                            + " link",
                    false),
            new Case(
                    "twice.txt",
                    "a file inside with a second link inside",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the broker refuses every extra hard link (it cannot know where the others are); Landlock "
                            + "admits",
                    false),
            new Case(
                    "fifo",
                    "a FIFO inside (O_NONBLOCK)",
                    O_NONBLOCK,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the broker opens only regular files; Landlock's READ_FILE covers opening any file beneath for"
                            + " reading, a FIFO included",
                    false),
            new Case(
                    "sub",
                    "a directory inside (O_DIRECTORY)",
                    O_DIRECTORY,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the broker hands out no directory unless the policy opts in (Policy.allowingDirectories(),"
                            + " and then a detached read-only clone whose .. leads nowhere): a directory descriptor"
                            + " lets every *at call and fchdir walk out of a jail; Landlock's READ_DIR admits listing"
                            + " beneath in/, its rules still judging what is opened from it",
                    false),
            new Case(
                    "sub",
                    "a directory inside, opened read-only without O_DIRECTORY",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the broker hands out no directory by default, with or without O_DIRECTORY; Landlock "
                            + "refuses nothing for a directory opened read-only beneath in/ (READ_DIR)",
                    false),
            new Case(
                    ".",
                    "in/ itself (O_DIRECTORY)",
                    O_DIRECTORY,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "a Landlock rule covers its own directory; the broker hands out no directory by default (in/"
                            + " itself included)",
                    false),
            new Case(
                    "../out",
                    "a directory outside (O_DIRECTORY)",
                    O_DIRECTORY,
                    Decision.REFUSE,
                    Decision.REFUSE,
                    "both refuse a directory outside in/",
                    false),
            new Case(
                    "null",
                    "a character device inside (1:3, /dev/null's)",
                    0,
                    Decision.ADMIT,
                    Decision.REFUSE,
                    "the broker opens only regular files; Landlock admits reading a device beneath in/ (only its "
                            + "ioctls are a right of their own, IOCTL_DEV)",
                    true),
            new Case(
                    "other-user.txt",
                    "another user's file inside (uid 65534, mode 0600)",
                    0,
                    Decision.ADMIT,
                    Decision.ADMIT,
                    "neither looks at ownership: the kernel's permission check does, and the child "
                            + "here runs as root (the broker opens with the caller's credentials, so it reads no "
                            + "more than the child could)",
                    true),
            new Case(
                    "missing.txt",
                    "a name that does not exist inside",
                    0,
                    Decision.REFUSE,
                    Decision.REFUSE,
                    "nothing to open (ENOENT) under either",
                    false));

    /**
     * One name's answers.
     *
     * @param name the name given
     * @param what what it is
     * @param landlock Landlock's answer ({@code admit}, or {@code refuse (ERRNO)})
     * @param brokerNative the native supervisor's answer
     * @param brokerJava the Java supervisor's answer
     * @param equal whether Landlock and both brokers decide alike
     * @param expected whether every answer is the one {@link Case} expects
     * @param why the reason for the difference (or the shared answer)
     */
    record Outcome(
            @JsonProperty("name") String name,
            @JsonProperty("what") String what,
            @JsonProperty("landlock") String landlock,
            @JsonProperty("broker_native") String brokerNative,
            @JsonProperty("broker_java") String brokerJava,
            @JsonProperty("equal") boolean equal,
            @JsonProperty("as_expected") boolean expected,
            @JsonProperty("why") String why) {}

    /**
     * Plants the grid's names in a fresh {@code in/} and {@code out/} under {@code dir} (made by us, empty);
     * returns {@code in/}. Cases that need root are left out (and so answered ENOENT) when not root.
     */
    static Path make(Path dir, boolean root) {
        try {
            Path in = Files.createDirectory(dir.resolve("in"));
            Path out = Files.createDirectory(dir.resolve("out"));
            text(in.resolve("data.txt"));
            text(out.resolve("secret.txt"));
            Files.createDirectory(in.resolve("sub"));
            Files.createSymbolicLink(in.resolve("link-in"), Path.of("data.txt"));
            Files.createSymbolicLink(in.resolve("link-out"), Path.of("../out/secret.txt"));
            Files.createSymbolicLink(out.resolve("link-in"), Path.of("../in/data.txt"));
            Files.createSymbolicLink(
                    in.resolve("abs-link-in"), in.resolve("data.txt").toAbsolutePath());
            text(out.resolve("linked.txt"));
            Files.createLink(in.resolve("hard-out"), out.resolve("linked.txt"));
            text(in.resolve("twice.txt"));
            Files.createLink(in.resolve("twice-2.txt"), in.resolve("twice.txt"));
            run("mkfifo", "-m", "0644", in.resolve("fifo").toString());
            if (root) {
                run("mknod", "-m", "0666", in.resolve("null").toString(), "c", "1", "3");
                Path other = text(in.resolve("other-user.txt"));
                Files.setAttribute(other, "unix:mode", 0600);
                Files.setAttribute(other, "unix:uid", 65534);
                Files.setAttribute(other, "unix:gid", 65534);
            }
            return in;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot plant the decision grid in " + dir, e);
        }
    }

    private static Path text(Path file) throws IOException {
        return SafeFiles.writeNew(file, "heimdall-lab: a name of the decision grid\n".getBytes(StandardCharsets.UTF_8));
    }

    private static void run(String... argv) throws IOException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        try {
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", argv) + " failed: " + said);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", argv) + " was interrupted", e);
        }
    }

    /** Asks both policies about every case (each name one fresh child per policy and supervisor). */
    static List<Outcome> decide(
            Path in, Floor brokerFloor, int cpu, int supervisorCpu, boolean root, String landlockRefusal) {
        Landlock ll = Landlock.create().readBeneath(in);
        List<Outcome> out = new ArrayList<>();
        for (Case c : CASES) {
            if (c.needsRoot() && !root) {
                continue;
            }
            Call call = Call.openatFrom(in, c.name(), O_RDONLY_CLOEXEC | c.flags());
            ChildSpec spec = ChildSpec.of(call, 0, 1).withCpu(cpu);
            String landlock = landlockRefusal != null
                    ? "not run: " + landlockRefusal
                    : answer(MeasuredChild.run(spec.withLandlock(ll)));
            String nat = answer(Brokered.run(
                    spec.withPrograms(brokerFloor.bytes()),
                    brokerFloor,
                    Supervisor.Kind.NATIVE,
                    Answer.BROKER,
                    supervisorCpu,
                    in));
            String java = answer(Brokered.run(
                    spec.withPrograms(brokerFloor.bytes()),
                    brokerFloor,
                    Supervisor.Kind.JAVA,
                    Answer.BROKER,
                    supervisorCpu,
                    in));
            boolean equal = decision(landlock) == decision(nat) && decision(nat) == decision(java);
            boolean expected =
                    decision(landlock) == c.landlock() && decision(nat) == c.broker() && decision(java) == c.broker();
            out.add(new Outcome(c.name(), c.what(), landlock, nat, java, equal, expected, c.why()));
        }
        return out;
    }

    private static String answer(ChildResult r) {
        if (!r.completed()) {
            return "failed: " + r.outcome();
        }
        return r.lastErrno() == 0 ? "admit" : "refuse (" + Errno.name(r.lastErrno()) + ")";
    }

    static Decision decision(String answer) {
        return answer.equals("admit") ? Decision.ADMIT : Decision.REFUSE;
    }
}
