package heimdall.lab.cli;

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
                .filter(c -> c.startsWith(word) || distance(word, c) <= Math.min(2, c.length() / 3 + 1))
                .toList();
    }

    /** Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
