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

// ---- Exploring (heimdall.lab.explore): a few short helpers over Lab's fluent blocks ----
import heimdall.lab.explore.*;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Notification;

/** The static floor of a profile file (OCI/Docker/Podman JSON): length, insns per call, cache, disassembly. */
FloorView floor(String profileFile) {
    return Lab.floor(Path.of(profileFile));
}

/** A named call (getppid, gettid, getpid, sched_yield, prctl, mprotect) timed in the runner, under the floors given. */
Measurement measure(String call, FloorView... floors) {
    return Lab.measure(call).under(floors).run();
}

/** What a call costs under {@code floor} over no filter: both measured, the added cost's table row. */
tech.tablesaw.api.Table added(String call, FloorView floor) {
    return measure(call, floor).addedOver(measure(call)).table();
}

/** A brokered openat round trip answered by a Java policy (a lambda over the notification). */
RoundTrip roundTrip(heimdall.lab.broker.Policy policy) {
    return Lab.broker(policy).javaSupervisor().roundTrip();
}

/** A graph recorded from a command (ptrace), prepared, with a cursor at its main thread. */
Stepper stepper(String... command) {
    return Lab.record(command).prepare().cursor("main");
}
