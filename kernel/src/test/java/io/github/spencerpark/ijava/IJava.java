package io.github.spencerpark.ijava;

import io.github.spencerpark.jupyter.kernel.BaseKernel;

/**
 * Where IJava 1.3 keeps its running kernel: its {@code IJava} class's static {@code getKernelInstance()},
 * the accessor {@code KernelRenderers.register()} looks up. IJava's own jar is not on Maven Central, so
 * the test holds a kernel built on IJava's real base (jupyter-jvm-basekernel 2.3.0) under the same name.
 */
public final class IJava {
    private static BaseKernel kernel;

    private IJava() {}

    public static BaseKernel getKernelInstance() {
        return kernel;
    }

    public static void running(BaseKernel running) {
        kernel = running;
    }
}
