package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Stats;
import heimdall.lab.display.Displayable;
import heimdall.lab.explore.Lab;
import heimdall.lab.explore.Measurement;
import heimdall.lab.fixtures.Fixtures;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/** The reflective registration on a bare basekernel renderer, as a stock IJava kernel holds one. */
class KernelRenderersTest {
    @Test
    void aFreshRendererLearnsTablesAndCharts() {
        Renderer renderer = new Renderer();
        KernelRenderers.registerWith(renderer);
        KernelRenderers.registerWith(renderer); // the second call is a no-op, not a second registration

        DisplayData table = renderer.render(Table.create("t", IntColumn.create("n", new int[] {1, 2})));
        String html = (String) table.getData(MIMEType.TEXT_HTML);
        assertTrue(html.contains("<table") && html.contains("<th>n</th>"), html);
        assertTrue(((String) table.getData(MIMEType.TEXT_PLAIN)).contains("n"));

        XYChart chart = new XYChart(200, 100);
        chart.setTitle("c");
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        DisplayData image = renderer.render(chart);
        byte[] png = Base64.getDecoder().decode((String) image.getData(MIMEType.IMAGE_PNG));
        assertEquals((byte) 0x89, png[0]);
        assertEquals('P', png[1]);
        assertEquals("chart: c", image.getData(MIMEType.TEXT_PLAIN));
    }

    /** JJava's copy of the API, under its own package names: the same line must work there. */
    @Test
    void jjavasRendererLearnsThemToo() {
        var renderer = new org.dflib.jjava.jupyter.kernel.display.Renderer();
        KernelRenderers.registerWith(renderer);
        var table = renderer.render(Table.create("t", IntColumn.create("n", new int[] {1, 2})));
        String html = (String) table.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.TEXT_HTML);
        assertTrue(html.contains("<table") && html.contains("<th>n</th>"), html);
        XYChart chart = new XYChart(200, 100);
        chart.addSeries("s", new double[] {1, 2}, new double[] {3, 4});
        var image = renderer.render(chart);
        byte[] png = Base64.getDecoder()
                .decode((String) image.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.IMAGE_PNG));
        assertEquals('P', png[1]);
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

    /** The library's values, each displayed bare: a table, a PNG and its multi-line text, in IJava's renderer. */
    @Test
    void theLibrarysValuesRenderAsTablePngAndText() {
        Renderer renderer = new Renderer();
        KernelRenderers.registerWith(renderer);
        Measurement m = measurement();
        var graph = Lab.fixtureGraph("abcdf");
        var prepared = graph.prepare();
        var cursor = prepared.cursor("main");
        cursor.steps("getppid", "reboot");
        List<Displayable> values = List.of(
                m,
                m.addedOver(measurement()),
                Lab.fixtureFloor("abcdf"),
                graph,
                prepared,
                cursor,
                Results.load(Fixtures.home().resolve("results/2026-11-30-vm-floor-cost")),
                Results.compare(
                        Fixtures.home().resolve("results/2026-11-30-vm-floor-cost"),
                        Fixtures.home().resolve("results/2026-11-30-vm-container-floor-cost")));
        for (Displayable v : values) {
            DisplayData d = renderer.render(v);
            String html = (String) d.getData(MIMEType.TEXT_HTML);
            assertTrue(html != null && html.contains("<table") && html.contains("<td>"), v.getClass() + ": " + html);
            byte[] png = Base64.getDecoder().decode((String) d.getData(MIMEType.IMAGE_PNG));
            assertEquals('P', png[1], v.getClass().getName());
            String text = (String) d.getData(MIMEType.TEXT_PLAIN);
            assertEquals(v.toString(), text);
            boolean identityHash = text.matches("(?s).*[A-Za-z]@[0-9a-f]{6,}.*"); // Object.toString's form
            assertTrue(text.lines().count() > 3 && !identityHash, v.getClass() + ": " + text);
        }
    }

    /** The same in JJava's copy of the API. */
    @Test
    void jjavaRendersTheLibrarysValuesToo() {
        var renderer = new org.dflib.jjava.jupyter.kernel.display.Renderer();
        KernelRenderers.registerWith(renderer);
        var d = renderer.render(measurement());
        String html = (String) d.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.TEXT_HTML);
        assertTrue(html.contains("<caption>getppid under x</caption>"), html);
        byte[] png = Base64.getDecoder()
                .decode((String) d.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.IMAGE_PNG));
        assertEquals('P', png[1]);
        assertTrue(((String) d.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.TEXT_PLAIN))
                .startsWith("getppid under x\n"));
    }

    @Test
    void somethingThatIsNotARendererIsRefusedByName() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> KernelRenderers.registerWith("not a renderer"));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    @Test
    void outsideAKernelRegisterSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class, KernelRenderers::register);
        assertTrue(e.getMessage().contains("no Jupyter kernel found"), e.getMessage());
    }
}
