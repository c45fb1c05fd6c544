package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.WindowScatterPlan;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.WindowSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Window scatters (max-pool's gradient) on the metal backend ({@link MslWindows}' kernels run on the CPU
 * by clang, {@link SpiRun}) against the cpu engine, bit for bit: every dtype, windows with strides,
 * padding and dilation, overlapping and disjoint, x drawn from few values (ties, NaN, ±0), rank 0 and
 * empty tensors; and exactly the calls that must fall back did (f64, overlapping float windows).
 */
class MetalWindowsHostRunTest {
    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    @Test
    void windowScattersMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1806);
        long expected = 0;
        try (SpiRun r = new SpiRun(); Arena arena = Arena.ofConfined()) {
            DType[] types = DType.values();
            for (int c = 0; c < 100; c++) {
                DType t = types[c % types.length];
                int rank = rnd.nextInt(4);
                Shape s = SpiRun.shape(rnd, rank, rnd.nextInt(10) == 0 ? 0 : 1, 6);
                int[] dims = new int[rank], strides = new int[rank], lo = new int[rank], hi = new int[rank], dil = new int[rank], out = new int[rank];
                for (int k = 0; k < rank; k++) {
                    dims[k] = 1 + rnd.nextInt(3);
                    strides[k] = c % 3 == 0 ? dims[k] : 1 + rnd.nextInt(3); // a third max-pool-like (disjoint)
                    lo[k] = rnd.nextInt(2);
                    hi[k] = rnd.nextInt(2);
                    dil[k] = rnd.nextInt(4) == 0 ? 2 : 1;
                    long padded = s.dim(k) + lo[k] + hi[k], extent = (dims[k] - 1L) * dil[k] + 1;
                    out[k] = padded < extent ? 0 : (int) ((padded - extent) / strides[k] + 1);
                }
                WindowSpec spec = new WindowSpec(dims, strides, lo, hi, dil);
                boolean overlapFloat = t.isFloat() && !WindowScatterPlan.disjoint(spec);
                if (t == DType.F64 || overlapFloat) expected++;
                WindowOp op = rnd.nextBoolean() ? WindowOp.WINDOW_SCATTER_MAX : WindowOp.WINDOW_SCATTER_MIN;
                SpiRun.Input x = new SpiRun.Input(t, s, MslValues.tied(arena, t, s.size(), rnd));
                SpiRun.Input src = r.edges(t, Shape.of(out), rnd), init = r.edges(t, Shape.of(), rnd);
                r.compare(op.opName() + " " + t + s + " windows " + java.util.Arrays.toString(dims) + " strides " + java.util.Arrays.toString(strides),
                        List.of(x, src, init), (b, xs) -> b.windowScatter(op, xs.get(0), xs.get(1), xs.get(2), spec));
            }
            System.out.println("metal window scatters " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }
}
