package dev.jburn.reference;

/** Reference dot kernels (scalar oracle, plus Vector API paths where hot). */
final class DotKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    DotKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
