package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.util.Base64;
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
        byte[] png = Base64.getDecoder().decode(
                (String) image.getData(org.dflib.jjava.jupyter.kernel.display.mime.MIMEType.IMAGE_PNG));
        assertEquals('P', png[1]);
    }

    @Test
    void somethingThatIsNotARendererIsRefusedByName() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> KernelRenderers.registerWith("not a renderer"));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }

    @Test
    void outsideAKernelRegisterSaysSo() {
        IllegalStateException e = assertThrows(IllegalStateException.class, KernelRenderers::register);
        assertTrue(e.getMessage().contains("no Jupyter kernel found"), e.getMessage());
    }
}
