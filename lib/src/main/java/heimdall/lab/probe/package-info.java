/**
 * Observing what a program calls: {@link heimdall.lab.probe.Tracer} runs a command under {@code heimdall-trace}
 * (ptrace) and reads its {@link heimdall.lab.probe.TraceEvent}s, {@link heimdall.lab.probe.Observations} and
 * {@link heimdall.lab.probe.ObservationsJson} keep what was seen, {@link heimdall.lab.probe.ProfileGen} turns
 * it into a profile; {@code ./lab profile probe|gen|regen} ({@link heimdall.lab.probe.ProfileProbeCommand},
 * {@link heimdall.lab.probe.ProfileGenCommand}, {@link heimdall.lab.probe.ProfileRegenCommand}).
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code profile} and {@code command}.
 */
package heimdall.lab.probe;
