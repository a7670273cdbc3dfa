package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;

/**
 * Functions the kernel imports statically into every session, named as IJava names them, so a
 * notebook can show more than one thing per cell: {@code display(chart)}, {@code display(table)}.
 */
public final class Notebook {
    private Notebook() {}

    /** Renders {@code value} (image, chart, table, anything) as a display output of the running cell. */
    public static void display(Object value) {
        LabKernel k = LabKernel.instance();
        if (k == null) {
            System.out.println(value);
            return;
        }
        DisplayData data = value instanceof DisplayData d ? d : k.getRenderer().render(value);
        k.display(data);
    }
}
