package heimdall.lab.graph;

/** A directed edge between two sites, by site id. The call it permits is {@code dst}'s syscall. */
public record Edge(long src, long dst, EdgeKind kind) {}
