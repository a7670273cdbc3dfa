package heimdall.lab.kernel;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.maven.model.interpolation.ModelInterpolator;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession.CloseableSession;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResult;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.filter.DependencyFilterUtils;

/**
 * Resolves Maven coordinates to jar files with Maven Resolver and Maven 3's POM reader: the artifact
 * and its runtime dependencies (transitively), downloaded from Maven Central and the repositories
 * added with {@link #addRepository}, cached in the user's local repository ({@code ~/.m2/repository},
 * or {@code -Dmaven.repo.local}).
 *
 * <p>Only those repositories are asked: repositories that a dependency's POM declares are ignored, so
 * a POM from Central cannot send the kernel to a host the user never named. Checksums must match.
 *
 * <p>Over HTTPS only, as Maven since 3.8.1: a repository named by {@code http://} (by {@code %mavenRepo}, a
 * POM's {@code <repository>}, or {@code -Dmaven.repo.central}) is refused with the reason before anything is
 * fetched, since its checksums come from the same server as its jars and anyone on the path could
 * replace both, and the kernel runs the jar. As in Maven, {@code localhost} and {@code 127.0.0.1} are
 * exempt: nothing lies on that path.
 */
final class MavenResolver implements AutoCloseable {
    /** Maven's own rule for ids, with no {@code /} or {@code \}: they become path segments. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]+");
    /** Versions may also be ranges, {@code [1.0,2.0)}. */
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9_.,()\\[\\]-]+");

    private final Path localRepository;
    private final Map<String, RemoteRepository> repositories = new LinkedHashMap<>();
    private RepositorySystem system;

    MavenResolver(Path localRepository) {
        this.localRepository = localRepository;
        // Maven 3.10 reads the same property to relocate Central.
        String central = System.getProperty(
                ModelInterpolator.MAVEN_REPO_CENTRAL_KEY, ModelInterpolator.DEFAULT_MAVEN_REPO_CENTRAL_URL);
        repositories.put("central", remote("central", central));
    }

    /** The user's local repository, as Maven finds it without a settings file. */
    static Path defaultLocalRepository() {
        String configured = System.getProperty("maven.repo.local");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** The repositories asked, in order, id to URL. */
    Map<String, String> repositories() {
        Map<String, String> out = new LinkedHashMap<>();
        repositories.forEach((id, r) -> out.put(id, r.getUrl()));
        return out;
    }

    /**
     * Adds (or, for a known id, replaces) a remote repository for later resolutions.
     *
     * @throws IllegalArgumentException for an id that is not a Maven id or a URL that is not an
     *     absolute https URL with a host ({@link #checkRepository})
     */
    void addRepository(String id, String url) {
        repositories.put(id, remote(id, checkRepository(id, url).toString()));
    }

    /**
     * Checks a repository's id and URL before it is used: a Maven id, and an absolute {@code https://} URL
     * with a host. A plain {@code http://} URL is refused with the reason, as Maven refuses it since 3.8.1,
     * but for this machine ({@link #LOCAL_HOSTS}), which Maven's blocker leaves alone too.
     *
     * @throws IllegalArgumentException naming the id or the URL and what is wrong
     */
    static URI checkRepository(String id, String url) {
        if (!ID.matcher(id).matches() || id.equals(".") || id.equals("..")) {
            throw new IllegalArgumentException(
                    "bad repository id '" + id + "': letters, digits, '_', '-' and '.' only");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad repository URL '" + url + "': " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("http") && uri.getHost() != null && !LOCAL_HOSTS.contains(uri.getHost())) {
            throw new IllegalArgumentException("repository '" + id + "' at " + url + " is refused: " + PLAIN_HTTP);
        }
        if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
            throw new IllegalArgumentException("bad repository URL '" + url
                    + "': an https:// URL with a host is required (http:// only for localhost or 127.0.0.1)");
        }
        return uri;
    }

    /**
     * The hosts Maven's blocker leaves plain HTTP to ({@code external:http:*} matches every other host): this
     * machine, where no one is on the path. Names as written, never looked up.
     */
    static final Set<String> LOCAL_HOSTS = Set.of("localhost", "127.0.0.1");

    /** Why a plain-HTTP repository is refused. */
    static final String PLAIN_HTTP = "plain http:// is not used (Maven blocks it since 3.8.1): a jar and the "
            + "checksum it is checked against both come over the unauthenticated connection, so anyone on the "
            + "path could hand the kernel code to run; use the repository's https:// address";

    private static RemoteRepository remote(String id, String url) {
        RepositoryPolicy releases =
                new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_DAILY, RepositoryPolicy.CHECKSUM_POLICY_FAIL);
        RepositoryPolicy snapshots = new RepositoryPolicy(
                true, RepositoryPolicy.UPDATE_POLICY_ALWAYS, RepositoryPolicy.CHECKSUM_POLICY_FAIL);
        return new RemoteRepository.Builder(id, "default", url)
                .setReleasePolicy(releases)
                .setSnapshotPolicy(snapshots)
                .build();
    }

    /**
     * Parses {@code groupId:artifactId[:extension[:classifier]]:version}.
     *
     * @throws IllegalArgumentException naming the coordinates and what is wrong with them
     */
    static Artifact parse(String coordinates) {
        String[] parts = coordinates.split(":", -1);
        if (parts.length < 3 || parts.length > 5) {
            throw new IllegalArgumentException("bad coordinates '" + coordinates
                    + "': expected groupId:artifactId:version (or groupId:artifactId:extension[:classifier]:version)");
        }
        String[] names = parts.length == 3
                ? new String[] {"groupId", "artifactId", "version"}
                : parts.length == 4
                        ? new String[] {"groupId", "artifactId", "extension", "version"}
                        : new String[] {"groupId", "artifactId", "extension", "classifier", "version"};
        for (int i = 0; i < parts.length; i++) {
            Pattern rule = i == parts.length - 1 ? VERSION : ID;
            String p = parts[i];
            // dots alone would become ".." path segments in the local repository
            if (!rule.matcher(p).matches()
                    || p.equals(".")
                    || p.equals("..")
                    || (i == 0 && (p.startsWith(".") || p.endsWith(".") || p.contains("..")))) {
                throw new IllegalArgumentException(
                        "bad coordinates '" + coordinates + "': " + names[i] + " '" + p + "' is not a Maven id");
            }
        }
        return new DefaultArtifact(coordinates);
    }

    /**
     * The jar files of {@code coordinates} and of its runtime dependencies, artifact first.
     *
     * @throws IllegalArgumentException for bad coordinates
     * @throws ResolutionFailed when the artifact or a dependency cannot be found or read
     */
    List<Path> resolve(String coordinates) throws ResolutionFailed {
        Artifact artifact = parse(coordinates);
        CollectRequest collect =
                new CollectRequest(new Dependency(artifact, "runtime"), new ArrayList<>(repositories.values()));
        return resolve(collect, coordinates, repositories());
    }

    /**
     * The jar files of {@code dependencies} (a POM's, each already checked with {@link #parse}) and of
     * their runtime dependencies, from Maven Central and {@code extra} (id to URL, checked as
     * {@link #addRepository} checks them) only: the repositories added to this resolver are not asked.
     *
     * @throws IllegalArgumentException for a bad repository id or URL
     * @throws ResolutionFailed when an artifact cannot be found or read
     */
    List<Path> resolve(List<Dependency> dependencies, Map<String, String> extra) throws ResolutionFailed {
        MavenResolver own = new MavenResolver(localRepository);
        extra.forEach(own::addRepository);
        CollectRequest collect =
                new CollectRequest(dependencies, List.of(), new ArrayList<>(own.repositories.values()));
        String what = dependencies.stream()
                .map(d -> d.getArtifact().toString())
                .collect(java.util.stream.Collectors.joining(", "));
        return resolve(collect, what, own.repositories());
    }

    private List<Path> resolve(CollectRequest collect, String coordinates, Map<String, String> asked)
            throws ResolutionFailed {
        // the one way to the network: every repository asked is checked again here, Central's address
        // (which -Dmaven.repo.central may change) included, before anything is fetched
        for (RemoteRepository r : collect.getRepositories()) {
            try {
                checkRepository(r.getId(), r.getUrl());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot resolve " + coordinates + ": " + e.getMessage()
                        + (r.getId().equals("central")
                                ? " (Central's address comes from -D" + ModelInterpolator.MAVEN_REPO_CENTRAL_KEY + ")"
                                : ""));
            }
        }
        DependencyRequest request = new DependencyRequest(collect, DependencyFilterUtils.classpathFilter("runtime"));
        RepositorySystem rs = system();
        try (CloseableSession session = new SessionBuilderSupplier(rs)
                .get()
                .withLocalRepositoryBaseDirectories(localRepository)
                .setSystemProperties(System.getProperties())
                .setIgnoreArtifactDescriptorRepositories(true)
                .setChecksumPolicy(RepositoryPolicy.CHECKSUM_POLICY_FAIL)
                .build()) {
            DependencyResult result = rs.resolveDependencies(session, request);
            List<Path> jars = new ArrayList<>();
            for (ArtifactResult r : result.getArtifactResults()) {
                if (r.getArtifact() != null && r.getArtifact().getPath() != null) {
                    jars.add(r.getArtifact().getPath());
                }
            }
            return jars;
        } catch (org.eclipse.aether.RepositoryException e) {
            throw new ResolutionFailed(
                    "cannot resolve " + coordinates + " from " + String.join(", ", asked.values()) + ": " + reasons(e));
        }
    }

    /** The distinct messages down the cause chain: the outer one says what, the inner ones why. */
    private static String reasons(Throwable e) {
        Set<String> seen = new LinkedHashSet<>();
        for (Throwable t = e; t != null && seen.size() < 4; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().strip();
            if (!m.isEmpty() && seen.stream().noneMatch(s -> s.contains(m))) {
                seen.add(m);
            }
        }
        return String.join("; ", seen);
    }

    private synchronized RepositorySystem system() {
        if (system == null) {
            system = new RepositorySystemSupplier().get();
        }
        return system;
    }

    @Override
    public synchronized void close() {
        if (system != null) {
            system.shutdown();
            system = null;
        }
    }

    /** An artifact or one of its dependencies could not be resolved; the message says which and why. */
    static final class ResolutionFailed extends Exception {
        ResolutionFailed(String message) {
            super(message);
        }
    }
}
