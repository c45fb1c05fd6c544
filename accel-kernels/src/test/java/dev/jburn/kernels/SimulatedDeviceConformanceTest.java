package dev.jburn.kernels;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import dev.jburn.spi.EngineConfig;

/**
 * The whole conformance kit against an engine that runs only F32 addition itself: proves that
 * {@link HostFallbackBackend} routes every other primitive to the cpu engine correctly.
 */
class SimulatedDeviceConformanceTest implements ConformanceKit {
    private static final Engine ENGINE = Engine.create(SimulatedDevice.PROVIDER, EngineConfig.defaults());

    @Override
    public Engine engine() { return ENGINE; }

    /** One seed of layer cases: the simulated device runs every op through the host fallback; the reference test runs both seeds. */
    @Override
    public int layerSeeds() { return 1; }
}
