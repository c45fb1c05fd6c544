package dev.jburn.vulkan;

import dev.jburn.Engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The device tests' common start: the {@code vulkan} engine, or the test is skipped with the reason. */
final class TestDevice {
    private TestDevice() {}

    /** Skips the calling test (an assumption) when no Vulkan device is available. */
    static void require() {
        var a = new VulkanProvider().availability();
        assumeTrue(a.available(), () -> "no Vulkan device: " + a.reason());
    }

    /** The {@code vulkan} engine; skips the calling test when no Vulkan device is available. */
    static Engine engine() {
        require();
        return Engine.select("vulkan");
    }
}
