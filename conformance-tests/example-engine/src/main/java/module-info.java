/** The heap engine: for module-path users; class-path users find it through META-INF/services. */
module com.example.heap {
    requires dev.jburn.api;
    requires dev.jburn.kernels;

    provides dev.jburn.spi.EngineProvider with com.example.heap.HeapProvider;
}
