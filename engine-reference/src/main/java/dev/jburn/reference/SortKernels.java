package dev.jburn.reference;

/** Reference sorting kernels (scalar oracle, plus Vector API paths where hot). */
final class SortKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    SortKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
