package dev.jburn.reference;

/** Reference element-wise kernels (scalar oracle, plus Vector API paths where hot). */
final class ElementwiseKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    ElementwiseKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
