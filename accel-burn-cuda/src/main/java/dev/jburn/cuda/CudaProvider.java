package dev.jburn.cuda;

import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

/**
 * Provides the {@code cuda} engine: NVIDIA GPUs through the driver API, NVRTC and cuBLAS.
 *
 * <pre>{@code
 * Engine gpu = Engine.select("cuda");
 * Tensor y = Tensor.of(new float[] {1, 2, 3}).to(gpu).exp();
 * Engine second = Engine.select("cuda:1");   // each GPU of the machine is an engine of its own
 * }</pre>
 */
public final class CudaProvider implements EngineProvider {
    /** The engine name. */
    public static final String NAME = "cuda";

    @Override public String name() { return NAME; }

    /** Above the cpu engine (0): a working GPU is the better default. */
    @Override public int priority() { return 100; }

    @Override public Availability availability() { return CudaAvailability.get(); }

    @Override
    public Backend create(EngineConfig config) {
        return new CudaBackend(CudaAvailability.libraries(), CudaConfig.fromSystemProperties());
    }

    /** The GPUs the driver shows this process ({@code CUDA_VISIBLE_DEVICES} applies). */
    @Override public int deviceCount() { return CudaAvailability.libraries().driver().deviceCount(); }

    /** {@code -Djburn.cuda.device}, else {@code $JBURN_CUDA_DEVICE}, else 0. */
    @Override public int defaultDevice() { return CudaConfig.fromSystemProperties().device(); }

    /** Device {@code device}'s engine: its own primary context, stream, allocator, kernel modules and cuBLAS handle. */
    @Override
    public Backend create(EngineConfig config, int device) {
        return new CudaBackend(CudaAvailability.libraries(), CudaConfig.fromSystemProperties().withDevice(device));
    }
}
