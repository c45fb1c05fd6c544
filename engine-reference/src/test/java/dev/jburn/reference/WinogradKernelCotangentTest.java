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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link WinogradKernelCotangentF32} on generated 3×3 kernel cotangents (autodiff's {@code conv(x as [C, N, H, W], g as
 * [O, N, h, w])}, unit strides): even and odd-sized images, padding 0-1 on either side (-1 too, as cropping), 1-9
 * images, 1-70 input channels and filters (partial vectors and row tiles), cotangents up to 2 chunks of block rows and
 * wider than a chunk. Every output within 1e-5 of its terms' magnitudes of the definition in double, both layouts (the
 * swapped one the transpose of the other), one and two threads. Non-finite operands: the Winograd path declines (nothing
 * written) and {@link KernelCotangentConvF32} gives im2col + GEMM's NaN and infinite outputs. Declined geometries:
 * strides, dilation, an odd cotangent, other than 3×3 taps, padding of 2, one spatial axis.
 */
class WinogradKernelCotangentTest {
    @Test
    void threeByThreeKernelCotangentsMatchTheDefinition() {
        kernelCotangentsMatchTheDefinition(false);
    }

    @Test
    void fourByFourBlocksMatchTheDefinition() { // F(3, 4): cotangent sides multiples of 4
        // on vectors other than 8 lanes F(3, 4) is off unless -Djburn.winogradKernelCotangent.f34=true (how to check it there)
        assumeTrue(Winograd34KernelCotangentF32.ENABLED, "F(3, 4) is off on this vector width");
        kernelCotangentsMatchTheDefinition(true);
    }

    private static boolean applies(boolean f34, ConvGeometry g) {
        return f34 ? Winograd34KernelCotangentF32.applies(g) : WinogradKernelCotangentF32.applies(g);
    }

    private static boolean run(boolean f34, ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel p, boolean swapped) {
        return f34 ? Winograd34KernelCotangentF32.run(g, x, k, dst, p, swapped) : WinogradKernelCotangentF32.run(g, x, k, dst, p, swapped);
    }

    private static void kernelCotangentsMatchTheDefinition(boolean f34) {
        Random rnd = new Random(f34 ? 34 : 16);
        int side = f34 ? 4 : 2;
        int ran = 0, nonFinite = 0;
        for (int trial = 0; trial < 60; trial++) {
            boolean wideTrial = trial % 10 == 9; // a cotangent row of more blocks than a chunk takes (kept small otherwise)
            int n = 1 + rnd.nextInt(wideTrial ? 2 : 9), c = new int[] {1, 5, 16, 33, 64, 70}[rnd.nextInt(wideTrial ? 2 : 6)];
            int o = new int[] {1, 7, 16, 64, 70}[rnd.nextInt(wideTrial ? 3 : 5)];
            int[] in = new int[2], lo = new int[2], hi = new int[2], u = new int[2];
            for (int a = 0; a < 2; a++) {
                int wide = wideTrial && a == 1 ? 140 : 0;
                do {
                    in[a] = 1 + rnd.nextInt(trial < 30 || wideTrial ? 12 : 40) + wide;
                    lo[a] = rnd.nextInt(2) - (rnd.nextInt(6) == 0 ? 1 : 0);
                    hi[a] = rnd.nextInt(2) - (rnd.nextInt(6) == 0 ? 1 : 0);
                    u[a] = in[a] + lo[a] + hi[a] - 2;
                } while (u[a] < side || u[a] % side != 0 || lo[a] + in[a] <= 0);
            }
            ConvSpec spec = new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
            // the conv's batch is the input's channels, its channels the images
            ConvGeometry g = new ConvGeometry(Shape.of(c, n, in[0], in[1]), Shape.of(o, n, u[0], u[1]), spec);
            assertArrayEquals(new int[] {3, 3}, g.out);
            assertTrue(applies(f34, g));
            if (!f34) assertFalse(Winograd34KernelCotangentF32.applies(g) && (u[0] % 4 != 0 || u[1] % 4 != 0));
            String what = "n " + n + ", c " + c + ", o " + o + ", in " + Arrays.toString(in) + ", pads " + Arrays.toString(lo)
                    + Arrays.toString(hi) + ", cotangent " + Arrays.toString(u);
            MemorySegment x = floats(rnd, c * n * in[0] * in[1]), k = floats(rnd, o * n * u[0] * u[1]);
            MemorySegment xs = swap(x, c, n, in[0] * in[1]), ks = swap(k, o, n, u[0] * u[1]);
            for (int threads = 1; threads <= 2; threads++) {
                Parallel p = new Parallel(threads, 1);
                MemorySegment got = MemorySegment.ofArray(new float[(int) g.outSize()]);
                assertTrue(run(f34, g, x, k, got, p, false), what);
                float[] y = got.toArray(ValueLayout.JAVA_FLOAT);
                FilterLaneTilesTest.assertCloseToDefinition(g, x, k, y, what);
                MemorySegment gotSwapped = MemorySegment.ofArray(new float[(int) g.outSize()]);
                assertTrue(run(f34, g, xs, ks, gotSwapped, p, true), what);
                assertArrayEquals(swap(got, c, o, 9).toArray(ValueLayout.JAVA_FLOAT), gotSwapped.toArray(ValueLayout.JAVA_FLOAT), what);
                ran++;
            }
            // non-finite operands: declined, and the caller's direct path gives im2col's non-finite outputs
            x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(c * n * in[0] * in[1]), trial % 2 == 0 ? Float.NaN : Float.POSITIVE_INFINITY);
            if (trial % 3 == 0) k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o * n * u[0] * u[1]), Float.NEGATIVE_INFINITY);
            Parallel p = new Parallel(2, 1);
            float[] untouched = new float[(int) g.outSize()];
            Arrays.fill(untouched, 7f);
            MemorySegment declined = MemorySegment.ofArray(untouched.clone());
            boolean reached = hasNonFinite(x, k, g);
            if (reached) {
                assertFalse(run(f34, g, x, k, declined, p, false), what);
                assertArrayEquals(untouched, declined.toArray(ValueLayout.JAVA_FLOAT), what);
            }
            if (!KernelCotangentConvF32.applies(g)) continue; // more outputs than cotangent positions: not its caller's
            MemorySegment got = MemorySegment.ofArray(new float[(int) g.outSize()]), want = MemorySegment.ofArray(new float[(int) g.outSize()]);
            assertTrue(KernelCotangentConvF32.run(g, x, k, got, p), what);
            nonFinite++;
            Im2col.run(g, DType.F32, x, k, want, p);
            float[] w = want.toArray(ValueLayout.JAVA_FLOAT), y = got.toArray(ValueLayout.JAVA_FLOAT);
            for (int i = 0; i < w.length; i++) {
                if (Float.isNaN(w[i]) || Float.isInfinite(w[i])) assertEquals(w[i], y[i], what + ": output " + i);
                else assertFalse(Float.isNaN(y[i]) || Float.isInfinite(y[i]), what + ": output " + i + " " + y[i] + ", want " + w[i]);
            }
        }
        assertEquals(120, ran);
        assertTrue(nonFinite > 30, "non-finite cases " + nonFinite);
    }

    @Test
    void otherGeometriesAreDeclined() {
        ConvSpec strided = new ConvSpec(new int[] {2, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 9, 8), Shape.of(3, 2, 4, 8), strided)));
        ConvSpec dilated = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {2, 1}, 1, 1);
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 8, 8), Shape.of(3, 2, 4, 8), dilated)));
        ConvSpec same = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 7, 8), Shape.of(3, 2, 7, 8), same))); // odd
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 9, 8), Shape.of(3, 2, 6, 8), same))); // 5x3 taps
        ConvSpec full = new ConvSpec(new int[] {1, 1}, new int[] {2, 0}, new int[] {0, 0}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 8, 8), Shape.of(3, 2, 8, 6), full))); // a tap on padding only
        ConvSpec line = new ConvSpec(new int[] {1}, new int[] {1}, new int[] {1}, new int[] {1}, new int[] {1}, 1, 1);
        assertFalse(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 8), Shape.of(3, 2, 8), line)));
        assertTrue(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(64, 8, 56, 56), Shape.of(64, 8, 56, 56), same)));
        // F(3, 4) takes it where it is on (8- and 16-lane vectors by default, see Winograd34KernelCotangentF32.ENABLED)
        assertEquals(Winograd34KernelCotangentF32.ENABLED, Winograd34KernelCotangentF32.applies(new ConvGeometry(Shape.of(64, 8, 56, 56), Shape.of(64, 8, 56, 56), same)));
        assertFalse(Winograd34KernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 10, 8), Shape.of(3, 2, 10, 8), same))); // 10: F(3, 2) only
        assertTrue(WinogradKernelCotangentF32.applies(new ConvGeometry(Shape.of(4, 2, 10, 8), Shape.of(3, 2, 10, 8), same)));
    }

    /** Whether a non-finite value of either operand is read by the conv (padding crops some of the input). */
    private static boolean hasNonFinite(MemorySegment x, MemorySegment k, ConvGeometry g) {
        for (long i = 0; i < k.byteSize() / 4; i++) if (!Float.isFinite(k.getAtIndex(ValueLayout.JAVA_FLOAT, i))) return true;
        int[][] t = g.inputIndexTables();
        boolean[][] read = new boolean[2][];
        for (int a = 0; a < 2; a++) {
            read[a] = new boolean[g.in[a]];
            for (int v : t[a]) if (v >= 0) read[a][v] = true;
        }
        for (long i = 0; i < x.byteSize() / 4; i++) {
            long pos = i % g.inPlane;
            if (!Float.isFinite(x.getAtIndex(ValueLayout.JAVA_FLOAT, i)) && read[0][(int) (pos / g.in[1])] && read[1][(int) (pos % g.in[1])]) return true;
        }
        return false;
    }

    /** {@code [a, b, plane]} as {@code [b, a, plane]}, in native memory. */
    private static MemorySegment swap(MemorySegment s, int a, int b, int plane) {
        float[] src = s.toArray(ValueLayout.JAVA_FLOAT), dst = new float[src.length];
        for (int i = 0; i < a; i++) for (int j = 0; j < b; j++) System.arraycopy(src, (i * b + j) * plane, dst, (j * a + i) * plane, plane);
        MemorySegment m = HostBuffer.uninitialized((long) dst.length * Float.BYTES).segment(); // native, as the engine's buffers
        MemorySegment.copy(dst, 0, m, ValueLayout.JAVA_FLOAT, 0, dst.length);
        return m;
    }
}
