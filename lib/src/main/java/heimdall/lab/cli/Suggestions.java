package heimdall.lab.cli;

import heimdall.lab.EditDistance;
import java.util.Collection;
import java.util.List;

/**
 * Near matches for a mistyped command word: a typo or two away (a transposition counts one:
 * {@code grpah} is {@code graph}) or a prefix of it ({@code repro}). picocli's own suggestions
 * compare letter pairs, which misses short transpositions ({@code bfp}) and offers unrelated words.
 */
final class Suggestions {
    private Suggestions() {}

    /** The candidates near {@code word}, in the candidates' order. */
    static List<String> near(String word, Collection<String> candidates) {
        if (word.length() < 2) {
            return List.of();
        }
        // two edits at most, one for names shorter than three letters
        return candidates.stream()
                .filter(c -> c.startsWith(word) || EditDistance.between(word, c) <= Math.min(2, c.length() / 3 + 1))
                .toList();
    }
}
