package dev.jburn.vulkan;

import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole conformance kit on the Vulkan engine; skipped when no Vulkan device is available.
 *
 * <p>On a CPU driver (lavapipe, as in CI) each property runs {@value #CPU_DRIVER_EXAMPLES} examples instead of
 * the kit's 150 unless {@code -Djburn.kit.examples} says otherwise: every new shape or type pair there costs a
 * pipeline compile by LLVM, and 150 examples took 7.5 of CI's 21 minutes. What the lower count gives up is
 * covered elsewhere: the kernels' semantics are the shared emitters' (accel-kernels), which the simulated
 * device runs at the full count; on a real GPU this class runs the full count.
 */
class VulkanConformanceTest implements ConformanceKit {
    static final int CPU_DRIVER_EXAMPLES = 50;
    private static boolean setExamples;

    @BeforeAll
    static void requireDevice() {
        TestDevice.require();
        if (new VulkanProvider().priority() == VulkanProvider.CPU_DEVICE_PRIORITY && System.getProperty("jburn.kit.examples") == null) {
            System.setProperty("jburn.kit.examples", Integer.toString(CPU_DRIVER_EXAMPLES));
            setExamples = true;
        }
    }

    @AfterAll
    static void restoreExamples() {
        if (setExamples) System.clearProperty("jburn.kit.examples");
    }

    @Override
    public Engine engine() { return Engine.select("vulkan"); }

    /** One seed of layer cases: on lavapipe (a CPU Vulkan driver, in CI) two seeds take about four minutes. */
    @Override
    public int layerSeeds() { return 1; }
}
