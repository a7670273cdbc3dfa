package heimdall.lab.sys;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Io;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The {@code vm} object of {@code environment.json}: which kernel a guest ran, from which package, how it was
 * accelerated, its vCPUs and memory. The host writes it into the run's share before boot; in the guest
 * ({@code heimdall.vm=1} on the kernel command line, which only {@code ./lab vm} puts there) the results writer
 * reads it back from {@value #SHARE}{@code /vm.json}. {@code emulated} is true under TCG: such figures
 * compare only with each other, within one folder.
 */
@JsonPropertyOrder({
    "kernel",
    "package",
    "version",
    "sha256",
    "release",
    "accelerator",
    "vcpus",
    "memory_mib",
    "emulated"
})
public record VmFacts(
        @JsonProperty("kernel") String kernel,
        @JsonProperty("package") String packageName,
        @JsonProperty("version") String version,
        @JsonProperty("sha256") String sha256,
        @JsonProperty("release") String release,
        @JsonProperty("accelerator") String accelerator,
        @JsonProperty("vcpus") int vcpus,
        @JsonProperty("memory_mib") int memoryMib,
        @JsonProperty("emulated") boolean emulated) {

    /** The kernel command line word that says "this is a ./lab vm guest". */
    public static final String CMDLINE_MARK = "heimdall.vm=1";
    /** The facts file's name in the share. */
    public static final String FILE = "vm.json";
    /** Where the share is mounted in the guest (under the guest's own tmpfs {@code /run}). */
    public static final String SHARE = "/run/heimdall-vm";

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** These facts as the host writes them into the share. */
    public byte[] json() {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static volatile Optional<VmFacts> current;

    /**
     * The facts of the guest this process runs in, or empty on a host (no {@value #CMDLINE_MARK} on
     * {@code /proc/cmdline}). Read once per process. A guest whose facts file is missing or unreadable says so on
     * stderr and is recorded as a guest of unknown kernel, never as a host.
     */
    public static Optional<VmFacts> current() {
        Optional<VmFacts> c = current;
        if (c == null) {
            c = read(Path.of("/proc/cmdline"), Path.of(SHARE, FILE));
            current = c;
        }
        return c;
    }

    /** Whether this process runs in a {@code ./lab vm} guest ({@value #CMDLINE_MARK} on {@code /proc/cmdline}). */
    public static boolean isGuest() {
        return isGuest(Path.of("/proc/cmdline"));
    }

    static boolean isGuest(Path cmdline) {
        try {
            return List.of(Files.readString(cmdline).strip().split("\\s+")).contains(CMDLINE_MARK);
        } catch (IOException e) {
            return false;
        }
    }

    /** {@link #current()} read from these files (for tests). */
    public static Optional<VmFacts> read(Path cmdline, Path file) {
        if (!isGuest(cmdline)) {
            return Optional.empty();
        }
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("not a regular file");
            }
            return Optional.of(JSON.readValue(Io.readString(file, 1 << 16), VmFacts.class));
        } catch (IOException | RuntimeException e) {
            System.err.println("lab: this is a ./lab vm guest but " + file + " cannot be read (" + e.getMessage()
                    + "): environment.json's vm says unknown");
            return Optional.of(new VmFacts("unknown", null, null, null, null, "unknown", 0, 0, true));
        }
    }
}
