package heimdall.lab.display.jupyter;

import org.dflib.jjava.jupyter.Extension;
import org.dflib.jjava.jupyter.kernel.BaseKernel;

/**
 * The library's renderers as a JJava extension: JJava looks for {@link Extension}s with a
 * {@link java.util.ServiceLoader} over its class path at start and over every jar {@code %classpath}
 * or {@code %maven} adds, and this one is listed in {@code META-INF/services}, so adding the jar is
 * all a notebook does for tables, plots and the library's values to show as {@code text/html} and
 * {@code image/png}.
 */
public final class JJavaExtension implements Extension {
    @Override
    public void install(BaseKernel kernel) {
        Renderers.registerWith(kernel.getRenderer());
    }
}
