package dev.jburn.reference;

import dev.jburn.Engine;
import dev.jburn.spi.EngineConfig;

/** The engines reduction and sort tests compare: scalar oracle, vector kernels, vector kernels split over threads. */
final class ReductionEngines {
    private ReductionEngines() {}

    static final Engine ORACLE = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));
    static final Engine VECTOR = Engine.create(new ReferenceProvider(), EngineConfig.defaults());
    static final Engine PARALLEL = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withThreads(2).withParallelThreshold(16));
    static final Engine ORACLE_PARALLEL = Engine.create(new ReferenceProvider(),
            EngineConfig.defaults().withVectorKernels(false).withThreads(2).withParallelThreshold(16));

    static final Engine[] ALL = {ORACLE, VECTOR, PARALLEL, ORACLE_PARALLEL};
}
