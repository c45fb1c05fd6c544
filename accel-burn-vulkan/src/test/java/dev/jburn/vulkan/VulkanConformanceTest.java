package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.conformance.ConformanceKit;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.Op;
import dev.jburn.op.WindowOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The whole conformance kit on the Vulkan engine; skipped when no Vulkan device is available.
 *
 * <p>On a CPU driver (lavapipe, as in CI) each property runs {@value #CPU_DRIVER_EXAMPLES} examples instead of
 * the kit's 150 unless {@code -Djburn.kit.examples} says otherwise: every new shape or type pair there costs a
 * pipeline compile by LLVM, and 150 examples took 7.5 of CI's 21 minutes. What the lower count gives up is
 * covered elsewhere: the kernels' semantics are the shared emitters' (accel-kernels), which the simulated
 * device runs at the full count; on a real GPU this class runs the full count.
 *
 * <p>Afterwards it checks that the kit's properties of {@code pow} and the window scatters ran on the device:
 * none of their calls fell back on a dtype that the engine's capabilities claim (they once all did, unseen,
 * since the kit compares results only).
 */
class VulkanConformanceTest implements ConformanceKit {
    static final int CPU_DRIVER_EXAMPLES = 50;
    private static boolean setExamples;
    private static Map<String, Long> fallbacksBefore;
    /** Ops whose every call on a claimed dtype must run natively: Adam's bias correction and max-pool's gradient. */
    private static final Map<String, Op> ON_THE_DEVICE = Map.of("pow", BinaryOp.POW,
            "windowScatterMax", WindowOp.WINDOW_SCATTER_MAX, "windowScatterMin", WindowOp.WINDOW_SCATTER_MIN);

    @BeforeAll
    static void requireDevice() {
        TestDevice.require();
        if (new VulkanProvider().priority() == VulkanProvider.CPU_DEVICE_PRIORITY && System.getProperty("jburn.kit.examples") == null) {
            System.setProperty("jburn.kit.examples", Integer.toString(CPU_DRIVER_EXAMPLES));
            setExamples = true;
        }
        fallbacksBefore = Engine.select("vulkan").fallbackCounts();
    }

    @AfterAll
    static void powAndWindowScattersRanOnTheDevice() {
        Engine vk = Engine.select("vulkan");
        // A device without f64 may run f32 scatters of overlapping windows on the cpu (declared in WindowScatterKernels).
        boolean f64 = ((VulkanBackend) vk.backend()).dev.features.float64();
        vk.fallbackCounts().forEach((key, n) -> {
            String[] opAndType = key.split(":");
            Op op = ON_THE_DEVICE.get(opAndType[0]);
            if (op == null || n <= fallbacksBefore.getOrDefault(key, 0L)) return;
            DType t = DType.parse(opAndType[1]);
            if (!f64 && op instanceof WindowOp && t == DType.F32) return;
            assertFalse(vk.capabilities().supports(op, t), key + " fell back " + (n - fallbacksBefore.getOrDefault(key, 0L))
                    + " times though the engine claims it");
        });
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
