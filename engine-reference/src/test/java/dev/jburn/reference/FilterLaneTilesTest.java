package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

import static dev.jburn.reference.ChannelsLastConvTest.bits;
import static dev.jburn.reference.ChannelsLastConvTest.floats;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link DirectConvF32}'s filter-lane tiles ({@link FilterLaneTile}: 12 positions × 32 filters, 6 × 16 on AVX2) keep the bits of its
 * positions-in-lanes tiles (8 filters × 3 vectors), and both agree with the definition in double: NCHW convs with unit
 * strides on generated shapes: batch 1 and more, 1-3 spatial axes, odd sizes (tiles across output row ends and past the
 * last row), padding (negative too), kernel dilation, feature and batch groups, 1×1 kernels, channel counts across the
 * lane path's 16-channel passes (1, 5, 16, 17, 40), filter counts that are not a multiple of 32, NaN and ±Inf in the
 * input and the kernel.
 */
class FilterLaneTilesTest {
    @Test
    void filterLaneTilesKeepTheDirectConvsBits() {
        assumeTrue(DirectConvF32.LANES, "filter-lane tiles are built for 16- and 8-lane vectors; this machine has neither, so DirectConvF32 never takes them");
        Random rnd = new Random(61);
        int lanes = 0;
        for (int trial = 0; trial < 60; trial++) {
            int sr = trial % 5 == 4 ? 1 + 2 * rnd.nextInt(2) : 2;
            int fg = trial % 7 == 3 ? 2 : 1, bg = trial % 7 == 5 ? 2 : 1;
            int n = (trial % 6 == 0 ? 1 : 1 + rnd.nextInt(3)) * bg;
            int cg = new int[] {1, 5, 16, 17, 40}[rnd.nextInt(5)], og = new int[] {32, 33, 40, 64, 70}[rnd.nextInt(5)];
            int c = cg * fg, o = og * Math.max(fg, bg);
            int[] in = new int[sr], kd = new int[sr], lo = new int[sr], hi = new int[sr], dil = new int[sr];
            int[] xd = new int[sr + 2], kshape = new int[sr + 2];
            xd[0] = n;
            xd[1] = c;
            kshape[0] = o;
            kshape[1] = cg;
            long xc = (long) n * c, kc = (long) o * cg;
            boolean oneByOne = trial % 9 == 2;
            for (int a = 0; a < sr; a++) {
                in[a] = 1 + rnd.nextInt(sr == 3 ? 6 : sr == 1 ? 60 : 23);
                kd[a] = oneByOne ? 1 : 1 + rnd.nextInt(3);
                dil[a] = rnd.nextInt(4) == 0 ? 2 : 1;
                lo[a] = rnd.nextInt(3) - (rnd.nextInt(5) == 0 ? 1 : 0);
                hi[a] = rnd.nextInt(3);
                xd[a + 2] = in[a];
                kshape[a + 2] = kd[a];
                xc *= in[a];
                kc *= kd[a];
            }
            ConvSpec spec = new ConvSpec(ChannelsLastConvTest.ones(sr), lo, hi, ChannelsLastConvTest.ones(sr), dil, fg, bg);
            ConvGeometry g = new ConvGeometry(Shape.of(xd), Shape.of(kshape), spec);
            if (g.outSize() == 0) continue;
            MemorySegment x = floats(rnd, (int) xc), k = floats(rnd, (int) kc);
            if (trial % 4 == 1) { // non-finite values in the input, and every other time in the kernel
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.NaN);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.POSITIVE_INFINITY);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), Float.NEGATIVE_INFINITY);
                if (trial % 8 == 1) k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) kc), Float.NEGATIVE_INFINITY);
            }
            String what = "n " + n + ", c " + c + ", o " + o + ", groups " + fg + "/" + bg + ", in " + Arrays.toString(in) + ", kernel "
                    + Arrays.toString(kd) + ", pads " + Arrays.toString(lo) + Arrays.toString(hi) + ", dilation " + Arrays.toString(dil);
            for (int threads = 1; threads <= 2; threads++) {
                Parallel p = new Parallel(threads, 1);
                MemorySegment old = MemorySegment.ofArray(new float[(int) g.outSize()]);
                MemorySegment wide = MemorySegment.ofArray(new float[(int) g.outSize()]);
                boolean ran = DirectConvF32.run(g, x, k, old, p, false);
                assertEquals(ran, DirectConvF32.run(g, x, k, wide, p, true), what);
                if (!ran) continue;
                lanes++;
                float[] want = old.toArray(ValueLayout.JAVA_FLOAT), got = wide.toArray(ValueLayout.JAVA_FLOAT);
                assertArrayEquals(bits(want), bits(got), what + ", threads " + threads);
                if (trial % 4 != 1 && threads == 1) assertCloseToDefinition(g, x, k, got, what);
            }
        }
        assertTrue(lanes > 60, "filter-lane runs: " + lanes);
    }

    /**
     * {@link FilterLaneTile#run6} (the AVX2 tile of {@code WinogradConvF32}'s point GEMMs) gives the bits of {@link
     * FilterLaneTile#run}'s first six rows (the same fma chains): fresh and continued sums, split steps, a step table with
     * gaps, NaN and ±Inf among the values. Any vector width.
     */
    @Test
    void sixRowTileKeepsTheTwelveRowTilesBits() {
        Random rnd = new Random(67);
        int cols = FilterLaneTile.COLS, rows = FilterLaneTile.ROWS;
        for (int trial = 0; trial < 30; trial++) {
            int steps = trial == 0 ? 0 : 1 + rnd.nextInt(70), gap = 16 + rnd.nextInt(40), r0 = rnd.nextInt(9);
            float[] a = new float[r0 + (steps + 1) * gap + rows];
            for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat() * 2 - 1;
            if (trial % 5 == 4) a[r0 + rnd.nextInt(Math.max(1, steps)) * gap + rnd.nextInt(6)] = new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}[trial % 3];
            int[] stepAt = new int[steps + 3];
            for (int j = 0; j < stepAt.length; j++) stepAt[j] = (j + 3 < stepAt.length ? j : 0) * gap;
            MemorySegment b = java.lang.foreign.Arena.ofAuto().allocate((long) Math.max(1, steps) * cols * Float.BYTES, 64);
            for (long i = 0; i < (long) steps * cols; i++) b.setAtIndex(ValueLayout.JAVA_FLOAT, i, rnd.nextFloat() * 2 - 1);
            if (trial % 7 == 6) b.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(Math.max(1, steps) * cols), Float.NEGATIVE_INFINITY);
            float[] start = new float[rows * cols];
            for (int i = 0; i < start.length; i++) start[i] = rnd.nextFloat() * 2 - 1;
            boolean fresh = trial % 2 == 0;
            int split = steps / 3;
            float[] want = start.clone(), got = new float[5 + rows * cols];
            System.arraycopy(start, 0, got, 5, rows * cols);
            FilterLaneTile.run(a, r0, stepAt, 0, split, b, 0, want, 0, fresh);
            FilterLaneTile.run(a, r0, stepAt, split, steps - split, b, (long) split * cols * Float.BYTES, want, 0, false);
            FilterLaneTile.run6(a, r0, stepAt, 0, split, b, 0, got, 5, fresh);
            FilterLaneTile.run6(a, r0, stepAt, split, steps - split, b, (long) split * cols * Float.BYTES, got, 5, false);
            String what = "trial " + trial + ", steps " + steps;
            assertArrayEquals(bits(Arrays.copyOf(want, FilterLaneTile.ROWS6 * cols)), bits(Arrays.copyOfRange(got, 5, 5 + FilterLaneTile.ROWS6 * cols)), what);
            assertArrayEquals(bits(Arrays.copyOfRange(start, FilterLaneTile.ROWS6 * cols, rows * cols)),
                    bits(Arrays.copyOfRange(got, 5 + FilterLaneTile.ROWS6 * cols, 5 + rows * cols)), what + ": rows past six untouched");
        }
    }

    /** Every output against the definition summed in double, within 1e-5 of the sum of its terms' magnitudes; returns the largest ratio of the two. */
    static double assertCloseToDefinition(ConvGeometry g, MemorySegment x, MemorySegment k, float[] y, String what) {
        int[][] tables = g.inputIndexTables();
        int sr = g.spatialRank;
        long[] inStrides = new long[sr];
        long s = 1;
        for (int a = sr - 1; a >= 0; a--) {
            inStrides[a] = s;
            s *= g.in[a];
        }
        int[] pos = new int[sr], tap = new int[sr];
        double worst = 0;
        for (int i = 0; i < y.length; i++) {
            long plane = i / g.outPlane;
            WindowGeometry.seek(pos, g.out, i % g.outPlane);
            int o = (int) (plane % g.outChannels), b = (int) (plane / g.outChannels), grp = o / g.og;
            long imageBase = ((long) g.image(b, grp) * g.channels + g.channelBase(grp)) * g.inPlane;
            double sum = 0, mag = 0;
            for (int c = 0; c < g.cg; c++) {
                Arrays.fill(tap, 0);
                for (long kt = 0; kt < g.kernelTaps; kt++) {
                    long off = 0;
                    for (int a = 0; a < sr && off >= 0; a++) {
                        int idx = tables[a][pos[a] * g.kernel[a] + tap[a]];
                        off = idx < 0 ? -1 : off + idx * inStrides[a];
                    }
                    if (off >= 0) {
                        double t = (double) x.getAtIndex(ValueLayout.JAVA_FLOAT, imageBase + c * g.inPlane + off)
                                * k.getAtIndex(ValueLayout.JAVA_FLOAT, ((long) o * g.cg + c) * g.kernelTaps + kt);
                        sum += t;
                        mag += Math.abs(t);
                    }
                    WindowGeometry.next(tap, g.kernel);
                }
            }
            assertEquals(sum, y[i], 1e-5 * mag + 1e-30, what + ": output " + i);
            if (mag > 0) worst = Math.max(worst, Math.abs(sum - y[i]) / mag);
        }
        return worst;
    }
}
