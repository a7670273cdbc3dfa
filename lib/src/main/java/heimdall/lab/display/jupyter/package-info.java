/**
 * The library's values in a Jupyter kernel's own display pipeline: {@link
 * heimdall.lab.display.jupyter.Renderers} registers Tablesaw tables, XChart charts and every {@code
 * Displayable} with a basekernel-style renderer (this project's kernel, IJava, JJava), and {@link
 * heimdall.lab.display.jupyter.JJavaExtension} is the JJava extension that does it when the jar joins
 * a stock JJava kernel's class path. Uses {@code heimdall.lab.display} and {@code
 * heimdall.lab.analysis}; compiled against JJava's {@code jjava-jupyter} (provided: the kernel brings
 * it), reaching other kernels' APIs by reflection only.
 */
package heimdall.lab.display.jupyter;
