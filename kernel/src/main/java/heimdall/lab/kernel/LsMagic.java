package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.magic.registry.LineMagic;
import java.util.List;

/** {@code %lsmagic}: prints the magics this kernel knows, line magics then cell magics. */
public final class LsMagic {
    /** Every line magic, as typed. */
    static final List<String> LINE = List.of(
            "%classpath",
            "%jars",
            "%load",
            "%maven",
            "%addMavenDependency",
            "%addMavenDependencies",
            "%mavenRepo",
            "%addMavenRepo",
            "%loadFromPOM",
            "%time",
            "%lsmagic");
    /** Every cell magic, as typed. */
    static final List<String> CELL = List.of("%%loadFromPOM", "%%time");

    /** {@code %lsmagic}: the text printed. */
    @LineMagic
    public String lsmagic(List<String> args) {
        String text = "Available line magics:\n" + String.join("  ", LINE) + "\n\nAvailable cell magics:\n"
                + String.join("  ", CELL);
        System.out.println(text);
        return text;
    }
}
