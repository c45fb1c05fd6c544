package dev.jburn.reference;

/** Reference reduction kernels (scalar oracle, plus Vector API paths where hot). */
final class ReductionKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    ReductionKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
