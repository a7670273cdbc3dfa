package org.knowm.xchart.internal.chartpart;

import java.awt.geom.Rectangle2D;
import java.util.List;

/**
 * What a drawn chart's parts measure, for the plot checks: XChart keeps the legend's and axes' bounds
 * package-private, so this test-only class sits in XChart's package to read them. Call it only after
 * the chart has been painted (into an image), which is when XChart lays the parts out.
 */
public final class ChartParts {
    private ChartParts() {}

    /** Where the legend was drawn; null for a chart without axes. */
    public static Rectangle2D legend(Chart<?, ?> chart) {
        return chart.getLegend() == null ? null : chart.getLegend().getBounds();
    }

    /** Where the plot area was drawn. */
    public static Rectangle2D plot(Chart<?, ?> chart) {
        return chart.getPlot().getBounds();
    }

    /** The x axis' range as drawn: {min, max}. */
    public static double[] xRange(Chart<?, ?> chart) {
        Axis<?, ?> a = chart.getAxisPair().getXAxis();
        return new double[] {a.getMin(), a.getMax()};
    }

    /** The y axis' range as drawn: {min, max}. */
    public static double[] yRange(Chart<?, ?> chart) {
        Axis<?, ?> a = chart.getAxisPair().getYAxis();
        return new double[] {a.getMin(), a.getMax()};
    }

    /** Where the x axis (its labels and title) was drawn. */
    public static Rectangle2D xAxis(Chart<?, ?> chart) {
        return chart.getAxisPair().getXAxis().getBounds();
    }

    /** The x axis' tick labels as drawn. */
    public static List<String> xTickLabels(Chart<?, ?> chart) {
        return chart.getAxisPair().getXAxis().getAxisTickCalculator().getTickLabels();
    }

    /** The y axis' tick labels as drawn. */
    public static List<String> yTickLabels(Chart<?, ?> chart) {
        return chart.getAxisPair().getYAxis().getAxisTickCalculator().getTickLabels();
    }
}
