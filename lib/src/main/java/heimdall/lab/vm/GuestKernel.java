package heimdall.lab.vm;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A kernel ready to boot: its bzImage and modules folder (in the run's scratch folder for a named kernel), its
 * release, and where it came from.
 *
 * @param kernel the name ({@code debian:6.1}) or the path the user gave
 * @param packageName the Debian package, for a named kernel
 * @param version the package's version, for a named kernel
 * @param sha256 the SHA-256 of the package's {@code .deb}, or of the user's bzImage
 * @param vmlinuz the bzImage QEMU boots
 * @param modules the {@code lib/modules/RELEASE} folder the initramfs takes its modules from
 * @param release the kernel's release from its boot header
 */
public record GuestKernel(
        String kernel,
        Optional<String> packageName,
        Optional<String> version,
        String sha256,
        Path vmlinuz,
        Path modules,
        String release) {}
