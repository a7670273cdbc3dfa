/**
 * Prepared layouts and cursors. {@link heimdall.lab.graph.prepared.DfaLayouts} documents the table
 * formats; {@link heimdall.lab.graph.prepared.ReferenceFollower} is the {@code hash} reference.
 *
 * <p>Typical use (a benchmark swapping layouts over shared tables):
 *
 * <pre>{@code
 * Graph g = GraphFiles.readPinned(nodes, edges).graph();
 * PreparedGraph p = PreparedGraph.prepare(g, PreparedGraph.Options.defaults().withLimit(64L << 20));
 * int[] trace = Traces.walk(g, Traces.Spec.of("main", 2_000_000, 42).withInvalidRate(0.01));
 * for (Prepared layout : p.layouts().values()) {
 *     Cursor c = layout.cursor("main");      // one per thread; the tables are shared
 *     int rejected = c.replay(trace);         // the timed loop
 * }
 * }</pre>
 *
 * <p>Uses: {@code graph}, {@code graph.machine} and {@code heimdall.lab}.
 */
package heimdall.lab.graph.prepared;
