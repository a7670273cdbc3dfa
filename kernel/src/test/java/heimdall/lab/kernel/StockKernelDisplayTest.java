package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Stats;
import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.explore.Lab;
import heimdall.lab.explore.Measurement;
import heimdall.lab.explore.RoundTrip;
import heimdall.lab.fixtures.Fixtures;
import io.github.spencerpark.ijava.IJava;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.dflib.jjava.jupyter.kernel.BaseKernelBuilder;
import org.dflib.jjava.jupyter.kernel.LanguageInfo;
import org.dflib.jjava.jupyter.kernel.ReplacementOptions;
import org.dflib.jjava.jupyter.kernel.display.DisplayData;
import org.dflib.jjava.jupyter.kernel.display.mime.MIMEType;
import org.dflib.jjava.jupyter.kernel.magic.MagicParser;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/**
 * The library's values in the display pipeline of a kernel built on each stock kernel's real base:
 * JJava's {@code jjava-jupyter} (1.0-a6, from Maven Central) and IJava's {@code jupyter-jvm-basekernel}
 * (2.3.0). Each test kernel is the base kernel class itself with the few methods it leaves abstract;
 * a cell's value is rendered by the kernel's own renderer, as the stock kernels render a cell's value.
 * For JJava nothing registers anything: the kernel's own extension loading (a {@code ServiceLoader} over
 * its class path at start, over the added jars on {@code %classpath}) finds the library's extension.
 */
class StockKernelDisplayTest {
    /** The values a notebook shows, by the name a cell evaluates; made once, shared by the kernels. */
    private static Map<String, Object> values;

    private static synchronized Map<String, Object> values() {
        if (values == null) {
            values = made();
        }
        return values;
    }

    private static Map<String, Object> made() {
        Map<String, Object> v = new LinkedHashMap<>();
        Measurement m = measurement();
        v.put("floor", Lab.fixtureFloor("abcdf"));
        v.put("measurement", m);
        v.put("table", Table.create("t", IntColumn.create("n", new int[] {1, 2})));
        v.put("results", Results.load(folder()));
        v.put("roundTrip", new RoundTrip("native", "policy", m, List.of(stats(), stats()), "3", null));
        XYChart chart = new XYChart(200, 100);
        chart.setTitle("c");
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        v.put("chart", chart);
        return v;
    }

    private static Path folder() {
        return Fixtures.home().resolve("results/2026-11-30-vm-floor-cost");
    }

    private static SupervisorStats stats() {
        return new SupervisorStats(3, 0, 3, 0, 0, 0, 0, 0, 1, true, 0, 0, 0, 0);
    }

    /** A measurement as Measure.run builds one from two runs of known samples. */
    private static Measurement measurement() {
        long[] a = {100, 110, 120};
        long[] b = {101, 111, 121};
        long[][] all = {a, b};
        return new Measurement(
                "getppid under x",
                List.of("x"),
                1,
                List.of(0, 1),
                List.of(a, b),
                2,
                false,
                Stats.ofAll(all),
                Stats.runMedians(all));
    }

    /** Each value, evaluated as a cell, holds an HTML table and, but for a bare table, a PNG. */
    private static void assertRich(BiFunction<String, String, Object> data) {
        for (String name : values().keySet()) {
            String html = (String) data.apply(name, "text/html");
            String png = (String) data.apply(name, "image/png");
            if (name.equals("chart")) {
                assertNull(html, name);
            } else {
                assertTrue(html != null && html.contains("<table") && html.contains("<td"), name + ": " + html);
            }
            if (name.equals("table")) {
                assertNull(png, name);
            } else {
                assertNotNull(png, name + " has no image/png");
                byte[] bytes = Base64.getDecoder().decode(png);
                assertEquals('P', bytes[1], name);
            }
            String text = (String) data.apply(name, "text/plain");
            assertNotNull(text, name);
        }
    }

    /** No line run: the kernel's own extension loading at start installs the library's renderers. */
    @Test
    void aKernelOnJJavasBaseShowsTheValuesRichWithNoRegisterCall() {
        JJavaBasedKernel kernel = new JJavaBasedKernel.Builder().build();
        kernel.onStartup();
        try {
            assertRich((name, mime) -> kernel.eval(name).getData(MIMEType.parse(mime)));
            // the fallback line finds it through JJava's own accessor, and registers nothing twice
            assertTrue(KernelRenderers.register().endsWith("org.dflib.jjava.jupyter.kernel.BaseKernel"));
            assertNotNull(kernel.eval("measurement").getData(MIMEType.TEXT_HTML));
        } finally {
            kernel.onShutdown(false);
        }
    }

    /** With extensions off at start, values are plain text; the jar added as %classpath adds it (JavaKernel's way). */
    @Test
    void theJarAddedToAJJavaKernelsClassPathBringsTheRenderers() throws Exception {
        JJavaBasedKernel kernel =
                new JJavaBasedKernel.Builder().extensionsEnabled(false).build();
        kernel.onStartup();
        try {
            DisplayData before = kernel.eval("measurement");
            assertNull(before.getData(MIMEType.TEXT_HTML), "rich before the jar was added: the test proves nothing");
            assertNotNull(before.getData(MIMEType.TEXT_PLAIN));
            Path jar = Path.of(heimdall.lab.display.jupyter.JJavaExtension.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            kernel.addToClasspath(jar.toString());
            assertRich((name, mime) -> kernel.eval(name).getData(MIMEType.parse(mime)));
        } finally {
            kernel.onShutdown(false);
        }
    }

    /** IJava 1.3 has no extensions: the one line registers with the kernel getKernelInstance() hands out. */
    @Test
    void aKernelOnIJavasBaseShowsTheValuesRichAfterRegister() throws Exception {
        IJavaBasedKernel kernel = new IJavaBasedKernel();
        assertNull(
                kernel.eval("measurement")
                        .getData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_HTML),
                "rich before register()");
        IJava.running(kernel);
        try {
            assertEquals(
                    "Tablesaw tables as text/html, XChart charts as image/png: registered with "
                            + "io.github.spencerpark.ijava.IJava",
                    KernelRenderers.register());
            KernelRenderers.register(); // a second call registers nothing twice
            assertRich((name, mime) -> {
                try {
                    return kernel.eval(name)
                            .getData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.parse(mime));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
        } finally {
            IJava.running(null);
        }
    }

    @Test
    void somethingThatIsNotARendererIsRefusedByName() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> KernelRenderers.registerWith("not a renderer"));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    /** Outside a kernel, the line names every accessor it looked for and what it found there. */
    @Test
    void outsideAKernelRegisterSaysWhatItLookedForAndFound() {
        IllegalStateException e = assertThrows(IllegalStateException.class, KernelRenderers::register);
        String m = e.getMessage();
        assertTrue(m.startsWith("no Jupyter kernel found in this JVM"), m);
        assertTrue(
                m.contains("org.dflib.jjava.kernel.JavaNotebookStatics.kernel() (JJava 1.0-a6 and later): "
                        + "no such class"),
                m);
        assertTrue(
                m.contains("org.dflib.jjava.jupyter.kernel.BaseKernel.notebookKernel() (a kernel on JJava's "
                        + "base): the class, no kernel running"),
                m);
        assertTrue(
                m.contains("io.github.spencerpark.ijava.IJava.getKernelInstance() (IJava 1.3): the class, "
                        + "no kernel running"),
                m);
        assertTrue(m.contains("heimdall.lab.kernel.LabKernel.instance()"), m);
    }

    /** A kernel on JJava's base: the base's abstract methods, a cell's value by name. */
    static final class JJavaBasedKernel extends org.dflib.jjava.jupyter.kernel.BaseKernel {
        private final Map<String, Object> cells = values();

        JJavaBasedKernel(
                String name,
                org.dflib.jjava.jupyter.kernel.history.HistoryManager history,
                org.dflib.jjava.jupyter.kernel.JupyterIO io,
                org.dflib.jjava.jupyter.kernel.comm.CommManager comms,
                org.dflib.jjava.jupyter.kernel.display.Renderer renderer,
                MagicParser magics,
                org.dflib.jjava.jupyter.kernel.magic.MagicsRegistry registry,
                boolean extensions,
                org.dflib.jjava.jupyter.kernel.util.StringStyler errors) {
            super(
                    name,
                    "1",
                    new LanguageInfo("java", "17", "text/x-java", ".java", "java", "java", "java"),
                    List.of(),
                    history,
                    io,
                    comms,
                    renderer,
                    magics,
                    registry,
                    extensions,
                    errors);
        }

        /** What JJava's JavaKernel.addToClasspath does for extensions: load them from the added paths. */
        void addToClasspath(String classpath) {
            installExtensions(classpath);
        }

        @Override
        public Object evalRaw(String expr) {
            return cells.get(expr);
        }

        @Override
        public DisplayData inspect(String code, int at, boolean extraDetail) {
            return null;
        }

        @Override
        public ReplacementOptions complete(String code, int at) {
            return null;
        }

        @Override
        public String isComplete(String code) {
            return IS_COMPLETE_YES;
        }

        static final class Builder extends BaseKernelBuilder<Builder, JJavaBasedKernel> {
            Builder() {
                name("jjava-based test kernel");
            }

            @Override
            public JJavaBasedKernel build() {
                // the base's own parts, as JJava's JavaKernelBuilder assembles them
                return new JJavaBasedKernel(
                        buildName(),
                        buildHistoryManager(),
                        buildJupyterIO(buildJupyterIOEncoding()),
                        buildCommManager(),
                        buildRenderer(),
                        new MagicParser("(?<=(?:^|=))\\s*%", "%%", buildMagicTranspiler()),
                        buildMagicsRegistry(),
                        buildExtensionsEnabled(),
                        buildErrorStyler());
            }
        }
    }

    /** A kernel on IJava's base: its one abstract evaluation renders a cell's value, as IJava's does. */
    static final class IJavaBasedKernel extends io.github.spencerpark.jupyter.kernel.BaseKernel {
        private final Map<String, Object> cells = values();

        @Override
        public io.github.spencerpark.jupyter.kernel.display.DisplayData eval(String expr) {
            return getRenderer().render(cells.get(expr));
        }

        @Override
        public io.github.spencerpark.jupyter.kernel.LanguageInfo getLanguageInfo() {
            return new io.github.spencerpark.jupyter.kernel.LanguageInfo(
                    "java", "17", "text/x-java", ".java", "java", "java", "java");
        }
    }
}
