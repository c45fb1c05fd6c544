/** The reference CPU engine ({@code cpu}): scalar oracle kernels and Vector API kernels. */
module dev.jburn.reference {
    requires dev.jburn.api;
    requires jdk.incubator.vector;

    exports dev.jburn.reference;

    provides dev.jburn.spi.EngineProvider with dev.jburn.reference.ReferenceProvider;
}
