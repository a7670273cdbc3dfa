package heimdall.lab.kernel;

import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.Diag;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.Completeness;

/**
 * Evaluates a cell with JShell: splits it into snippets, evaluates them in order and returns the value
 * of the last one when it is an expression. Stops at the first snippet javac rejects or that throws.
 */
final class CellEvaluator implements AutoCloseable {
    private final InProcessExecution execution;
    private final JShell shell;
    /** Where each snippet came from, by JShell's snippet id: for stack traces that name the cell's line. */
    private final Map<String, Place> places = new ConcurrentHashMap<>();

    private volatile int cell;

    /** A snippet's first line: the cell it was in (its execution count) and the line there, from 1. */
    record Place(int cell, int line) {}

    /**
     * @param classpath entries the snippets compile and run against (the kernel's own class path, so
     *     the library is there, plus IJAVA_CLASSPATH)
     */
    CellEvaluator(
            List<String> classpath,
            List<String> compilerOptions,
            long timeoutMillis,
            PrintStream out,
            PrintStream err,
            InputStream in) {
        this.execution = new InProcessExecution(timeoutMillis);
        this.shell = JShell.builder()
                .executionEngine(execution.provider(), null)
                .compilerOptions(compilerOptions.toArray(new String[0]))
                .out(out)
                .err(err)
                .in(in)
                .build();
        for (String entry : classpath) {
            shell.addToClasspath(entry);
        }
    }

    JShell shell() {
        return shell;
    }

    /** Adds a class path entry for later snippets (compiler and class loader). */
    void addToClasspath(String entry) {
        shell.addToClasspath(entry);
    }

    /** The execution count of the cell whose snippets come next (0 outside cells: start-up scripts). */
    void startCell(int number) {
        cell = number;
    }

    /**
     * A stack frame as the user wrote it: a snippet's frame ({@code .(#51:1)}, JShell's snippet id and
     * the line in the snippet) names the cell's line, {@code at line 4 of cell [3] (snippet #51)}.
     */
    String place(StackTraceElement el) {
        String file = el.getFileName();
        Place p = file != null && file.startsWith("#") ? places.get(file.substring(1)) : null;
        if (p == null) {
            return el.toString();
        }
        int line = p.line + Math.max(1, el.getLineNumber()) - 1;
        String method =
                el.getMethodName().isEmpty() || el.getMethodName().equals("do_it$") ? "" : el.getMethodName() + ", ";
        return method + "line " + line + (p.cell > 0 ? " of cell [" + p.cell + "]" : " of the start-up script")
                + " (snippet " + file + ")";
    }

    /** Runs every snippet of {@code code}; the last expression's value, or null. */
    Object eval(String code) throws Exception {
        SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
        String rest = code;
        Object last = null;
        int number = cell;
        while (!rest.isBlank()) {
            // the line the snippet starts on: what was consumed, plus the blank lines it begins with
            int start = code.length() - rest.length();
            int lead = 0;
            while (lead < rest.length() && Character.isWhitespace(rest.charAt(lead))) {
                lead++;
            }
            int line = 1
                    + (int) code.substring(0, start + lead)
                            .chars()
                            .filter(ch -> ch == '\n')
                            .count();
            SourceCodeAnalysis.CompletionInfo info = analysis.analyzeCompletion(rest);
            Completeness c = info.completeness();
            if (c == Completeness.EMPTY) {
                break;
            }
            if (c == Completeness.DEFINITELY_INCOMPLETE) {
                throw new CellError.IncompleteInput(
                        "Incomplete input: " + firstLine(rest),
                        List.of("Incomplete input (an unclosed brace, parenthesis or string?):", rest.strip()));
            }
            String source = info.source() != null && c.isComplete() ? info.source() : rest;
            last = evalSnippet(source, new Place(number, line));
            rest = c.isComplete() ? info.remaining() : "";
        }
        return last;
    }

    private Object evalSnippet(String source, Place place) throws Exception {
        List<SnippetEvent> events = shell.eval(source);
        for (SnippetEvent e : events) {
            if (e.causeSnippet() == null) {
                places.put(e.snippet().id(), place);
            }
        }
        String stopped = execution.takeStopReason();
        Object value = null;
        for (SnippetEvent e : events) {
            // Values of other events (dependents re-evaluated) are dropped; take() frees them.
            Object v = execution.take(e.value());
            if (e.causeSnippet() != null) {
                continue;
            }
            if (stopped != null) {
                throw new CellError.EvaluationStopped(stopped, List.of(source.strip(), stopped));
            }
            JShellException thrown = e.exception();
            if (thrown != null) {
                throw thrown;
            }
            Snippet s = e.snippet();
            if (e.status() == Snippet.Status.REJECTED) {
                throw compilationError(s, place);
            }
            if (s.kind() == Snippet.Kind.EXPRESSION
                    || (s.kind() == Snippet.Kind.VAR && s.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND)) {
                value = v != null ? v : (InProcessExecution.isKey(e.value()) ? null : e.value());
            }
            if (e.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED && s instanceof DeclarationSnippet d) {
                System.err.println(
                        "note: " + d.source().strip().lines().findFirst().orElse("")
                                + " cannot be used until these are defined: "
                                + shell.unresolvedDependencies(d).collect(Collectors.joining(", ")));
            }
        }
        if (stopped != null) {
            throw new CellError.EvaluationStopped(stopped, List.of(source.strip(), stopped));
        }
        return value;
    }

    private CellError compilationError(Snippet s, Place place) {
        List<String> lines = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        for (Diag d : shell.diagnostics(s).collect(Collectors.toList())) {
            String msg = d.getMessage(Locale.ROOT);
            messages.add(
                    msg.lines().filter(l -> !l.strip().startsWith("location:")).collect(Collectors.joining("\n")));
            long pos = d.getStartPosition();
            // lines from the snippet's first non-blank one, where place.line() is (JShell's stack traces count so too)
            String src = s.source();
            int from = 0;
            while (from < src.length() && Character.isWhitespace(src.charAt(from))) {
                from++;
            }
            int at = pos < from || pos > src.length()
                    ? 0
                    : (int) src.substring(from, (int) pos)
                            .chars()
                            .filter(ch -> ch == '\n')
                            .count();
            lines.add("line " + (place.line() + at) + ": " + (d.isError() ? "error: " : "warning: ") + msg);
            lines.addAll(pointAt(s.source(), d));
        }
        if (s instanceof DeclarationSnippet d) {
            List<String> missing = shell.unresolvedDependencies(d).collect(Collectors.toList());
            if (!missing.isEmpty()) {
                String m = "unresolved: " + String.join(", ", missing);
                messages.add(m);
                lines.add(m);
            }
        }
        if (messages.isEmpty()) {
            messages.add("rejected by the compiler");
            lines.add(s.source());
        }
        return new CellError.CompilationError(String.join("\n", messages), lines);
    }

    /** The source line holding the diagnostic and a caret under its start, javac style. */
    private static List<String> pointAt(String source, Diag d) {
        long pos = d.getStartPosition();
        if (pos < 0 || pos > source.length()) {
            return List.of(source.strip());
        }
        int start = source.lastIndexOf('\n', (int) Math.max(0, pos - 1)) + 1;
        if (pos == 0) {
            start = 0;
        }
        int end = source.indexOf('\n', (int) pos);
        String line = source.substring(start, end < 0 ? source.length() : end);
        return List.of(line, " ".repeat((int) pos - start) + "^");
    }

    private static String firstLine(String s) {
        return s.strip().lines().findFirst().orElse("");
    }

    /** Stops the running snippet (Jupyter interrupt). */
    void interrupt() {
        shell.stop();
    }

    @Override
    public void close() {
        shell.close();
    }

    static List<String> splitPath(String path) {
        List<String> out = new ArrayList<>();
        for (String p : path.split(File.pathSeparator)) {
            if (!p.isBlank()) {
                out.add(p);
            }
        }
        return out;
    }
}
