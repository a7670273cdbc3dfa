package heimdall.lab.vm;

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
 * reads it back from {@value InitScript#SHARE}{@code /vm.json}. {@code emulated} is true under TCG: such figures
 * compare only with each other, within one folder.
 */
@JsonPropertyOrder({"kernel", "package", "version", "sha256", "release", "accelerator", "vcpus", "memory_mib", "emulated"})
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
    static final String CMDLINE_MARK = "heimdall.vm=1";
    static final String FILE = "vm.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The facts of a guest of {@code kernel} under {@code accel}. */
    static VmFacts of(GuestKernel kernel, Accelerator accel, int vcpus, int memoryMib) {
        return new VmFacts(kernel.kernel(), kernel.packageName().orElse(null), kernel.version().orElse(null), kernel.sha256(),
                kernel.release(), accel.label(), vcpus, memoryMib, accel.emulated());
    }

    byte[] json() {
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
            c = read(Path.of("/proc/cmdline"), Path.of(InitScript.SHARE, FILE));
            current = c;
        }
        return c;
    }

    static Optional<VmFacts> read(Path cmdline, Path file) {
        String words;
        try {
            words = Files.readString(cmdline).strip();
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!List.of(words.split("\\s+")).contains(CMDLINE_MARK)) {
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
