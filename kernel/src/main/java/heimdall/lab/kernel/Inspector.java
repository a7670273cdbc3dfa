package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import jdk.jshell.SourceCodeAnalysis;

/**
 * Shift-Tab inspection: the signatures (and, when the JDK's {@code lib/src.zip} or the library's
 * sources are there, the Javadoc) JShell finds for what the cursor is on, as {@code text/plain}.
 */
final class Inspector {
    private final SourceCodeAnalysis analysis;

    Inspector(SourceCodeAnalysis analysis) {
        this.analysis = analysis;
    }

    /** The documentation for the code at {@code at}, or null when JShell has none (Jupyter then shows nothing). */
    DisplayData inspect(String code, int at) {
        int cursor = Math.max(0, Math.min(at, code.length()));
        List<SourceCodeAnalysis.Documentation> docs = analysis.documentation(code, cursor, true);
        if (docs.isEmpty()) {
            // JShell documents a call only with the cursor past its '(': on a bare name, ask as if it were there.
            int end = cursor;
            while (end < code.length() && Character.isJavaIdentifierPart(code.charAt(end))) {
                end++;
            }
            if (end > 0 && Character.isJavaIdentifierPart(code.charAt(end - 1))) {
                String call = code.substring(0, end) + "(";
                docs = analysis.documentation(call, call.length(), true);
            }
        }
        if (docs.isEmpty()) {
            return null;
        }
        Set<String> parts = new LinkedHashSet<>();
        for (SourceCodeAnalysis.Documentation d : docs) {
            String javadoc = d.javadoc();
            parts.add(javadoc == null || javadoc.isBlank() ? d.signature() : d.signature() + "\n" + javadoc.strip());
        }
        return new DisplayData(String.join("\n\n", parts));
    }
}
