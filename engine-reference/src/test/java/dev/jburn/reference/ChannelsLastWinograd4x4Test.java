package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ChannelsLastConvTest.floats;
import static dev.jburn.reference.ChannelsLastConvTest.values;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link ChannelsLastWinograd4x4F32} against the definition in double on generated channels-last 3×3 convs (batch 1-5, so
 * that groups of two images and partial chunks occur; 1-17 rows and columns, padding 0-2 a side, so that the edge tiles
 * (one output row or column, one point row or column) occur with and without full tiles beside them; ±0 in both
 * operands; the small CNN's conv 2 input cotangent; one and two threads); its bias, ReLU and mask against the same applied
 * to its plain result (bit for bit: {@link ChannelsLastWinogradF32}'s epilogue semantics; conv 2's forward among the
 * shapes); non-finite inputs and kernels: it declines, with and without the epilogue.
 */
class ChannelsLastWinograd4x4Test {
    private static final int L = ChannelsLastTile.L, W = ChannelsLastTile.COLS;

    private static ConvSpec spec(int[] lo, int[] hi) {
        return new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
    }

    @Test
    void matchesTheDefinition() {
        Random rnd = new Random(53);
        int ran = 0, edges = 0;
        double worst = 0;
        for (int trial = 0; trial < 40; trial++) {
            // channels up to a run's stride (RS: 16 vectors of AVX2's 8 lanes, 8 of 16)
            int n = 1 + rnd.nextInt(5), c = L * (1 + rnd.nextInt(trial % 5 == 0 ? ChannelsLastTile.RUN_STRIDE / L : 4)), o = W * (1 + rnd.nextInt(3));
            int h = 1 + rnd.nextInt(trial % 6 == 1 ? 4 : 17), w = 1 + rnd.nextInt(trial % 6 == 2 ? 4 : 17);
            int[] lo = {rnd.nextInt(3), rnd.nextInt(3)}, hi = {rnd.nextInt(3), rnd.nextInt(3)};
            if (trial % 4 == 3) { lo = new int[] {2, 2}; hi = new int[] {2, 2}; } // input cotangents of valid convs
            if (trial == 0) { n = 3; c = 64; o = 32; h = w = 11; lo = new int[] {2, 2}; hi = new int[] {2, 2}; } // conv 2's
            ConvSpec spec = spec(lo, hi);
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            int ho = h + lo[0] + hi[0] - 2, wo = w + lo[1] + hi[1] - 2;
            if (ho < 1 || wo < 1) {
                assertFalse(ChannelsLastWinograd4x4F32.fits(xs, ks, spec));
                continue;
            }
            assertTrue(ChannelsLastWinograd4x4F32.fits(xs, ks, spec));
            if (ho % 4 == 1 || wo % 4 == 1) edges++;
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9);
            for (int i = 0; i < 20; i++) { // signed zeros in both operands
                x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(n * h * w * c), rnd.nextBoolean() ? 0f : -0f);
                k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o * c * 9), rnd.nextBoolean() ? 0f : -0f);
            }
            String what = "n " + n + ", c " + c + ", o " + o + ", in " + h + "x" + w + ", pads " + Arrays.toString(lo) + Arrays.toString(hi);
            for (int threads = 1; threads <= 2; threads++) {
                List<Buffer> r = ChannelsLastWinograd4x4F32.forward(x, xs, k, ks, null, false, false, spec, new Parallel(threads, 1));
                assertNotNull(r, what);
                assertEquals(1, r.size(), what);
                worst = Math.max(worst, ChannelsLastWinogradTest.assertCloseToDefinition(x, k, n, h, w, c, o, lo, ho, wo, values(r.getFirst()), what + ", threads " + threads));
                r.getFirst().release();
                ran++;
            }
        }
        assertTrue(ran > 50 && edges > 10, "runs: " + ran + ", with edge tiles: " + edges);
        System.out.printf("ChannelsLastWinograd4x4Test: largest |error| / sum of the terms' magnitudes %.3g%n", worst);
    }

    @Test
    void nonFiniteValuesDecline() {
        Random rnd = new Random(59);
        float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int trial = 0; trial < 12; trial++) {
            int n = 1 + rnd.nextInt(3), c = L * (1 + rnd.nextInt(4)), o = W, h = 1 + rnd.nextInt(13), w = 1 + rnd.nextInt(13);
            ConvSpec spec = spec(new int[] {2, 2}, new int[] {2, 2});
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9);
            if (trial % 3 == 2) {
                k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o * c * 9), bad[rnd.nextInt(3)]);
            } else { // one value (the last row and column included: the edge tiles read them), or +∞ and -∞ in one patch
                int at = trial == 0 ? n * h * w * c - 1 : rnd.nextInt(n * h * w * c);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, at, bad[trial % 3]);
                if (trial % 3 == 1 && at + c < n * h * w * c) x.setAtIndex(ValueLayout.JAVA_FLOAT, at + c, Float.NEGATIVE_INFINITY);
            }
            String what = "trial " + trial + ": n " + n + ", c " + c + ", in " + h + "x" + w;
            MemorySegment bias = floats(rnd, o);
            for (boolean relu : new boolean[] {false, true}) {
                assertNull(ChannelsLastWinograd4x4F32.forward(x, xs, k, ks, relu ? bias : null, relu, relu, spec, new Parallel(1 + trial % 2, 1)), what);
            }
        }
    }

    @Test
    void biasReluAndMaskAreThoseOfTheOtherForms() {
        Random rnd = new Random(61);
        for (int trial = 0; trial < 8; trial++) {
            int n = 1 + rnd.nextInt(4), c = L * (1 + rnd.nextInt(4)), o = W * (1 + rnd.nextInt(3)), h = 1 + rnd.nextInt(15), w = 1 + rnd.nextInt(15);
            int pad = trial % 3; // 2: edge tiles where the output is 4t + 1 rows or columns
            if (trial == 0) { n = 3; c = 32; o = 64; h = w = 13; pad = 0; } // conv 2's forward
            if (trial == 3) { h = 9; w = 5; pad = 2; } // 13 x 9 outputs: the last-row, last-column and corner tiles
            ConvSpec spec = spec(new int[] {pad, pad}, new int[] {pad, pad});
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            if (!ChannelsLastWinograd4x4F32.fits(xs, ks, spec)) continue;
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9), bias = floats(rnd, o);
            if (trial == 1) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 3, Float.NaN); // NaN stays through the ReLU, mask 0
            if (trial == 2) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 5, Float.POSITIVE_INFINITY);
            if (trial == 3) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 7, -0f);
            if (trial == 4) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 1, Float.NEGATIVE_INFINITY); // -∞: mask 1, +0
            String what = "trial " + trial + ": n " + n + ", c " + c + ", o " + o + ", in " + h + "x" + w + ", pad " + pad;
            Parallel p = new Parallel(1 + trial % 2, 1);
            ChannelsLastWinogradTest.assertEpilogueOfPlain((b, relu, mask) -> ChannelsLastWinograd4x4F32.forward(x, xs, k, ks, b, relu, mask, spec, p),
                    bias, o, what);
        }
    }

    @Test
    void fitsOnlyWhereItShould() {
        ConvSpec dx = spec(new int[] {2, 2}, new int[] {2, 2}), valid = spec(new int[2], new int[2]);
        assertEquals(ChannelsLastWinograd4x4F32.ON, ChannelsLastWinograd4x4F32.applies(Shape.of(2, 11, 11, 64), Shape.of(32, 64, 3, 3), dx));
        assertEquals(ChannelsLastWinograd4x4F32.ON, ChannelsLastWinograd4x4F32.applies(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 3, 3), valid));
        // small images (a 2×2 output: one 4×4 tile, 36 products where the direct form has 36) and few channels: the other forms
        assertFalse(ChannelsLastWinograd4x4F32.applies(Shape.of(2, 4, 4, 32), Shape.of(64, 32, 3, 3), valid));
        assertTrue(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 4, 4, 32), Shape.of(64, 32, 3, 3), valid));
        assertFalse(ChannelsLastWinograd4x4F32.applies(Shape.of(2, 13, 13, 8), Shape.of(64, 8, 3, 3), valid));
        assertEquals(ChannelsLastWinograd4x4F32.widthOn(L) && ChannelsLastWinogradF32.ON, ChannelsLastWinograd4x4F32.ON); // 8 or 16 lanes unless -Djburn.winograd4x4 says otherwise
        assertTrue(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 3, 3), valid));
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(0, 11, 11, 64), Shape.of(32, 64, 3, 3), dx)); // empty
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 0, 11, 64), Shape.of(32, 64, 3, 3), dx));
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 11, 11, L + 4), Shape.of(32, L + 4, 3, 3), dx)); // channels
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 11, 11, 64), Shape.of(W + 8, 64, 3, 3), dx)); // filters
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 11, 11, 64), Shape.of(32, 64, 5, 5), dx));
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 11, 11, 64), Shape.of(32, 64, 3, 3), spec(new int[] {3, 2}, new int[] {2, 2})));
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 2, 11, 64), Shape.of(32, 64, 3, 3), valid)); // no output row
        assertFalse(ChannelsLastWinograd4x4F32.fits(Shape.of(2, 11, 11, 64), Shape.of(32, 64, 3, 3),
                new ConvSpec(new int[] {2, 2}, new int[2], new int[2], new int[] {1, 1}, new int[] {1, 1}, 1, 1)));
    }
}
