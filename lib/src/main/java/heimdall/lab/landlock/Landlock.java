package heimdall.lab.landlock;

import heimdall.lab.BadInput;
import heimdall.lab.sys.NativeLib;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Landlock ruleset, described here and built by the measured child itself (after {@code no_new_privs},
 * before any seccomp program): it confines the child alone, under a floor, or beside a broker.
 * {@code Lab.landlock().readBeneath(in)} is the broker's policy in Landlock's terms.
 *
 * <p><b>What it confines.</b> The ruleset <em>handles</em> a set of rights ({@link #handled()}; by default
 * every file-system right up to ABI 5, {@link #DEFAULT_HANDLED}): each handled right is denied everywhere
 * except beneath a rule's directory that allows it. Landlock decides on the file reached, by where it sits
 * in the hierarchy, whatever name reached it: a symbolic link, {@code ..}, an absolute name or a hard link
 * all count for the file they end at, not for the name. Rights by ABI: opening for reading, writing and
 * executing, listing a directory, making and removing entries (1, Linux 5.13); linking or renaming into
 * another directory, {@link LandlockRight#REFER} (2, 5.19; before it such moves are always denied);
 * truncation (3, 6.2); TCP bind and connect (4, 6.7); ioctl on devices (5, 6.10); abstract unix sockets and
 * signals outside the domain, as scopes (6, 6.12). ABI 7 (6.15) adds audit flags, no right.
 *
 * <p><b>What it does not.</b> {@code stat}, {@code access}, {@code readlink} and path lookup itself are never
 * confined (no right covers reading attributes, in any ABI so far): a child under {@code readBeneath(in)}
 * still learns whether {@code /etc/shadow} exists and its size. Descriptors the child already holds (opened
 * before {@code landlock_restrict_self}, inherited, or passed over a socket, such as a broker's injected file)
 * are not checked again: Landlock checks at open time. {@code chdir}, {@code fchdir} and {@code *at} calls from
 * a held directory are not refused as such (what they then open is). Rights the kernel's ABI lacks are not
 * confined at all on that kernel: {@link LandlockPlan} refuses such a ruleset unless {@link #withBestEffort()} was
 * asked for, and then names every right dropped. A rule's directory is resolved when the child opens it; a
 * name that does not exist there fails the run ({@code HL_EXIT_LANDLOCK}, step "opening a rule's path").
 *
 * @param handled the rights the ruleset handles (denied unless a rule allows them)
 * @param rules directories and what each allows beneath it
 * @param bestEffort drop the handled rights the kernel's ABI lacks (each named in a warning) rather than refuse
 */
public record Landlock(Set<LandlockRight> handled, List<Rule> rules, boolean bestEffort) {

    /** Every file-system right (ABI 5's set): a new ruleset denies all file access but what its rules allow. */
    public static final Set<LandlockRight> DEFAULT_HANDLED = EnumSet.copyOf(LandlockRight.knownBy(5).stream()
            .filter(r -> r.kind() == LandlockRight.Kind.FS)
            .toList());

    /** The most rules a child builds (hl_landlock.h). */
    public static final int MAX_RULES = 64;

    /** The description's magic, "HLLL" read little endian (hl_landlock.h). */
    static final int MAGIC = 0x4c4c4c48;

    static final int HEAD = 40;
    static final int PATH_MAX = 4096;

    /**
     * One rule: {@code allowed} beneath {@code dir}.
     *
     * @param dir an absolute path, opened by the child ({@code O_PATH}); a file that is not a directory
     *     keeps only {@link LandlockRight#FILE_RIGHTS} of {@code allowed} (the kernel refuses the others there)
     * @param allowed file-system rights, each one the ruleset handles
     */
    public record Rule(Path dir, Set<LandlockRight> allowed) {
        public Rule {
            Objects.requireNonNull(dir, "dir");
            dir = dir.toAbsolutePath();
            allowed = Set.copyOf(allowed);
            if (allowed.isEmpty()) {
                throw bad("rule " + dir, "allows nothing");
            }
            for (LandlockRight r : allowed) {
                if (r.kind() != LandlockRight.Kind.FS) {
                    throw bad("rule " + dir, r.label() + " is not a file-system right");
                }
            }
            byte[] b = dir.toString().getBytes(StandardCharsets.UTF_8);
            if (b.length + 1 > PATH_MAX || dir.toString().indexOf('\0') >= 0) {
                throw bad("rule " + dir, "the path is longer than " + (PATH_MAX - 1) + " bytes or holds a NUL");
            }
        }
    }

    public Landlock {
        handled = handled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(handled));
        rules = List.copyOf(rules);
        if (handled.isEmpty()) {
            throw bad("handled", "a ruleset that handles no right confines nothing");
        }
        if (rules.size() > MAX_RULES) {
            throw bad("rules", "at most " + MAX_RULES + ", got " + rules.size());
        }
        for (Rule r : rules) {
            for (LandlockRight a : r.allowed()) {
                if (!handled.contains(a)) {
                    throw bad("rule " + r.dir(), a.label() + " is allowed but not handled by the ruleset");
                }
            }
        }
    }

    /** A ruleset handling {@link #DEFAULT_HANDLED}, no rule yet: every file access denied. */
    public static Landlock create() {
        return new Landlock(DEFAULT_HANDLED, List.of(), false);
    }

    /** Reading files and listing directories beneath {@code dir} ({@code READ_FILE}, {@code READ_DIR}). */
    public Landlock readBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.READ_FILE, LandlockRight.READ_DIR);
    }

    /** Writing the files beneath {@code dir} ({@code WRITE_FILE}; truncating needs {@link #truncateBeneath}). */
    public Landlock writeBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.WRITE_FILE);
    }

    /** Executing the files beneath {@code dir} ({@code EXECUTE}: execve and the loader's mappings). */
    public Landlock executeBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.EXECUTE);
    }

    /** Linking or renaming files into and out of {@code dir}'s hierarchy ({@code REFER}, ABI 2). */
    public Landlock referBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.REFER);
    }

    /** Truncating the files beneath {@code dir} ({@code TRUNCATE}, ABI 3). */
    public Landlock truncateBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.TRUNCATE);
    }

    /** ioctl on the devices beneath {@code dir} ({@code IOCTL_DEV}, ABI 5). */
    public Landlock ioctlDevBeneath(Path dir) {
        return allowBeneath(dir, LandlockRight.IOCTL_DEV);
    }

    /** {@code rights} beneath {@code dir}: one more rule. */
    public Landlock allowBeneath(Path dir, LandlockRight... rights) {
        List<Rule> more = new ArrayList<>(rules);
        more.add(new Rule(dir, Set.of(rights)));
        return new Landlock(handled, more, bestEffort);
    }

    /** Handle exactly the file-system rights ABI {@code abi} knows (and the other kinds already handled). */
    public Landlock handlingFsUpToAbi(int abi) {
        Set<LandlockRight> h = EnumSet.noneOf(LandlockRight.class);
        for (LandlockRight r : LandlockRight.knownBy(abi)) {
            if (r.kind() == LandlockRight.Kind.FS) {
                h.add(r);
            }
        }
        handled.stream().filter(r -> r.kind() != LandlockRight.Kind.FS).forEach(h::add);
        return new Landlock(h, rules, bestEffort);
    }

    /** Deny connecting to abstract unix sockets made outside the domain (scope, ABI 6). */
    public Landlock scopeAbstractUnixSockets() {
        return handling(LandlockRight.SCOPE_ABSTRACT_UNIX_SOCKET);
    }

    /** Deny signalling processes outside the domain (scope, ABI 6). */
    public Landlock scopeSignals() {
        return handling(LandlockRight.SCOPE_SIGNAL);
    }

    /** Deny every TCP bind and connect (ABI 4; no port rules are offered here). */
    public Landlock denyTcp() {
        return handling(LandlockRight.BIND_TCP, LandlockRight.CONNECT_TCP);
    }

    /** Handle {@code rights} too. */
    public Landlock handling(LandlockRight... rights) {
        Set<LandlockRight> h = EnumSet.copyOf(handled);
        h.addAll(List.of(rights));
        return new Landlock(h, rules, bestEffort);
    }

    /** Drop the rights a kernel's ABI lacks, each named in a warning, rather than refuse ({@link LandlockPlan}). */
    public Landlock withBestEffort() {
        return new Landlock(handled, rules, true);
    }

    /** What this ruleset becomes on a kernel answering ABI {@code abi} (0: no Landlock); refused there or not. */
    public LandlockPlan plan(int abi) {
        return LandlockPlan.of(this, abi);
    }

    /** The ABI this kernel answers: {@code landlock_create_ruleset(NULL, 0, VERSION)}, 0 without Landlock. */
    public static int kernelAbi() {
        return Math.max(0, NativeLib.hl_landlock_abi_now());
    }

    /** The description the child reads (hl_landlock.h), as asked: the child checks it against its kernel again. */
    public byte[] encode() {
        List<byte[]> paths = new ArrayList<>();
        int size = HEAD;
        for (Rule r : rules) {
            byte[] p = r.dir().toString().getBytes(StandardCharsets.UTF_8);
            paths.add(p);
            size += 16 + pad8(p.length + 1);
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, MAGIC);
        b.putInt(4, bestEffort ? 1 : 0);
        b.putLong(8, LandlockRight.mask(handled, LandlockRight.Kind.FS));
        b.putLong(16, LandlockRight.mask(handled, LandlockRight.Kind.NET));
        b.putLong(24, LandlockRight.mask(handled, LandlockRight.Kind.SCOPE));
        b.putInt(32, rules.size());
        int at = HEAD;
        for (int i = 0; i < rules.size(); i++) {
            byte[] p = paths.get(i);
            b.putLong(at, LandlockRight.mask(rules.get(i).allowed(), LandlockRight.Kind.FS));
            b.putInt(at + 8, p.length + 1);
            b.put(at + 16, p);
            at += 16 + pad8(p.length + 1);
        }
        return b.array();
    }

    private static int pad8(int n) {
        return (n + 7) & ~7;
    }

    /** {@code readBeneath(/x) handling 16 rights} */
    @Override
    public String toString() {
        String r = rules.stream()
                .map(x ->
                        x.allowed().stream().map(LandlockRight::label).sorted().collect(Collectors.joining("+"))
                                + " beneath " + x.dir())
                .collect(Collectors.joining("; "));
        return "landlock(" + (r.isEmpty() ? "no rule" : r) + "; handles " + handled.size() + " rights"
                + (bestEffort ? ", best effort" : "") + ")";
    }

    static BadInput bad(String field, String reason) {
        return BadInput.at("landlock ruleset", field, reason);
    }

    /** For tests and plans: the rights of {@code kind} among {@code rights}. */
    static Set<LandlockRight> only(Collection<LandlockRight> rights, LandlockRight.Kind kind) {
        Set<LandlockRight> s = EnumSet.noneOf(LandlockRight.class);
        rights.stream().filter(r -> r.kind() == kind).forEach(s::add);
        return s;
    }
}
