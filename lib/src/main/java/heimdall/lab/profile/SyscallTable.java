package heimdall.lab.profile;

import heimdall.lab.BadInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * System call names and numbers of one architecture, as generated from the kernel headers by
 * {@link SyscallTableGenerator} and checked in as a resource whose first line names its source.
 */
public final class SyscallTable {
    /** The checked-in x86_64 table's resource path. */
    public static final String X86_64_RESOURCE = "/heimdall/profile/syscalls-x86_64.tsv";

    private static volatile SyscallTable x86;

    private final String source;
    private final Map<String, Integer> byName;
    private final TreeMap<Integer, String> byNumber;

    private SyscallTable(String source, Map<String, Integer> byName) {
        this.source = source;
        this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
        this.byNumber = new TreeMap<>();
        byName.forEach((n, nr) -> byNumber.putIfAbsent(nr, n));
    }

    /** The x86_64 table shipped with the library. */
    public static SyscallTable x86_64() {
        SyscallTable t = x86;
        if (t == null) {
            try (InputStream in = SyscallTable.class.getResourceAsStream(X86_64_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("resource " + X86_64_RESOURCE + " missing from the class path");
                }
                t = parse(in, X86_64_RESOURCE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            x86 = t;
        }
        return t;
    }

    /**
     * Reads a table in the resource format: a first line {@code # source: ...}, then one
     * {@code name<TAB>number} a line.
     */
    public static SyscallTable parse(InputStream in, String what) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String first = r.readLine();
        if (first == null || !first.startsWith("# source: ")) {
            throw BadInput.at(what, "line 1", "expected '# source: ...' naming where the table came from");
        }
        Map<String, Integer> names = new LinkedHashMap<>();
        String line;
        int lineNo = 1;
        while ((line = r.readLine()) != null) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\t");
            if (parts.length != 2) {
                throw BadInput.at(what, "line " + lineNo, "expected name<TAB>number");
            }
            try {
                names.put(parts[0], Integer.parseInt(parts[1]));
            } catch (NumberFormatException e) {
                throw BadInput.at(what, "line " + lineNo, "'" + parts[1] + "' is not a number");
            }
        }
        return new SyscallTable(first.substring("# source: ".length()), names);
    }

    /** Where the table came from: header file and package version. */
    public String source() {
        return source;
    }

    public OptionalInt number(String name) {
        Integer nr = byName.get(name);
        return nr == null ? OptionalInt.empty() : OptionalInt.of(nr);
    }

    public Optional<String> name(int nr) {
        return Optional.ofNullable(byNumber.get(nr));
    }

    /** Every number in the table, ascending. */
    public List<Integer> numbers() {
        return List.copyOf(byNumber.keySet());
    }

    /** Names to numbers, in the header's order. */
    public Map<String, Integer> byName() {
        return byName;
    }

    /** The highest number in the table. */
    public int maxNumber() {
        return byNumber.lastKey();
    }
}
