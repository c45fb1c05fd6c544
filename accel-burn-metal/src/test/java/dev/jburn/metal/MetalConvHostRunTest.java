package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.conformance.RandomConvs;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.HostElements;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Convolutions on the metal backend ({@link MslConv} run on the CPU by clang, or on the GPU on a Mac,
 * {@link SpiRun}) against the cpu engine within a tolerance (float sums in another order than its
 * GEMMs'): 1 to 3 spatial axes, strides, negative and positive padding, input and kernel dilation,
 * feature and batch groups, f32, f16 and bf16, infinite and NaN weights (taps on padding multiply a zero:
 * NaN, as on the cpu engine), empty outputs and empty sums; only f64 falls back.
 */
class MetalConvHostRunTest {
    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    @Test
    void convolutionsMatchTheCpuEngine() throws Exception {
        Random rnd = new Random(1810);
        long expected = 0;
        try (SpiRun r = new SpiRun()) {
            List<DType> types = List.of(DType.F32, DType.F16, DType.BF16, DType.F64);
            for (int c = 0; c < 60; c++) {
                DType t = types.get(c % types.size());
                RandomConvs cs = RandomConvs.next(rnd, c);
                ConvSpec spec = cs.spec();
                if (t == DType.F64) expected++;
                double tol = t == DType.F32 ? 1e-5 : t == DType.F16 ? 2e-3 : 1.6e-2;
                SpiRun.Input kernel = r.uniform(t, cs.kernel(), rnd);
                boolean special = c % 4 == 2 && kernel.shape().size() > 1;
                if (special) { // weights that turn the zeros of padding and dilation holes into NaN
                    HostElements.setDouble(kernel.bits(), t, 0, Double.POSITIVE_INFINITY);
                    HostElements.setDouble(kernel.bits(), t, kernel.shape().size() - 1, Double.NaN);
                }
                r.compareClose("conv " + t + " " + cs.describe() + (special ? " (Inf, NaN weights)" : ""),
                        List.of(r.uniform(t, cs.input(), rnd), kernel), t, tol,
                        (b, xs) -> b.conv(xs.get(0), xs.get(1), spec, t));
            }
            System.out.println("metal convolutions " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }
}
