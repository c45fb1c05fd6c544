package dev.jburn.reference;

/** Reference indexing kernels (scalar oracle, plus Vector API paths where hot). */
final class IndexKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    IndexKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
