package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.List;
import java.util.UUID;

/**
 * Functions the kernel imports statically into every session, named, typed and behaving as IJava's
 * and JJava's notebook functions (their {@code Display} runtime class and {@code BaseNotebookStatics}),
 * so a notebook written for either runs here: {@code display(chart)} and {@code display(html,
 * "text/html")} return a display id for {@code updateDisplay}; {@code render(...)} returns what
 * {@code display} would publish; {@code eval("1 + 2")} runs code in the session; {@code lineMagic}
 * and {@code cellMagic} are what {@code %name} and {@code %%name} desugar to.
 */
public final class Notebook {
    private Notebook() {}

    /**
     * Renders {@code value} (image, chart, table, anything) as its preferred types and publishes it as
     * a display output of the running cell.
     *
     * @return the display's id, for {@link #updateDisplay(String, Object)}
     */
    public static String display(Object value) {
        LabKernel k = kernel();
        DisplayData data = value instanceof DisplayData d
                ? new DisplayData(d)
                : k.getRenderer().render(value);
        return publish(k, data);
    }

    /**
     * Renders {@code value} as the types {@code as} asks (a type it cannot be rendered as is left out;
     * {@code text/plain} is always there) and publishes it: {@code display("<b>hi</b>", "text/html")}.
     *
     * @return the display's id, for {@link #updateDisplay(String, Object, String...)}
     */
    public static String display(Object value, String... as) {
        LabKernel k = kernel();
        return publish(k, k.getRenderer().renderAs(value, as));
    }

    /** Replaces what the display {@code id} shows with {@code value} rendered as its preferred types. */
    public static void updateDisplay(String id, Object value) {
        LabKernel k = kernel();
        DisplayData data = value instanceof DisplayData d
                ? new DisplayData(d)
                : k.getRenderer().render(value);
        k.getIO().display.updateDisplay(requireId(id), data);
    }

    /** Replaces what the display {@code id} shows with {@code value} rendered as the types {@code as}. */
    public static void updateDisplay(String id, Object value, String... as) {
        LabKernel k = kernel();
        k.getIO().display.updateDisplay(requireId(id), k.getRenderer().renderAs(value, as));
    }

    /** What {@link #display(Object)} would publish, not published: as a cell's last expression it is its result. */
    public static DisplayData render(Object value) {
        return kernel().getRenderer().render(value);
    }

    /** What {@link #display(Object, String...)} would publish: {@code render(md, "text/markdown")}. */
    public static DisplayData render(Object value, String... as) {
        return kernel().getRenderer().renderAs(value, as);
    }

    /**
     * Runs {@code code} (Java, and magics) in this session as a cell would and returns the value of its
     * last expression (null for none). Declarations it makes stay in the session.
     */
    public static Object eval(String code) throws Exception {
        return kernel().evalRaw(code);
    }

    /**
     * Runs the line magic {@code name} ({@code %name args...}) and returns its value: {@code
     * List<String> added = lineMagic("jars", List.of("lib/*.jar"))}. The type is the caller's to choose,
     * as in IJava: a wrong one fails with a ClassCastException where the value is used.
     *
     * @throws MagicFailed when there is no such magic or it failed, with the reason
     */
    @SuppressWarnings("unchecked")
    public static <T> T lineMagic(String name, List<String> args) {
        return (T) kernel().lineMagic(name, args);
    }

    /** Runs the cell magic {@code name} ({@code %%name args...} over {@code body}) and returns its value. */
    @SuppressWarnings("unchecked")
    public static <T> T cellMagic(String name, List<String> args, String body) {
        return (T) kernel().cellMagic(name, args, body);
    }

    /** A magic called from code (inline, or {@code lineMagic}) failed or is unknown: the message says which and why. */
    public static final class MagicFailed extends RuntimeException {
        MagicFailed(String message) {
            super(message);
        }
    }

    private static String publish(LabKernel k, DisplayData data) {
        String id =
                data.hasDisplayId() ? data.getDisplayId() : UUID.randomUUID().toString();
        data.setDisplayId(id);
        k.display(data);
        return id;
    }

    private static String requireId(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("updateDisplay needs the id display(...) returned");
        }
        return id;
    }

    private static LabKernel kernel() {
        LabKernel k = LabKernel.instance();
        if (k == null) {
            throw new IllegalStateException(
                    "no heimdall-lab kernel runs in this JVM (these functions are for notebooks)");
        }
        return k;
    }
}
