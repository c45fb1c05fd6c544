package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Long f32 products with few output tiles run split along K ({@link DotKernels#splits}): the small CNN's dense layer
 * {@code [128,1600]·[1600,128]}, the MLP's {@code [128,784]·[784,256]}, a vector times a matrix; each agrees with the
 * cpu engine within a dot's rounding, gives the same bits on every run, and does not fall back. Shapes with tiles
 * enough, or whose K has no even split, are not split.
 */
class VulkanSplitKTest {
    @Test
    void splitProductsMatchTheCpuEngine() {
        Engine vk = TestDevice.engine();
        long fallbacks = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
        int[][] shapes = {{128, 1600, 128}, {128, 784, 256}, {1, 1024, 10}, {3, 512, 5}};
        for (int[] s : shapes) {
            int m = s[0], k = s[1], n = s[2];
            assertTrue(DotKernels.splits(m, n, k) > 1, "split: " + m + "x" + k + "x" + n);
            Tensor a = Prng.uniform(Prng.key(m + k), Shape.of(m, k), DType.F32, -1, 1).values();
            Tensor b = Prng.uniform(Prng.key(n + k), Shape.of(k, n), DType.F32, -1, 1).values();
            double[] want = a.dot(b).toDoubleArray();
            Tensor av = a.to(vk), bv = b.to(vk);
            double[] got = av.dot(bv).toDoubleArray(), again = av.dot(bv).toDoubleArray();
            assertEquals(want.length, got.length);
            for (int i = 0; i < want.length; i++) {
                if (Math.abs(want[i] - got[i]) > 1e-5 * k) fail(m + "x" + k + "x" + n + ": element " + i + " is " + got[i] + ", the cpu's " + want[i]);
                if (Double.doubleToLongBits(got[i]) != Double.doubleToLongBits(again[i])) fail("not the same bits twice at " + i);
            }
        }
        assertEquals(fallbacks, vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(), "fallbacks: " + vk.fallbackCounts());
    }

    @Test
    void productsWithTilesEnoughOrNoEvenSplitAreNotSplit() {
        assertEquals(1, DotKernels.splits(1024, 1024, 4096), "many tiles");
        assertEquals(1, DotKernels.splits(128, 128, 256), "short K");
        assertEquals(1, DotKernels.splits(128, 128, 1601), "K prime");
        assertEquals(25, DotKernels.splits(128, 128, 1600));
    }
}
