/**
 * Measuring and writing a run: {@link heimdall.lab.bench.FloorBench} (measured children under floors, with or
 * without a supervisor; {@link heimdall.lab.bench.FloorRow}, {@link heimdall.lab.bench.FloorSummary}; the
 * kernel's notify loop, {@code NotifyLoop}, the least a supervisor does, as a round trip's floor),
 * {@link heimdall.lab.bench.Stats}, {@link heimdall.lab.bench.GroupedMedian}, the results folder
 * ({@link heimdall.lab.bench.ResultsFolder}, with the default folder of a run, {@link heimdall.lab.bench.SamplesFile},
 * {@link heimdall.lab.bench.BatchSamples}, {@link heimdall.lab.bench.MarkdownTable}) and stopping a run
 * ({@link heimdall.lab.bench.Interruption}).
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code child}, {@code bpf}, {@code floor}, {@code fixtures},
 * {@code results} and {@code broker}; {@code broker} uses it back (its bench reports through {@code Stats}),
 * the one allowed cycle outside the graph packages: the two are one concern.
 */
package heimdall.lab.bench;
