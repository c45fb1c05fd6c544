package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import org.junit.jupiter.api.BeforeAll;

/** The whole conformance kit on the Vulkan engine; skipped when no Vulkan device is available. */
class VulkanConformanceTest implements ConformanceKit {
    @BeforeAll
    static void requireDevice() {
        TestDevice.require();
    }

    @Override
    public Engine engine() { return Engine.select("vulkan"); }

    /** One seed of layer cases: on lavapipe (a CPU Vulkan driver, in CI) two seeds take about four minutes. */
    @Override
    public int layerSeeds() { return 1; }
}
