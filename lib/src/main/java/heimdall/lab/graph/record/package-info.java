/**
 * Recording executable syscall graphs from real runs: {@code ./lab graph record -- CMD...}.
 *
 * <p>{@link heimdall.lab.graph.record.GraphRecordCommand} runs the command under {@code heimdall-trace}
 * ({@link heimdall.lab.probe.Tracer#withCallSites}), {@link heimdall.lab.graph.record.GraphRecorder}
 * projects the root process's threads onto sites, {@code next}/{@code again} edges, entries (thread
 * roles, {@code signal:<NAME>}) and terminal sites, {@link heimdall.lab.graph.record.CallSites} finds
 * each call's call site (the return address into the program's own code), and
 * {@link heimdall.lab.graph.record.Symbols} names it when binutils can. The pair is written with
 * {@link heimdall.lab.graph.GraphFiles} and pinned in {@code SHA256SUMS}; {@code fixtures/graphs/record.sh}
 * regenerates the checked-in recordings ({@code abcdf-recorded}, {@code broker}).
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code graph}, {@code probe} (the tracer) and {@code command}.
 */
package heimdall.lab.graph.record;
