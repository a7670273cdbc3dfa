package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import heimdall.lab.child.MeasuredChild;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a block may leave behind: runner children, and scratch folders under java.io.tmpdir with the
 * explore blocks' own prefixes (the machine's /tmp is shared with other runs, whose folders are not ours).
 */
final class Leftovers {
    private final Set<String> before;

    private Leftovers(Set<String> before) {
        this.before = before;
    }

    static Leftovers now() {
        return new Leftovers(scratch());
    }

    /** No child running, and no scratch folder of ours made since {@link #now()}. */
    void assertNone() {
        assertEquals(0, MeasuredChild.live(), "runner children left running");
        Set<String> after = scratch();
        after.removeAll(before);
        assertEquals(Set.of(), after, "scratch folders left behind");
    }

    private static Set<String> scratch() {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("heimdall-lab-explore-") || n.startsWith("heimdall-lab-record-"))
                    .collect(Collectors.toCollection(java.util.HashSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
