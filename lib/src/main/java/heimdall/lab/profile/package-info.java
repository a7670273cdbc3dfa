/**
 * Seccomp profiles in the OCI runtime-spec {@code LinuxSeccomp} JSON shape
 * ({@link heimdall.lab.profile.ProfileJson}, with the Docker/Podman extensions decided by
 * {@link heimdall.lab.profile.HostConditions}), their values ({@link heimdall.lab.profile.Profile},
 * {@link heimdall.lab.profile.SyscallRule}, {@link heimdall.lab.profile.ArgRule},
 * {@link heimdall.lab.profile.Action}, {@link heimdall.lab.profile.Op}) with a direct reference
 * semantics ({@link heimdall.lab.profile.Profile#evaluate}), and the x86_64
 * {@link heimdall.lab.profile.SyscallTable} generated from the kernel headers.
 *
 * <p>Uses: {@code heimdall.lab} and {@code sys}.
 */
package heimdall.lab.profile;
