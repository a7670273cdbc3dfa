package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownTableTest {
    @Test
    void rendersHeaderRuleAndEscapedCells() {
        String md = new MarkdownTable(List.of("what", "call"))
                .row(List.of("a|b", "`getppid`"))
                .render();
        assertEquals("| what | call |\n| --- | --- |\n| a\\|b | `getppid` |\n", md);
        assertThrows(IllegalArgumentException.class, () -> new MarkdownTable(List.of("x")).row(List.of("1", "2")));
    }

    @Test
    void figuresFormattedAsPublished() {
        assertEquals("1,833 ns", MarkdownTable.ns(1833));
        assertEquals("+20 ns", MarkdownTable.added(20));
        assertEquals("+4.5 µs", MarkdownTable.added(4459));
        assertEquals("-3 ns", MarkdownTable.added(-3));
        assertEquals("2,395 ns", MarkdownTable.tail(2395));
        assertEquals("122 µs", MarkdownTable.tail(122_000));
        assertEquals("1.0 ms", MarkdownTable.tail(1_000_400));
    }
}
