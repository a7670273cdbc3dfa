package heimdall.lab.reproduce.addedkind;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The added kind's settings, environment.json's last properties.
 *
 * @param runs the runs asked for
 * @param samples the samples a run takes of each region
 */
public record TinySettings(
        @JsonProperty("runs") int runs,
        @JsonProperty("samples") int samples) {}
