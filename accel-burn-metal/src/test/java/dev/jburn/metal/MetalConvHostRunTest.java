package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
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
                int rank = 1 + rnd.nextInt(3);
                int fg = c % 5 == 1 ? 2 : 1, bg = c % 5 == 3 ? 2 : 1;
                int n = bg * (1 + rnd.nextInt(2)), cg = rnd.nextInt(12) == 0 ? 0 : 1 + rnd.nextInt(3), o = Math.max(fg, bg) * (1 + rnd.nextInt(3));
                int[] in = new int[rank + 2], k = new int[rank + 2];
                in[0] = n;
                in[1] = cg * fg;
                k[0] = o;
                k[1] = cg;
                int[] strides = new int[rank], lo = new int[rank], hi = new int[rank], inDil = new int[rank], kDil = new int[rank];
                for (int d = 0; d < rank; d++) {
                    in[d + 2] = 1 + rnd.nextInt(rank == 3 ? 4 : 7);
                    k[d + 2] = 1 + rnd.nextInt(3);
                    strides[d] = 1 + rnd.nextInt(2);
                    lo[d] = rnd.nextInt(4) - 1;
                    hi[d] = rnd.nextInt(4) - 1;
                    inDil[d] = rnd.nextInt(4) == 0 ? 2 : 1;
                    kDil[d] = rnd.nextInt(4) == 0 ? 2 : 1;
                }
                ConvSpec spec = new ConvSpec(strides, lo, hi, inDil, kDil, fg, bg);
                if (t == DType.F64) expected++;
                double tol = t == DType.F32 ? 1e-5 : t == DType.F16 ? 2e-3 : 1.6e-2;
                SpiRun.Input kernel = r.uniform(t, Shape.of(k), rnd);
                boolean special = c % 4 == 2 && kernel.shape().size() > 1;
                if (special) { // weights that turn the zeros of padding and dilation holes into NaN
                    HostElements.setDouble(kernel.bits(), t, 0, Double.POSITIVE_INFINITY);
                    HostElements.setDouble(kernel.bits(), t, kernel.shape().size() - 1, Double.NaN);
                }
                r.compareClose("conv " + t + " " + Shape.of(in) + " * " + Shape.of(k) + (special ? " (Inf, NaN weights)" : "") + " strides "
                                + java.util.Arrays.toString(strides) + " pad " + java.util.Arrays.toString(lo) + "/" + java.util.Arrays.toString(hi)
                                + " groups " + fg + "/" + bg,
                        List.of(r.uniform(t, Shape.of(in), rnd), kernel), t, tol,
                        (b, xs) -> b.conv(xs.get(0), xs.get(1), spec, t));
            }
            System.out.println("metal convolutions " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }
}
