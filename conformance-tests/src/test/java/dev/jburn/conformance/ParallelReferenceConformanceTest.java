package dev.jburn.conformance;

import dev.jburn.Engine;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.EngineConfig;

/**
 * The whole kit against a cpu engine that splits work across threads from 64 elements on,
 * so the generated tensors (up to {@value Shapes#MAX_ELEMENTS} elements) run the parallel paths.
 */
class ParallelReferenceConformanceTest implements ConformanceKit {
    private static final Engine PARALLEL = Engine.create(new ReferenceProvider(),
            EngineConfig.defaults().withParallelThreshold(64).withThreads(Math.max(4, Runtime.getRuntime().availableProcessors())));

    @Override
    public Engine engine() { return PARALLEL; }

    /** One seed of layer cases: the reference test runs both seeds. */
    @Override
    public int layerSeeds() { return 1; }
}
