/**
 * The {@code metal} engine: Apple GPUs through Metal and MetalPerformanceShaders, called with
 * {@code java.lang.foreign} through the Objective-C runtime; kernels are MSL generated from the
 * shared kernel IR. Select it with {@code Engine.select("metal")}; run with
 * {@code --enable-native-access=dev.jburn.metal} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.jburn.metal {
    requires dev.jburn.api;
    requires dev.jburn.kernels;

    provides dev.jburn.spi.EngineProvider with dev.jburn.metal.MetalProvider;
}
