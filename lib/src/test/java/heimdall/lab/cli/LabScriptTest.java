package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./lab}'s own commands (test, kernel, jshell) are handled by the script before it runs {@code Main};
 * each must leave the script itself. One that falls through runs {@code Main} with what is left of its
 * arguments, prints the usage and exits 2 — after every step of {@code ./lab test} had passed, which is how a
 * CI run once failed.
 */
class LabScriptTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize().resolve("lab");
    private static final Pattern BRANCH = Pattern.compile("^  ([a-z-]+)\\)\\s*$");

    @Test
    void everyCommandTheScriptHandlesEndsByExitOrExec() throws IOException {
        Map<String, String> lastLines = branchEndings(Files.readAllLines(LAB, StandardCharsets.UTF_8));
        assertEquals(List.of("test", "kernel", "jshell"), List.copyOf(lastLines.keySet()), "the script's own commands");
        lastLines.forEach((command, last) -> assertTrue(
                last.startsWith("exit") || last.startsWith("exec "),
                "./lab " + command + " falls through to Main (its branch ends with: " + last + ")"));
    }

    /** The first {@code case "${1:-}" in} block: each branch's name and its last command before {@code ;;}. */
    private static Map<String, String> branchEndings(List<String> lines) {
        Map<String, String> endings = new LinkedHashMap<>();
        int start = lines.indexOf("case \"${1:-}\" in");
        assertTrue(start >= 0, LAB + ": no case \"${1:-}\" in block");
        String branch = null;
        List<String> body = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.equals("esac")) {
                break;
            }
            Matcher m = BRANCH.matcher(line);
            if (m.matches()) {
                branch = m.group(1);
                body.clear();
            } else if (line.trim().equals(";;")) {
                String last = "";
                for (String l : body) {
                    String t = l.trim();
                    if (!t.isEmpty() && !t.startsWith("#")) {
                        last = t;
                    }
                }
                // a command continued over lines ends where it began
                for (int i = body.size() - 1; i > 0 && body.get(i - 1).trim().endsWith("\\"); i--) {
                    last = body.get(i - 1).trim();
                }
                endings.put(branch, last);
            } else {
                body.add(line);
            }
        }
        return endings;
    }
}
