package heimdall.lab.kernel;

import heimdall.lab.display.jupyter.Renderers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Teaches the running JShell-based Jupyter kernel to show Tablesaw tables, XChart charts and the
 * library's values ({@code Displayable}) as {@code text/html} and {@code image/png}, in one line:
 *
 * <pre>{@code heimdall.lab.kernel.KernelRenderers.register()}</pre>
 *
 * <p>This project's kernel does it at start, and a stock JJava kernel does it by itself once the
 * library's jar is on its class path (its extension, {@code heimdall.lab.display.jupyter.JJavaExtension});
 * the line is for IJava 1.3, which has no extensions, and a fallback everywhere else. The kernel is
 * found through each kernel's own static accessor, by reflection, so one jar serves every kernel; the
 * registration itself is {@link Renderers#registerWith}.
 */
public final class KernelRenderers {
    /** Where each kernel keeps its running instance, in the order they are tried. */
    private static final List<Accessor> KERNELS = List.of(
            new Accessor("heimdall-lab", "heimdall.lab.kernel.LabKernel", "instance"),
            new Accessor("IJava 1.3", "io.github.spencerpark.ijava.IJava", "getKernelInstance"),
            new Accessor("JJava 1.0-a6 and later", "org.dflib.jjava.kernel.JavaNotebookStatics", "kernel"),
            new Accessor("a kernel on JJava's base", "org.dflib.jjava.jupyter.kernel.BaseKernel", "notebookKernel"),
            new Accessor("JJava 1.0a15 and earlier", "org.dflib.jjava.JJava", "getKernelInstance"));

    private KernelRenderers() {}

    /** A kernel's static accessor of its running instance. */
    private record Accessor(String kernel, String className, String method) {
        String name() {
            return className + "." + method + "()";
        }
    }

    /**
     * Registers the renderers with the kernel running this notebook.
     *
     * @return what was registered, with which kernel
     * @throws IllegalStateException when no known kernel is running in this JVM, naming each accessor
     *     looked for and what was found there
     */
    public static String register() {
        List<String> found = new ArrayList<>();
        for (Accessor k : KERNELS) {
            Object kernel = kernelInstance(k, found);
            if (kernel != null) {
                try {
                    Renderers.registerWith(
                            kernel.getClass().getMethod("getRenderer").invoke(kernel));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(
                            "the " + k.className() + " kernel has no usable getRenderer(): " + e, e);
                }
                // the words KernelProtocolTest expects; the library's values (Displayable) are registered too
                return "Tablesaw tables as text/html, XChart charts as image/png: registered with " + k.className();
            }
        }
        throw new IllegalStateException("no Jupyter kernel found in this JVM; looked for " + String.join("; ", found)
                + ". In plain jshell use HtmlTable.of(table) and Plots.image(chart)");
    }

    /** The running kernel behind {@code k}, or null, adding to {@code found} what was there. */
    private static Object kernelInstance(Accessor k, List<String> found) {
        Set<ClassLoader> loaders = new LinkedHashSet<>();
        loaders.add(KernelRenderers.class.getClassLoader());
        if (Thread.currentThread().getContextClassLoader() != null) {
            loaders.add(Thread.currentThread().getContextClassLoader());
        }
        loaders.add(ClassLoader.getSystemClassLoader());
        String seen = "no such class";
        for (ClassLoader loader : loaders) {
            Method m;
            try {
                m = Class.forName(k.className(), true, loader).getDeclaredMethod(k.method());
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // not this kernel, or not from this loader
            } catch (NoSuchMethodException e) {
                seen = "the class, without that method";
                continue;
            }
            try {
                m.setAccessible(true);
                Object kernel = m.invoke(null);
                if (kernel != null) {
                    return kernel;
                }
                seen = "the class, no kernel running";
            } catch (InvocationTargetException e) {
                // JJava's notebookKernel() throws when no kernel has started: nothing running, not broken
                seen = "the class, no kernel running (" + e.getCause() + ")";
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalStateException("cannot reach the running " + k.kernel() + " kernel: " + e, e);
            }
        }
        found.add(k.name() + " (" + k.kernel() + "): " + seen);
        return null;
    }

    /**
     * Registers the renderers with a basekernel-style {@code Renderer} (the kernel's
     * {@code getRenderer()}); a renderer already taught is left alone.
     */
    public static void registerWith(Object renderer) {
        Renderers.registerWith(renderer);
    }
}
