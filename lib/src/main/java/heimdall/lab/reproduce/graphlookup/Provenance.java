package heimdall.lab.reproduce.graphlookup;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.graph.GraphFiles;

/**
 * What a results folder records of an imported graph (environment.json's {@code graphs}): its
 * files, their SHA-256 and whether pins listed them.
 */
record Provenance(
        @JsonProperty("nodes") String nodes,
        @JsonProperty("edges") String edges,
        @JsonProperty("nodes_sha256") String nodesSha256,
        @JsonProperty("edges_sha256") String edgesSha256,
        @JsonProperty("pinned") boolean pinned) {

    static Provenance of(GraphFiles.Imported imp) {
        return new Provenance(
                imp.nodes().toString(), imp.edges().toString(), imp.nodesSha256(), imp.edgesSha256(), imp.pinned());
    }
}
