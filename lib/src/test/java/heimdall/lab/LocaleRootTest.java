package heimdall.lab;

import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No text of ours changes with the user's locale: every {@code String.format} and {@code printf} of the
 * main sources names {@code Locale.ROOT} (a German locale would write {@code 1,5} for 1.5 in a table.md),
 * no {@code "...".formatted(...)} (it has no locale parameter) and no {@code toUpperCase()} or
 * {@code toLowerCase()} without one (Turkish dotless i). A source scan, since the rule is about text.
 */
class LocaleRootTest {
    /** A formatting call and whatever follows its opening parenthesis. */
    private static final Pattern CALL =
            Pattern.compile("(String\\.format|\\.printf|\\.formatted|\\.toUpperCase|\\.toLowerCase)\\(\\s*(\\S{0,11})");

    @Test
    void everyFormattingCallOfTheMainSourcesNamesALocale() throws IOException {
        Path home = Fixtures.home();
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String root : List.of("lib/src/main/java", "kernel/src/main/java", "bench-jmh/src/main/java")) {
            Path dir = home.resolve(root);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            List<Path> sources;
            try (Stream<Path> s = Files.walk(dir)) {
                sources = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            }
            for (Path p : sources) {
                files++;
                found.addAll(offenders(home.relativize(p).toString(), Files.readString(p)));
            }
        }
        assertTrue(files > 300, "main sources read: " + files);
        assertTrue(
                found.isEmpty(),
                found.size() + " formatting call(s) without Locale.ROOT (String.format(Locale.ROOT, ...), "
                        + "toLowerCase(Locale.ROOT)):\n" + String.join("\n", found));
    }

    /** The scan itself finds each form it is meant to, and passes the ones naming a locale. */
    @Test
    void theScanFindsEachForm() {
        String bad = String.join(
                "\n",
                "String a = String.format(\"%.1f\", x);",
                "out.printf(\"%d%n\", n);",
                "String b = \"\"\"\n %s\"\"\".formatted(y);",
                "String c = name.toUpperCase();",
                "String d = name.toLowerCase( );",
                "String e = String.format(",
                "        \"%s\", z);");
        assertTrue(
                offenders("Bad.java", bad).size() == 6,
                offenders("Bad.java", bad).toString());
        String good = String.join(
                "\n",
                "String a = String.format(Locale.ROOT, \"%.1f\", x);",
                "out.printf(Locale.ROOT, \"%d%n\", n);",
                "String c = name.toUpperCase(Locale.ROOT);",
                "String e = String.format(",
                "        Locale.ROOT, \"%s\", z);",
                "char f = Character.toUpperCase(c);");
        assertTrue(
                offenders("Good.java", good).isEmpty(),
                offenders("Good.java", good).toString());
    }

    /** {@code file:line: text} for each call in {@code source} that names no locale. */
    static List<String> offenders(String file, String source) {
        List<String> found = new ArrayList<>();
        Matcher m = CALL.matcher(source);
        while (m.find()) {
            String call = m.group(1);
            String next = m.group(2);
            boolean ok = switch (call) {
                case ".formatted" -> false;
                case ".toUpperCase", ".toLowerCase" -> !next.startsWith(")");
                default -> next.startsWith("Locale.");
            };
            if (call.startsWith(".to") && isCharacterCall(source, m.start())) {
                ok = true; // Character.toUpperCase(char) is the same in every locale
            }
            if (!ok) {
                int line = (int) source.substring(0, m.start())
                                .chars()
                                .filter(c -> c == '\n')
                                .count()
                        + 1;
                String text =
                        source.lines().skip(line - 1).findFirst().orElse("").strip();
                found.add(String.format(Locale.ROOT, "%s:%d: %s", file, line, text));
            }
        }
        return found;
    }

    private static boolean isCharacterCall(String source, int at) {
        return source.startsWith("Character", Math.max(0, at - "Character".length()));
    }
}
