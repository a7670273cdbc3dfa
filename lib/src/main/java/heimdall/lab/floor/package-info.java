/**
 * Floors, the filters a measured child installs: {@link heimdall.lab.floor.Floor} (programs in installation
 * order, the verdict and instruction count the kernel's stacking gives) and {@link heimdall.lab.floor.Floors}
 * (the named floors of the reproductions, compiled from profiles).
 *
 * <p>Uses: {@code bpf} and {@code profile}.
 */
package heimdall.lab.floor;
