package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.JupyterSocket;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.history.HistoryManager;
import io.github.spencerpark.jupyter.kernel.magic.MagicParser;
import io.github.spencerpark.jupyter.kernel.magic.common.Load;
import io.github.spencerpark.jupyter.kernel.magic.registry.Magics;
import io.github.spencerpark.jupyter.kernel.magic.registry.UndefinedMagicException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Collectors;
import jdk.jshell.EvalException;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.UnresolvedReferenceException;

/**
 * A Jupyter kernel for Java with heimdall-lab on its class path: cells run in JShell inside this JVM,
 * IJava's and JJava's magics ({@code %classpath}, {@code %jars}, {@code %load}, {@code %maven} alias
 * {@code %addMavenDependency}, {@code %mavenRepo} alias {@code %addMavenRepo}, {@code %loadFromPOM},
 * {@code %%loadFromPOM}, {@code %time}, {@code %%time}, {@code %lsmagic}; inline as values too), their
 * notebook functions ({@link Notebook}), Shift-Tab inspection with the library's Javadoc
 * ({@link LibrarySources}), history and {@code is_complete} requests and environment variables
 * ({@link KernelEnv}) work as in IJava, images and XChart charts come back as {@code image/png} and
 * Tablesaw tables as {@code text/html}.
 *
 * <p>Started by Jupyter with the connection file as its only argument (see {@link KernelInstall}).
 */
public final class LabKernel extends BaseKernel {
    private static volatile LabKernel instance;

    private final CellEvaluator evaluator;
    private final Magics magics = new Magics();
    /** IJava's magic syntax: at the start of a line, or inline after {@code =} ({@code List<String> a = %jars x}). */
    private final MagicParser magicParser = new MagicParser("(?:^|(?<==))[ \\t]*%", "%%");

    private final CellHistory history = new CellHistory();
    private final LanguageInfo languageInfo;
    private final MavenResolver resolver = new MavenResolver(MavenResolver.defaultLocalRepository());
    private final Inspector inspector;

    /** A kernel configured from {@code env} (normally {@link System#getenv()}). */
    public LabKernel(Map<String, String> env) throws Exception {
        KernelEnv config = KernelEnv.from(env);
        List<String> classpath = new ArrayList<>(CellEvaluator.splitPath(System.getProperty("java.class.path", "")));
        classpath.removeIf(LibrarySources::isSourcesJar);
        classpath.addAll(config.classpath());
        LibrarySources.install();
        this.evaluator = new CellEvaluator(
                classpath, config.compilerOptions(), config.timeoutMillis(), System.out, System.err, System.in);
        this.languageInfo = new LanguageInfo.Builder("java")
                .version(Runtime.version().toString())
                .mimetype("text/x-java-source")
                .fileExtension(".jshell")
                .pygments("java")
                .codemirror("java")
                .build();

        magics.registerMagics(new ClasspathMagics(evaluator::addToClasspath));
        magics.registerMagics(new Load(List.of(".jsh", ".jshell", ".java", ".ijava"), this::evalCell));

        magics.registerMagics(new MavenMagics(resolver, evaluator::addToClasspath));
        magics.registerMagics(new PomMagics(resolver, evaluator::addToClasspath));
        magics.registerMagics(new LsMagic());
        // the same registration stock IJava/JJava users run by hand
        KernelRenderers.registerWith(renderer);
        this.inspector = new Inspector(evaluator.shell().sourceCodeAnalysis());

        instance = this;
        runStartup(config);
    }

    /** The kernel this JVM runs, for {@link Notebook}; null outside a kernel. */
    static LabKernel instance() {
        return instance;
    }

    private void runStartup(KernelEnv config) throws Exception {
        evalStartup("kernel imports", "import static heimdall.lab.kernel.Notebook.*;");
        try (InputStream lab = LabKernel.class.getResourceAsStream("lab.jsh")) {
            if (lab == null) {
                throw new IllegalStateException("lab.jsh missing from the kernel jar");
            }
            evalStartup("lab.jsh", new String(lab.readAllBytes(), StandardCharsets.UTF_8));
        }
        for (Path script : config.startupScripts()) {
            evalStartup(script.toString(), Files.readString(script));
        }
        if (config.startupScript() != null && !config.startupScript().isBlank()) {
            evalStartup("IJAVA_STARTUP_SCRIPT", config.startupScript());
        }
    }

    /** A broken start-up script must not go unnoticed, nor keep the kernel from starting. */
    private void evalStartup(String what, String code) {
        try {
            evaluator.eval(code);
        } catch (Exception e) {
            System.err.println("heimdall-lab kernel: start-up script " + what + " failed:");
            formatError(e).forEach(System.err::println);
        }
    }

    void addToClasspath(String entry) {
        evaluator.addToClasspath(entry);
    }

    @Override
    public DisplayData eval(String code) throws Exception {
        // BaseKernel counted this cell before calling eval
        int cell = executionCount.get() - 1;
        evaluator.startCell(cell);
        DisplayData result = null;
        try {
            result = evalCell(code);
            return result;
        } finally {
            history.add(
                    cell,
                    code,
                    result == null
                            ? null
                            : String.valueOf(result.getData(
                                    io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_PLAIN)));
        }
    }

    /** A cell's code (or a file {@code %load} reads) run, its last value rendered. */
    private DisplayData evalCell(String code) throws Exception {
        TimeMagic.Split timed = TimeMagic.find(code);
        if (timed != null) {
            return TimeMagic.run(timed, this::evalCell, System.out);
        }
        Object value = evalRaw(code);
        if (value == null) {
            return null;
        }
        return value instanceof DisplayData d ? d : getRenderer().render(value);
    }

    /** Runs code and magics as a cell would; the last expression's value, unrendered ({@link Notebook#eval}). */
    Object evalRaw(String code) throws Exception {
        String javaCode = applyMagics(code);
        try {
            return evaluator.eval(javaCode);
        } catch (EvalException e) {
            if (Notebook.MagicFailed.class.getName().equals(e.getExceptionClassName())) {
                throw new CellError.MagicError(e.getMessage(), List.of(e.getMessage()));
            }
            throw e;
        }
    }

    /** {@link Notebook#lineMagic}: the magic's value; its failure as {@link Notebook.MagicFailed}. */
    Object lineMagic(String name, List<String> args) {
        try {
            return magics.applyLineMagic(name, args);
        } catch (UndefinedMagicException e) {
            throw new Notebook.MagicFailed(
                    "unknown line magic %" + name + " (this kernel has " + String.join(", ", LsMagic.LINE) + ")");
        } catch (Exception e) {
            throw new Notebook.MagicFailed(
                    "%" + name + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
    }

    /** {@link Notebook#cellMagic}: the magic's value; its failure as {@link Notebook.MagicFailed}. */
    Object cellMagic(String name, List<String> args, String body) {
        try {
            return magics.applyCellMagic(name, args, body);
        } catch (UndefinedMagicException e) {
            throw new Notebook.MagicFailed(
                    "unknown cell magic %%" + name + " (this kernel has " + String.join(", ", LsMagic.CELL) + ")");
        } catch (Exception e) {
            throw new Notebook.MagicFailed(
                    "%%" + name + ": " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
    }

    @Override
    public HistoryManager getHistoryManager() {
        return history;
    }

    /**
     * Runs the cell's line magics, in order, before any of its Java, and returns the Java. A cell
     * magic ({@code %%name}) is passed its body. A magic used as a value ({@code List<String> added =
     * %jars lib/*.jar}) becomes a call to {@link Notebook#lineMagic} where it stands, run when the
     * statement runs, as IJava desugars it; after {@code =}, text that names no magic ({@code "n=%d"})
     * is left as it is.
     */
    private String applyMagics(String code) throws Exception {
        if (code.stripLeading().startsWith("%%")) {
            var cell = magicParser.parseCellMagic(code);
            if (cell != null) {
                try {
                    Object r = magics.applyCellMagic(
                            cell.getMagicCall().getName(),
                            cell.getMagicCall().getArgs(),
                            cell.getMagicCall().getBody());
                    return r == null ? "" : "";
                } catch (UndefinedMagicException e) {
                    throw new CellError.MagicError(
                            "unknown cell magic %%" + cell.getMagicCall().getName(),
                            List.of("unknown cell magic %%"
                                    + cell.getMagicCall().getName()));
                } catch (CellError e) {
                    throw e;
                } catch (Exception e) {
                    String why = "%%" + cell.getMagicCall().getName() + ": "
                            + (e.getMessage() != null ? e.getMessage() : e.toString());
                    throw new CellError.MagicError(why, List.of(why));
                }
            }
        }
        List<Exception> failures = new ArrayList<>();
        String java = magicParser.transformLineMagics(code, ctx -> {
            if (!failures.isEmpty()) {
                return "";
            }
            String name = ctx.getMagicCall().getName();
            if (!ctx.getLinePrefix().isBlank()) {
                return inlineMagic(ctx.getRaw(), name, ctx.getMagicCall().getArgs());
            }
            try {
                magics.applyLineMagic(name, ctx.getMagicCall().getArgs());
            } catch (UndefinedMagicException e) {
                failures.add(new CellError.MagicError(
                        "unknown line magic %" + name + " (this kernel has " + String.join(", ", LsMagic.LINE) + ")",
                        List.of(ctx.getRaw())));
            } catch (CellError e) {
                failures.add(e);
            } catch (Exception e) {
                String why = e.getMessage() != null ? e.getMessage() : e.toString();
                failures.add(new CellError.MagicError("%" + name + ": " + why, List.of(ctx.getRaw(), why)));
            }
            return "";
        });
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return java;
    }

    /** An inline magic as a {@link Notebook#lineMagic} call; text that names no magic as it was. */
    private static String inlineMagic(String raw, String name, List<String> args) {
        if (!LsMagic.LINE.contains("%" + name)) {
            return raw;
        }
        // its arguments run to the end of the line, so the statement ends there too (a ';' typed after is dropped)
        List<String> a = new ArrayList<>(args);
        if (!a.isEmpty() && a.get(a.size() - 1).endsWith(";")) {
            String last = a.remove(a.size() - 1);
            last = last.substring(0, last.length() - 1);
            if (!last.isEmpty()) {
                a.add(last);
            }
        }
        String lead = raw.substring(0, raw.indexOf('%'));
        return lead + "heimdall.lab.kernel.Notebook.lineMagic(" + javaString(name) + ", java.util.List.<String>of("
                + a.stream().map(LabKernel::javaString).collect(Collectors.joining(", ")) + "));";
    }

    /** {@code s} as a Java string literal. */
    static String javaString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    @Override
    public List<String> formatError(Exception e) {
        if (e instanceof CellError c) {
            return c.lines();
        }
        if (e instanceof EvalException ev) {
            List<String> lines = new ArrayList<>();
            lines.add(ev.getExceptionClassName() + (ev.getMessage() != null ? ": " + ev.getMessage() : ""));
            for (StackTraceElement el : ev.getStackTrace()) {
                lines.add("\tat " + evaluator.place(el));
            }
            Throwable cause = ev.getCause();
            while (cause != null) {
                lines.add("Caused by: " + cause);
                cause = cause.getCause();
            }
            return lines;
        }
        if (e instanceof UnresolvedReferenceException u) {
            return List.of(
                    u.getSnippet().source().strip(),
                    "unresolved: "
                            + evaluator
                                    .shell()
                                    .unresolvedDependencies(u.getSnippet())
                                    .collect(Collectors.joining(", ")));
        }
        return super.formatError(e);
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override
    public String getBanner() {
        return "Java " + Runtime.version() + " :: heimdall-lab kernel (JShell, IJava-compatible magics)";
    }

    @Override
    public List<LanguageInfo.Help> getHelpLinks() {
        return List.of(new LanguageInfo.Help("JShell", "https://docs.oracle.com/en/java/javase/17/jshell/"));
    }

    /**
     * {@code complete}, {@code invalid}, or (anything else, as BaseKernel reads it) the indent for the
     * next line of an incomplete cell: one level (four spaces) per brace still open.
     */
    @Override
    public String isComplete(String code) {
        if (code.stripLeading().startsWith("%")) {
            return IS_COMPLETE_YES;
        }
        var info = evaluator.shell().sourceCodeAnalysis().analyzeCompletion(code);
        while (info.completeness().isComplete() && !info.remaining().isBlank()) {
            info = evaluator.shell().sourceCodeAnalysis().analyzeCompletion(info.remaining());
        }
        return switch (info.completeness()) {
            case COMPLETE, COMPLETE_WITH_SEMI, EMPTY -> IS_COMPLETE_YES;
            case DEFINITELY_INCOMPLETE, CONSIDERED_INCOMPLETE -> Indent.of(code);
            default -> IS_COMPLETE_BAD;
        };
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        int[] anchor = new int[1];
        List<SourceCodeAnalysis.Suggestion> suggestions =
                evaluator.shell().sourceCodeAnalysis().completionSuggestions(code, at, anchor);
        if (suggestions == null || suggestions.isEmpty()) {
            return null;
        }
        List<String> options = suggestions.stream()
                .map(SourceCodeAnalysis.Suggestion::continuation)
                .distinct()
                .collect(Collectors.toList());
        return new ReplacementOptions(options, anchor[0], at);
    }

    @Override
    public DisplayData inspect(String code, int at, boolean extraDetail) {
        return inspector.inspect(code, at);
    }

    @Override
    public void interrupt() {
        evaluator.interrupt();
    }

    @Override
    public void onShutdown(boolean restarting) {
        evaluator.close();
        resolver.close();
    }

    /** Entry point: {@code LabKernel CONNECTION_FILE}. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: LabKernel CONNECTION_FILE (Jupyter passes {connection_file})");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        Path connectionFile = Path.of(args[0]);
        KernelConnectionProperties props = KernelConnectionProperties.parse(Files.readString(connectionFile));
        JupyterSocket.JUPYTER_LOGGER.setLevel(Level.WARNING);
        // The channel loops (loggers "Loop-*") log every start and stop at INFO into the server's log.
        java.util.logging.Logger.getLogger("").setLevel(Level.WARNING);
        JupyterConnection connection = new JupyterConnection(props);
        LabKernel kernel = new LabKernel(System.getenv());
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        connection.waitUntilClose();
        System.exit(0);
    }
}
