package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.magic.registry.LineMagic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * IJava's class path magics. {@code %classpath A B:C} adds paths (directories or jars; globs allowed;
 * {@code :}-separated lists split); {@code %jars X.jar lib/*.jar} adds jar files only. Relative paths
 * are relative to the kernel's working directory, which Jupyter sets to the notebook's folder. A
 * pattern that matches nothing is an error rather than a silent no-op.
 */
public final class ClasspathMagics {
    private final Consumer<String> addToClasspath;

    ClasspathMagics(Consumer<String> addToClasspath) {
        this.addToClasspath = addToClasspath;
    }

    /** {@code %classpath}: the entries added, absolute. */
    @LineMagic
    public List<String> classpath(List<String> args) {
        List<String> added = new ArrayList<>();
        for (String arg : args) {
            for (Path p : KernelEnv.expand(arg, false)) {
                addToClasspath.accept(p.toString());
                added.add(p.toString());
            }
        }
        return added;
    }

    /** {@code %jars}: the jar files added, absolute. */
    @LineMagic
    public List<String> jars(List<String> args) {
        List<String> added = new ArrayList<>();
        for (String arg : args) {
            for (Path p : KernelEnv.glob(arg, true)) {
                if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar")) {
                    addToClasspath.accept(p.toString());
                    added.add(p.toString());
                }
            }
        }
        if (added.isEmpty()) {
            throw new IllegalArgumentException("no .jar file in " + args);
        }
        return added;
    }
}
