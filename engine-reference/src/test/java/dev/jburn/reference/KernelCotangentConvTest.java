package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

import static dev.jburn.reference.ChannelsLastConvTest.floats;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link KernelCotangentConvF32} (kernel-cotangent-shaped canonical convs through the channels-last kernel cotangent)
 * on generated shapes: 1-3 spatial axes, kernels as large as the image or a little smaller or larger, strides,
 * kernel dilations, padding (negative too), odd sizes, batch (the cotangent's channels) 1 to 40, channels (the
 * cotangent's batch) 1 to 5, filters 1 to 70. Finite values: every output within 1e-5 of its terms' magnitudes of the
 * definition in double. With NaN and ±Inf in either operand: the same NaN and infinite outputs as im2col + GEMM, the
 * path it replaces. Convs that are not kernel-shaped (more outputs than kernel taps) are declined.
 */
class KernelCotangentConvTest {
    @Test
    void kernelShapedConvsMatchTheDefinition() {
        Random rnd = new Random(71);
        int ran = 0, declined = 0;
        for (int trial = 0; trial < 80; trial++) {
            int sr = trial % 5 == 4 ? 1 + 2 * rnd.nextInt(2) : 2;
            int b = new int[] {1, 3, 16, 33, 40}[rnd.nextInt(5)], c = 1 + rnd.nextInt(5), o = new int[] {1, 7, 32, 64, 70}[rnd.nextInt(5)];
            int[] in = new int[sr], kd = new int[sr], strides = new int[sr], lo = new int[sr], hi = new int[sr], dil = new int[sr];
            int[] xd = new int[sr + 2], kshape = new int[sr + 2];
            xd[0] = b;
            xd[1] = c;
            kshape[0] = o;
            kshape[1] = c;
            long xc = (long) b * c, kc = (long) o * c;
            for (int a = 0; a < sr; a++) {
                in[a] = 2 + rnd.nextInt(sr == 3 ? 6 : 20);
                strides[a] = rnd.nextInt(4) == 0 ? 2 : 1;
                dil[a] = rnd.nextInt(5) == 0 ? 2 : 1;
                lo[a] = rnd.nextInt(3) - (rnd.nextInt(5) == 0 ? 1 : 0);
                hi[a] = rnd.nextInt(3);
                kd[a] = Math.max(1, (in[a] + lo[a] + hi[a] - 1) / dil[a] + 1 - rnd.nextInt(4)); // as large as the padded image, or a little less
                xd[a + 2] = in[a];
                kshape[a + 2] = kd[a];
                xc *= in[a];
                kc *= kd[a];
            }
            ConvSpec spec = new ConvSpec(strides, lo, hi, ChannelsLastConvTest.ones(sr), dil, 1, 1);
            ConvGeometry g = new ConvGeometry(Shape.of(xd), Shape.of(kshape), spec);
            if (g.outSize() == 0) continue;
            MemorySegment x = floats(rnd, (int) xc), k = floats(rnd, (int) kc);
            boolean nonFinite = trial % 4 == 1;
            if (nonFinite) {
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.NaN);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.POSITIVE_INFINITY);
                k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) kc), Float.NEGATIVE_INFINITY);
            }
            String what = "b " + b + ", c " + c + ", o " + o + ", in " + Arrays.toString(in) + ", kernel " + Arrays.toString(kd)
                    + ", strides " + Arrays.toString(strides) + ", pads " + Arrays.toString(lo) + Arrays.toString(hi) + ", dilation "
                    + Arrays.toString(dil);
            Parallel p = new Parallel(2, 1);
            MemorySegment got = MemorySegment.ofArray(new float[(int) g.outSize()]);
            boolean kernelShaped = g.kernelTaps >= g.outPlane;
            assertEquals(kernelShaped, KernelCotangentConvF32.run(g, x, k, got, p), what);
            if (!kernelShaped) {
                declined++;
                continue;
            }
            ran++;
            float[] y = got.toArray(ValueLayout.JAVA_FLOAT);
            if (!nonFinite) {
                FilterLaneTilesTest.assertCloseToDefinition(g, x, k, y, what);
                continue;
            }
            MemorySegment want = MemorySegment.ofArray(new float[(int) g.outSize()]);
            Im2col.run(g, DType.F32, x, k, want, p);
            float[] w = want.toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < w.length; i++) {
                if (Float.isNaN(w[i]) || Float.isInfinite(w[i])) assertEquals(w[i], y[i], what + ": output " + i);
                else assertFalse(Float.isNaN(y[i]) || Float.isInfinite(y[i]), what + ": output " + i + " " + y[i] + ", want " + w[i]);
            }
        }
        assertTrue(ran > 40 && declined > 0, "ran " + ran + ", declined " + declined);
    }
}
