package dev.jburn.reference;

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
 * {@link ChannelsLastWinogradKernelCotangentF32} against the definition in double on generated channels-last 3×3 kernel
 * cotangents (batch 1-9, so that the 8 parts hold one or several images; odd and even cotangents, 1-wide ones included;
 * padding 0-1 per side; 16-48 channels, 8-80 filters; the small CNN's conv 2; one and two threads), with any vector width
 * ({@link ChannelsLastWinogradKernelCotangentF32#fits}); non-finite operands: it declines; {@code applies} on the shapes it
 * must refuse.
 */
class ChannelsLastWinogradKernelCotangentTest {
    private static final int L = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();

    private static ConvSpec spec(int[] lo, int[] hi) {
        return new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
    }

    @Test
    void winogradMatchesTheDefinition() {
        Random rnd = new Random(43);
        int ran = 0;
        for (int trial = 0; trial < 40; trial++) {
            int n = 1 + rnd.nextInt(9), c = 2 * L * (1 + rnd.nextInt(48 / (2 * L))), o = L * (1 + rnd.nextInt(80 / L));
            int[] lo = {rnd.nextInt(2), rnd.nextInt(2)}, hi = {rnd.nextInt(2), rnd.nextInt(2)};
            int ho = 1 + rnd.nextInt(trial % 5 == 1 ? 2 : 14), wo = 1 + rnd.nextInt(trial % 5 == 2 ? 2 : 14);
            if (trial == 0) { n = 9; c = 32; o = 64; ho = wo = 11; lo = new int[2]; hi = new int[2]; } // conv 2
            int h = ho + 2 - lo[0] - hi[0], w = wo + 2 - lo[1] - hi[1];
            if (h < 1 || w < 1) continue;
            ConvSpec spec = spec(lo, hi);
            Shape xs = Shape.of(n, h, w, c), gs = Shape.of(n, ho, wo, o);
            boolean everyTapReadsInput = h + lo[0] >= 3 && h + hi[0] >= 3 && w + lo[1] >= 3 && w + hi[1] >= 3;
            assertEquals(everyTapReadsInput, ChannelsLastWinogradKernelCotangentF32.fits(xs, gs, spec));
            if (!everyTapReadsInput) continue;
            MemorySegment x = floats(rnd, n * h * w * c), g = floats(rnd, n * ho * wo * o);
            String what = "n " + n + ", c " + c + ", o " + o + ", cotangent " + ho + "x" + wo + ", pads " + Arrays.toString(lo) + Arrays.toString(hi);
            for (int threads = 1; threads <= 2; threads++) {
                HostBuffer r = ChannelsLastWinogradKernelCotangentF32.kernelGradient(x, xs, g, gs, spec, new Parallel(threads, 1));
                assertNotNull(r, what);
                assertCloseToDefinition(x, g, n, h, w, c, ho, wo, o, lo, r.segment().toArray(ValueLayout.JAVA_FLOAT), what + ", threads " + threads);
                r.release();
                ran++;
            }
        }
        assertTrue(ran > 40, "runs: " + ran);
    }

    /**
     * {@code dk[s, t, ch, f]} within 1e-5 of the largest sum of the terms' magnitudes over the nine taps of {@code (ch, f)} of
     * {@code Σ x[b, oy + s - lo, ox + t - lo, ch] · g[b, oy, ox, f]} in double: the transforms mix the taps of a row and of a
     * column, so a tap with few small terms carries rounding of the others' size (a tap of two terms beside taps of four
     * missed a bound of its own terms by 1.4x on 16-lane vectors: n 2, c 32, o 32, a 2×1 cotangent).
     */
    private static void assertCloseToDefinition(MemorySegment x, MemorySegment g, int n, int h, int w, int c, int ho, int wo, int o, int[] lo,
                                                float[] dk, String what) {
        float[] xv = x.toArray(ValueLayout.JAVA_FLOAT), gv = g.toArray(ValueLayout.JAVA_FLOAT);
        assertEquals(9L * c * o, dk.length, what);
        double[] sums = new double[9 * c * o], mags = new double[9 * c * o], tapMax = new double[c * o];
        for (int s = 0; s < 3; s++) {
            for (int t = 0; t < 3; t++) {
                for (int ch = 0; ch < c; ch++) {
                    for (int f = 0; f < o; f++) {
                        double sum = 0, mag = 0;
                        for (int b = 0; b < n; b++) {
                            for (int oy = 0; oy < ho; oy++) {
                                int iy = oy + s - lo[0];
                                if (iy < 0 || iy >= h) continue;
                                for (int ox = 0; ox < wo; ox++) {
                                    int ix = ox + t - lo[1];
                                    if (ix < 0 || ix >= w) continue;
                                    double v = (double) xv[((b * h + iy) * w + ix) * c + ch] * gv[((b * ho + oy) * wo + ox) * o + f];
                                    sum += v;
                                    mag += Math.abs(v);
                                }
                            }
                        }
                        int at = ((s * 3 + t) * c + ch) * o + f;
                        sums[at] = sum;
                        mags[at] = mag;
                        tapMax[ch * o + f] = Math.max(tapMax[ch * o + f], mag);
                    }
                }
            }
        }
        for (int s = 0; s < 3; s++) {
            for (int t = 0; t < 3; t++) {
                for (int ch = 0; ch < c; ch++) {
                    for (int f = 0; f < o; f++) {
                        int at = ((s * 3 + t) * c + ch) * o + f;
                        assertEquals(sums[at], dk[at], 1e-5 * tapMax[ch * o + f] + 1e-30,
                                what + ": tap " + s + "," + t + ", channel " + ch + ", filter " + f + " (its terms' magnitude " + mags[at] + ")");
                    }
                }
            }
        }
    }

    @Test
    void nonFiniteValuesDecline() {
        Random rnd = new Random(47);
        float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int trial = 0; trial < 12; trial++) {
            int n = 1 + rnd.nextInt(3), c = 2 * L, o = 2 * L, ho = 1 + rnd.nextInt(10), wo = 1 + rnd.nextInt(10);
            ConvSpec spec = spec(new int[] {1, 1}, new int[] {1, 1});
            Shape xs = Shape.of(n, ho, wo, c), gs = Shape.of(n, ho, wo, o);
            MemorySegment x = floats(rnd, n * ho * wo * c), g = floats(rnd, n * ho * wo * o);
            if (trial % 3 == 2) {
                g.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(n * ho * wo * o), bad[rnd.nextInt(3)]);
            } else { // one value, or +∞ and -∞ side by side (∞ - ∞ in the transform)
                int at = rnd.nextInt(n * ho * wo * c);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, at, bad[trial % 3]);
                if (trial % 3 == 1 && at + c < n * ho * wo * c) x.setAtIndex(ValueLayout.JAVA_FLOAT, at + c, Float.NEGATIVE_INFINITY);
            }
            String what = "trial " + trial + ": n " + n + ", cotangent " + ho + "x" + wo;
            assertNull(ChannelsLastWinogradKernelCotangentF32.kernelGradient(x, xs, g, gs, spec, new Parallel(1 + trial % 2, 1)), what);
        }
    }

    @Test
    void appliesOnlyWhereItShould() {
        ConvSpec valid = spec(new int[2], new int[2]);
        assertEquals(ChannelsLastWinogradF32.ON && ChannelsLastWinogradKernelCotangentF32.WIDTH_ON,
                ChannelsLastWinogradKernelCotangentF32.applies(Shape.of(2, 13, 13, 32), Shape.of(2, 11, 11, 64), valid)); // conv 2
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 28, 28, 1), Shape.of(2, 26, 26, 32), valid)); // conv 1
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 13, 13, 24), Shape.of(2, 11, 11, 64), valid)); // channels
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 13, 13, 32), Shape.of(2, 11, 11, 96), valid)); // filters > GS
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 13, 13, 32), Shape.of(2, 9, 9, 64), valid)); // a 5x5 kernel
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 11, 11, 32), Shape.of(2, 13, 13, 64),
                spec(new int[] {2, 2}, new int[] {2, 2}))); // padding 2
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 13, 13, 32), Shape.of(2, 6, 6, 64),
                new ConvSpec(new int[] {2, 2}, new int[2], new int[2], new int[] {1, 1}, new int[] {1, 1}, 1, 1))); // strides
        assertFalse(ChannelsLastWinogradKernelCotangentF32.fits(Shape.of(2, 13, 13, 32), Shape.of(3, 11, 11, 64), valid)); // batches differ
    }
}
