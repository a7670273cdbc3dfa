/**
 * How the library's values show themselves: a {@link heimdall.lab.display.Displayable} value has a
 * headline table (its figures, with intervals where it has them), an optional detail table and a
 * plot; from these come its multi-line {@code toString} (jshell), its HTML (a notebook's
 * {@code text/html}), its PNG ({@code image/png}) and {@code show()}, which writes the PNG and prints
 * where. The Jupyter renderers ({@code heimdall.lab.display.jupyter}) register
 * {@code Displayable} once for every such value.
 */
package heimdall.lab.display;
