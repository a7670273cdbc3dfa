package heimdall.lab.probe;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * x86_64 syscall names and numbers, read from the kernel's UAPI header
 * ({@code /usr/include/x86_64-linux-gnu/asm/unistd_64.h}, package {@code linux-libc-dev}).
 *
 * <p>A stop-gap with one job: the profile package is to carry a checked-in table, and this class is
 * the only place the probe learns names from, so swapping it for that table is a one-class change.
 */
public final class SyscallNames {
    /** Where Debian puts the x86_64 header. */
    public static final Path DEFAULT_HEADER = Path.of("/usr/include/x86_64-linux-gnu/asm/unistd_64.h");

    private static final Pattern DEFINE = Pattern.compile("^#define\\s+__NR_(\\w+)\\s+(\\d+)\\s*$");
    private static volatile SyscallNames x86_64;

    private final Map<Integer, String> byNumber;
    private final Map<String, Integer> byName;

    private SyscallNames(Map<Integer, String> byNumber, Map<String, Integer> byName) {
        this.byNumber = Collections.unmodifiableMap(byNumber);
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** The table of this machine's x86_64 header, read once; a refusal when the header is missing. */
    public static SyscallNames x86_64() {
        SyscallNames t = x86_64;
        if (t == null) {
            if (!Files.isReadable(DEFAULT_HEADER)) {
                throw new Refusal("syscall names: " + DEFAULT_HEADER + " is missing (install linux-libc-dev)");
            }
            t = x86_64 = parse(DEFAULT_HEADER);
        }
        return t;
    }

    /** Reads {@code #define __NR_name number} lines; bad input when none is found. */
    public static SyscallNames parse(Path header) {
        String text;
        try {
            text = Files.readString(header);
        } catch (IOException e) {
            throw new BadInput(header + ": cannot read: " + e.getMessage(), e);
        }
        Map<Integer, String> byNumber = new TreeMap<>();
        Map<String, Integer> byName = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher m = DEFINE.matcher(line.strip());
            if (m.matches()) {
                int nr = Integer.parseInt(m.group(2));
                byNumber.put(nr, m.group(1));
                byName.put(m.group(1), nr);
            }
        }
        if (byNumber.isEmpty()) {
            throw BadInput.at(header, "#define __NR_*", "no syscall numbers found");
        }
        return new SyscallNames(byNumber, byName);
    }

    /** The name of {@code nr}, or {@code syscall_<nr>} for a number the header does not know. */
    public String name(long nr) {
        String n = nr >= 0 && nr <= Integer.MAX_VALUE ? byNumber.get((int) nr) : null;
        return n != null ? n : "syscall_" + nr;
    }

    public Optional<Integer> number(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The number of {@code name}; bad input naming {@code where} when unknown. */
    public int require(String name, String where) {
        Integer nr = byName.get(name);
        if (nr == null) {
            throw new BadInput(where + ": unknown x86_64 syscall '" + name + "'");
        }
        return nr;
    }

    public int size() {
        return byNumber.size();
    }
}
