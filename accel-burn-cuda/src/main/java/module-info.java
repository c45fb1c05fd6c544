/**
 * The {@code cuda} engine: NVIDIA GPUs through the CUDA driver API, NVRTC and cuBLAS, called with
 * {@code java.lang.foreign}. Select it with {@code Engine.select("cuda")}; run with
 * {@code --enable-native-access=dev.jburn.cuda} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.jburn.cuda {
    requires dev.jburn.api;
    requires dev.jburn.kernels;

    provides dev.jburn.spi.EngineProvider with dev.jburn.cuda.CudaProvider;
    provides dev.jburn.spi.CommunicatorProvider with dev.jburn.cuda.NcclProvider;
}
