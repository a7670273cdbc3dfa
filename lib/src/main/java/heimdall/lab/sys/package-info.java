/**
 * The host, as the runs need it: CPUs and their policy ({@link heimdall.lab.sys.Cpus},
 * {@link heimdall.lab.sys.CpuPolicy}), what the host is ({@link heimdall.lab.sys.Host},
 * {@link heimdall.lab.sys.HostFacts}, {@link heimdall.lab.sys.VmFacts} in a {@code ./lab vm} guest,
 * {@link heimdall.lab.sys.Mitigations}, {@link heimdall.lab.sys.ContainerSigns}), files written safely
 * ({@link heimdall.lab.sys.SafeFiles}, {@link heimdall.lab.sys.Renames}, {@link heimdall.lab.sys.CreatorMark},
 * {@link heimdall.lab.sys.Scratch}), the native library ({@link heimdall.lab.sys.NativeLib}), signals and
 * the process's own lifetime ({@link heimdall.lab.sys.Signals}, {@link heimdall.lab.sys.DieWithJvm},
 * {@link heimdall.lab.sys.SelfSeccomp}).
 *
 * <p>Uses: {@code heimdall.lab} only; almost every package uses it.
 */
package heimdall.lab.sys;
