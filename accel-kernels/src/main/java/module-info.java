/**
 * The kernel layer shared by JBurn's GPU engines: {@link dev.jburn.kernels.HostFallbackBackend}
 * (what a device lacks runs on the cpu engine, counted), a small kernel IR built from the graph
 * IR, and one C-like emitter with CUDA C, GLSL and MSL dialects.
 */
module dev.jburn.kernels {
    requires transitive dev.jburn.api;

    exports dev.jburn.kernels;
}
