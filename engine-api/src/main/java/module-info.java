/**
 * JBurn's public API: tensors, dtypes, shapes, engines ({@code dev.jburn}), the op catalog
 * ({@code dev.jburn.op}) and the engine SPI ({@code dev.jburn.spi}).
 */
module dev.jburn.api {
    exports dev.jburn;
    exports dev.jburn.op;
    exports dev.jburn.spi;

    uses dev.jburn.spi.EngineProvider;
}
