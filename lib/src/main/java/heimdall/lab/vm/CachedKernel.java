package heimdall.lab.vm;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.BadInput;

/**
 * A kernel package in the cache, as its {@code kernel.json} records it when it was fetched: what it is and the
 * SHA-256 of the {@code .deb} and of the {@code vmlinuz} inside, both checked again before every use.
 */
@JsonPropertyOrder({"name", "package", "version", "deb", "deb_sha256", "release", "vmlinuz", "vmlinuz_sha256", "fetched"
})
public record CachedKernel(
        @JsonProperty("name") String name,
        @JsonProperty("package") String packageName,
        @JsonProperty("version") String version,
        @JsonProperty("deb") String deb,
        @JsonProperty("deb_sha256") String debSha256,
        @JsonProperty("release") String release,
        @JsonProperty("vmlinuz") String vmlinuz,
        @JsonProperty("vmlinuz_sha256") String vmlinuzSha256,
        @JsonProperty("fetched") String fetched) {

    /** Every field present and of its form, so no name from the file can leave the cache entry's folder. */
    CachedKernel checked(Object file) {
        need(file, "name", name, "debian:[0-9.]+");
        need(file, "package", packageName, "linux-image-[0-9][A-Za-z0-9.+-]*-unsigned");
        need(file, "version", version, "[A-Za-z0-9.+~:-]+");
        need(file, "deb", deb, "[A-Za-z0-9.+~%_-]+\\.deb");
        need(file, "deb_sha256", debSha256, "[0-9a-f]{64}");
        need(file, "release", release, "[0-9][A-Za-z0-9._+~-]*");
        need(file, "vmlinuz", vmlinuz, "boot/vmlinuz-[0-9][A-Za-z0-9._+~-]*");
        need(file, "vmlinuz_sha256", vmlinuzSha256, "[0-9a-f]{64}");
        return this;
    }

    private static void need(Object file, String field, String value, String form) {
        if (value == null || !value.matches(form) || value.contains("..")) {
            throw BadInput.at(file, field, value == null ? "missing" : "'" + value + "' is not of the form " + form);
        }
    }
}
