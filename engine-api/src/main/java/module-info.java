/**
 * JBurn's public API: tensors, dtypes, shapes, engines ({@code dev.jburn}), the op catalog
 * ({@code dev.jburn.op}), the engine SPI ({@code dev.jburn.spi}) and the graph compiler
 * ({@code dev.jburn.graph}: {@code Jit}, the graph IR, passes). {@code dev.jburn.internal} is not exported.
 */
module dev.jburn.api {
    exports dev.jburn;
    exports dev.jburn.op;
    exports dev.jburn.spi;
    exports dev.jburn.graph;
    exports dev.jburn.autodiff;
    exports dev.jburn.dist;

    uses dev.jburn.spi.EngineProvider;
    uses dev.jburn.spi.CommunicatorProvider;
}
