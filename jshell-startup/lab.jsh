// heimdall-lab start-up for jshell (./lab jshell) and the Jupyter kernel: imports and helpers.
// Plain Java snippets only (no /commands), so the kernel can evaluate it too.

import java.io.*;
import java.math.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.function.*;
import java.util.regex.*;
import java.util.stream.*;

import heimdall.lab.*;
import heimdall.lab.analysis.*;
import tech.tablesaw.api.*;
import org.knowm.xchart.*;

/** Loads a results folder (results/<date>-<host>/). */
Results results(String dir) {
    return Results.load(Path.of(dir));
}

/** Prints a results folder's summary table (median, p99, added, spread per row) and returns it. */
tech.tablesaw.api.Table summary(String dir) {
    Results r = results(dir);
    tech.tablesaw.api.Table t = Tables.summary(r);
    System.out.println(t.printAll());
    return t;
}

/** Prints the per-run medians of a results folder and returns them. */
tech.tablesaw.api.Table runMedians(String dir) {
    tech.tablesaw.api.Table t = Tables.runMedians(results(dir));
    System.out.println(t.printAll());
    return t;
}

/** Saves a chart as PNG and returns the file. */
Path savePlot(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String file) throws IOException {
    return Plots.save(chart, Path.of(file));
}
