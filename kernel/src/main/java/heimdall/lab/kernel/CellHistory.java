package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import io.github.spencerpark.jupyter.kernel.history.HistoryManager;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The cells this kernel ran, for Jupyter's {@code history_request} (the console's up-arrow and
 * {@code %history} in frontends): the range, tail and search access types, in this session only
 * (session 0 in a request is the current one; nothing is written to disk).
 */
final class CellHistory implements HistoryManager {
    /** Jupyter numbers the running session 0 in requests; replies name it so too. */
    private static final int SESSION = 0;

    private record Cell(int number, String input, String output) {}

    private final List<Cell> cells = new ArrayList<>();

    synchronized void add(int number, String input, String output) {
        cells.add(new Cell(number, input, output));
    }

    @Override
    public synchronized List<HistoryEntry> lookupRange(int session, int start, int stop, Set<ResultFlag> flags) {
        List<HistoryEntry> out = new ArrayList<>();
        if (session != SESSION) {
            return out; // earlier sessions are not kept
        }
        for (Cell c : cells) {
            // Jupyter's range is [start, stop); stop 0 or less means "to the end"
            if (c.number >= start && (stop <= 0 || c.number < stop)) {
                out.add(entry(c, flags));
            }
        }
        return out;
    }

    @Override
    public synchronized List<HistoryEntry> lookupTail(int length, Set<ResultFlag> flags) {
        List<HistoryEntry> out = new ArrayList<>();
        for (int i = Math.max(0, cells.size() - Math.max(0, length)); i < cells.size(); i++) {
            out.add(entry(cells.get(i), flags));
        }
        return out;
    }

    /** {@code pattern} is a glob ({@code *} any text, {@code ?} one character), as IPython takes it. */
    @Override
    public synchronized List<HistoryEntry> search(String pattern, int length, Set<ResultFlag> flags) {
        Pattern glob = Pattern.compile(toRegex(pattern == null ? "*" : pattern), Pattern.DOTALL);
        List<HistoryEntry> found = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = cells.size() - 1; i >= 0 && (length <= 0 || found.size() < length); i--) {
            Cell c = cells.get(i);
            if (glob.matcher(c.input).matches() && (!flags.contains(ResultFlag.UNIQUE) || seen.add(c.input))) {
                found.add(0, entry(c, flags));
            }
        }
        return found;
    }

    private static HistoryEntry entry(Cell c, Set<ResultFlag> flags) {
        return flags.contains(ResultFlag.INCLUDE_OUTPUT) && c.output != null
                ? new HistoryEntry(SESSION, c.number, c.input, c.output)
                : new HistoryEntry(SESSION, c.number, c.input);
    }

    private static String toRegex(String glob) {
        StringBuilder b = new StringBuilder();
        for (char ch : glob.toCharArray()) {
            switch (ch) {
                case '*' -> b.append(".*");
                case '?' -> b.append('.');
                default -> b.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return b.toString();
    }
}
