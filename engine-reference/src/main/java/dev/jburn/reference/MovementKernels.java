package dev.jburn.reference;

/** Reference movement kernels (scalar oracle, plus Vector API paths where hot). */
final class MovementKernels {
    private final Parallel parallel;
    private final dev.jburn.spi.EngineConfig config;

    MovementKernels(Parallel parallel, dev.jburn.spi.EngineConfig config) {
        this.parallel = parallel;
        this.config = config;
    }
}
