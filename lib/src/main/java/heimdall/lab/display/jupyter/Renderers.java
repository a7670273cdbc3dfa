package heimdall.lab.display.jupyter;

import heimdall.lab.analysis.Plots;
import heimdall.lab.display.Display;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.HtmlTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Base64;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import javax.imageio.ImageIO;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * Teaches a Jupyter kernel's renderer to show Tablesaw tables as {@code text/html}, XChart charts as
 * {@code image/png} and every value of the library that shows itself ({@link Displayable}: a
 * measurement, an added cost, a round trip, a floor, a graph, a prepared graph, a cursor, a results
 * folder, a comparison, a sweep) as all three of {@code text/html} (its table), {@code image/png}
 * (its plot) and {@code text/plain}.
 *
 * <p>The kernels this serves (this project's, IJava, JJava) share the design of
 * jupyter-jvm-basekernel, JJava under its own package names, so the renderer is driven by
 * reflection: {@code createRegistration(type).preferring(...).supporting(...).register(function)},
 * with the render function a proxy of the kernel's own {@code RenderFunction} interface. One class
 * serves every kernel's copy of that API; {@link JJavaExtension} and
 * {@code heimdall.lab.kernel.KernelRenderers} are the two ways a kernel's renderer reaches it.
 */
public final class Renderers {
    /** Renderers already taught, so that running the line twice does not register twice. */
    private static final Set<Object> DONE =
            Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    private Renderers() {}

    /**
     * Registers the renderers with a basekernel-style {@code Renderer} (the kernel's
     * {@code getRenderer()}); a renderer already taught is left alone, so the JJava extension and a
     * {@code KernelRenderers.register()} in the same kernel register once.
     *
     * @throws IllegalStateException naming the renderer's class when it is not that API
     */
    public static void registerWith(Object renderer) {
        if (!DONE.add(renderer)) {
            return;
        }
        try {
            Api api = Api.of(renderer);
            api.register(
                    renderer, Table.class, List.of("text/html"), List.of("text/html", "text/plain"), (table, ctx) -> {
                        api.renderIfRequested(ctx, "text/html", () -> HtmlTable.of(table));
                        api.renderIfRequested(ctx, "text/plain", table::print);
                    });
            api.register(
                    renderer, Chart.class, List.of("image/png"), List.of("image/png", "text/plain"), (chart, ctx) -> {
                        api.renderIfRequested(ctx, "image/png", () -> png(chart));
                        api.renderIfRequested(ctx, "text/plain", () -> "chart: " + chart.getTitle());
                    });
            // preferred, all three: a bare display shows the table, the plot and the text together
            List<String> all = List.of("text/html", "image/png", "text/plain");
            api.register(renderer, Displayable.class, all, all, (value, ctx) -> {
                api.renderIfRequested(ctx, "text/html", value::html);
                if (value.chart() != null) { // a value without a plot (an empty sweep) shows its table alone
                    api.renderIfRequested(
                            ctx, "image/png", () -> Base64.getEncoder().encodeToString(Display.png(value)));
                }
                api.renderIfRequested(ctx, "text/plain", value::text);
            });
        } catch (ReflectiveOperationException e) {
            DONE.remove(renderer);
            throw new IllegalStateException(
                    "this kernel's renderer (" + renderer.getClass().getName()
                            + ") is not the basekernel API heimdall-lab knows: " + e,
                    e);
        }
    }

    private static String png(Chart<?, ?> chart) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(Plots.image(chart), "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** A render function in our own terms; the proxy passes the kernel's context through as an Object. */
    private interface Render<T> {
        void render(T value, Object context);
    }

    /** The reflective handles on one kernel's display API, found from its renderer's class. */
    private record Api(
            ClassLoader loader,
            Class<?> mimeType,
            Class<?> renderFunction,
            Method parseMime,
            Method renderIfRequested) {
        static Api of(Object renderer) throws ReflectiveOperationException {
            Class<?> rendererClass = renderer.getClass();
            while (!rendererClass.getSimpleName().equals("Renderer") && rendererClass.getSuperclass() != null) {
                rendererClass = rendererClass.getSuperclass();
            }
            String display = rendererClass.getPackageName();
            ClassLoader loader = rendererClass.getClassLoader();
            Class<?> mime = Class.forName(display + ".mime.MIMEType", true, loader);
            Class<?> function = Class.forName(display + ".RenderFunction", true, loader);
            Class<?> context = Class.forName(display + ".RenderContext", true, loader);
            return new Api(
                    loader,
                    mime,
                    function,
                    mime.getMethod("parse", String.class),
                    context.getMethod("renderIfRequested", mime, Supplier.class));
        }

        Object[] mimes(List<String> names) throws ReflectiveOperationException {
            Object[] out = (Object[]) java.lang.reflect.Array.newInstance(mimeType, names.size());
            for (int i = 0; i < names.size(); i++) {
                out[i] = parseMime.invoke(null, names.get(i));
            }
            return out;
        }

        <T> void register(
                Object renderer, Class<T> type, List<String> preferred, List<String> supported, Render<T> render)
                throws ReflectiveOperationException {
            Object registration = renderer.getClass()
                    .getMethod("createRegistration", Class.class)
                    .invoke(renderer, type);
            Class<?> mimeArray =
                    java.lang.reflect.Array.newInstance(mimeType, 0).getClass();
            registration = registration
                    .getClass()
                    .getMethod("preferring", mimeArray)
                    .invoke(registration, (Object) mimes(preferred));
            registration = registration
                    .getClass()
                    .getMethod("supporting", mimeArray)
                    .invoke(registration, (Object) mimes(supported));
            Object function = Proxy.newProxyInstance(loader, new Class<?>[] {renderFunction}, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "render":
                        render.render(type.cast(args[0]), args[1]);
                        return null;
                    case "equals":
                        return proxy == args[0];
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "toString":
                        return "heimdall-lab renderer for " + type.getName();
                    default:
                        throw new UnsupportedOperationException(m.toString());
                }
            });
            registration.getClass().getMethod("register", renderFunction).invoke(registration, function);
        }

        void renderIfRequested(Object context, String mime, Supplier<Object> value) {
            try {
                renderIfRequested.invoke(context, parseMime.invoke(null, mime), value);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
