package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.magic.registry.LineMagic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * IJava's dependency magics. {@code %maven G:A:V ...} resolves each artifact with its runtime
 * dependencies (see {@link MavenResolver}) and adds the jars to the class path of later snippets;
 * {@code %mavenRepo ID URL} adds a remote repository (HTTPS only) that later {@code %maven} lines also ask.
 */
public final class MavenMagics {
    private final MavenResolver resolver;
    private final Consumer<String> addToClasspath;

    MavenMagics(MavenResolver resolver, Consumer<String> addToClasspath) {
        this.resolver = resolver;
        this.addToClasspath = addToClasspath;
    }

    /**
     * {@code %maven}, also under IJava's names {@code %addMavenDependency} and
     * {@code %addMavenDependencies}: the jar files added, artifacts first, each line printed as it is added.
     */
    @LineMagic(
            value = "maven",
            aliases = {"addMavenDependency", "addMavenDependencies"})
    public List<String> maven(List<String> args) throws MavenResolver.ResolutionFailed {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("usage: %maven (or %addMavenDependency) groupId:artifactId:version ...");
        }
        // every coordinate is checked before anything is downloaded
        args.forEach(MavenResolver::parse);
        List<String> added = new ArrayList<>();
        for (String coordinates : args) {
            List<Path> jars = resolver.resolve(coordinates);
            for (Path jar : jars) {
                addToClasspath.accept(jar.toString());
                added.add(jar.toString());
            }
            System.out.println(coordinates + ": " + jars.size() + (jars.size() == 1 ? " jar" : " jars"));
            jars.forEach(j -> System.out.println("  " + j));
        }
        return added;
    }

    /** {@code %mavenRepo ID URL} (IJava's {@code %addMavenRepo}): the repositories now asked, id to URL. */
    @LineMagic(value = "mavenRepo", aliases = "addMavenRepo")
    public Object mavenRepo(List<String> args) {
        if (args.size() != 2) {
            throw new IllegalArgumentException("usage: %mavenRepo ID URL (an https:// URL)");
        }
        resolver.addRepository(args.get(0), args.get(1));
        System.out.println("repositories: " + resolver.repositories());
        return resolver.repositories();
    }
}
