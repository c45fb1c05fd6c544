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
 * {@link WinogradConvF32} (F(2×2, 3×3), and with AVX2 F(4×4, 3×3) on every same conv) against the definition in double on
 * generated NCHW 3×3 convs: batch 1 and more,
 * odd and even output sizes (tiles cut by the last row and column), square and narrow images (a tile group over many
 * tile rows), padding (uneven, negative), feature and batch groups, channel counts from the 16 it needs on, filter
 * counts not a multiple of 32, one and two threads; the task split (bands of tile rows) varies with the image size.
 * Non-finite values in the input or the kernel: it declines (both forms), and {@link DirectConvF32#run} then gives the direct form's
 * bits (or declines too, for small images, as the direct form does).
 */
class WinogradConvTest {
    @Test
    void winogradMatchesTheDefinition() {
        assumeTrue(WinogradConvF32.ON, "WinogradConvF32 runs on 16- or 8-lane vectors only, or is switched off");
        Random rnd = new Random(17);
        int ran = 0, ran4 = 0;
        double worst4 = 0;
        for (int trial = 0; trial < 40; trial++) {
            int fg = trial % 7 == 3 ? 2 : 1, bg = trial % 7 == 5 ? 2 : 1;
            int n = (trial % 5 == 0 ? 1 : 1 + rnd.nextInt(3)) * bg;
            int cg = new int[] {16, 17, 33, 64}[rnd.nextInt(4)], og = new int[] {32, 33, 40, 64, 70}[rnd.nextInt(5)];
            int c = cg * fg, o = og * Math.max(fg, bg);
            int h = 1 + rnd.nextInt(trial % 6 == 1 ? 4 : 30), w = 1 + rnd.nextInt(trial % 6 == 2 ? 4 : 30);
            int[] lo = {rnd.nextInt(3) - (rnd.nextInt(6) == 0 ? 1 : 0), rnd.nextInt(3) - (rnd.nextInt(6) == 0 ? 1 : 0)};
            int[] hi = {rnd.nextInt(3), rnd.nextInt(3)};
            ConvSpec spec = new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, fg, bg);
            ConvGeometry g = new ConvGeometry(Shape.of(n, c, h, w), Shape.of(o, cg, 3, 3), spec);
            if (g.outSize() == 0) continue;
            MemorySegment x = floats(rnd, n * c * h * w), k = floats(rnd, o * cg * 9);
            String what = "n " + n + ", c " + c + ", o " + o + ", groups " + fg + "/" + bg + ", in " + h + "x" + w + ", pads "
                    + Arrays.toString(lo) + Arrays.toString(hi);
            float[] one4 = null;
            for (int threads = 1; threads <= 2; threads++) {
                MemorySegment y = MemorySegment.ofArray(new float[(int) g.outSize()]);
                boolean took = WinogradConvF32.run(g, x, k, y, new Parallel(threads, 1));
                assertEquals(WinogradConvF32.applies(g), took, what);
                if (!took) continue;
                ran++;
                FilterLaneTilesTest.assertCloseToDefinition(g, x, k, y.toArray(ValueLayout.JAVA_FLOAT), what + ", threads " + threads);
                if (!WinogradConvF32.F4) continue;
                // F(4×4) on every shape F(2×2) takes, also where run would not choose it (outputs of 2, 5 or 6 a side); on
                // two threads (other bands) the same bits as on one: each tile's sums do not depend on the band
                MemorySegment y4 = MemorySegment.ofArray(new float[(int) g.outSize()]);
                assertTrue(WinogradConvF32.run(g, x, k, y4, new Parallel(threads, 1), 4), what);
                float[] got4 = y4.toArray(ValueLayout.JAVA_FLOAT);
                if (threads == 1) {
                    worst4 = Math.max(worst4, FilterLaneTilesTest.assertCloseToDefinition(g, x, k, got4, what + ", F(4x4)"));
                    one4 = got4;
                } else {
                    assertArrayEquals(bits(one4), bits(got4), what + ", F(4x4), two threads");
                }
                ran4++;
            }
        }
        assertTrue(ran > 40, "winograd runs: " + ran);
        if (WinogradConvF32.F4) {
            assertTrue(ran4 > 40, "F(4x4) runs: " + ran4);
            System.out.printf("WinogradConvTest: F(4x4) largest |error| / sum of the terms' magnitudes %.3g%n", worst4);
        }
    }

    @Test
    void nonFiniteValuesFallBackToTheDirectForm() {
        Random rnd = new Random(23);
        int directs = 0;
        for (int trial = 0; trial < 16; trial++) {
            int n = 1 + rnd.nextInt(2), c = 16 + rnd.nextInt(20), o = 32 + rnd.nextInt(40), h = 2 + rnd.nextInt(20), w = 2 + rnd.nextInt(20);
            ConvSpec spec = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
            ConvGeometry g = new ConvGeometry(Shape.of(n, c, h, w), Shape.of(o, c, 3, 3), spec);
            MemorySegment x = floats(rnd, n * c * h * w), k = floats(rnd, o * c * 9);
            float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
            if (trial % 3 == 2) {
                k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o * c * 9), bad[trial % 3 == 2 ? rnd.nextInt(3) : 0]);
            } else { // one value, or +∞ and -∞ in one patch (∞ - ∞ in the transform where the definition has ±∞ or NaN)
                int at = rnd.nextInt(n * c * h * w);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, at, bad[trial % 3]);
                if (trial % 3 == 1 && at + 1 < n * c * h * w) x.setAtIndex(ValueLayout.JAVA_FLOAT, at + 1, Float.NEGATIVE_INFINITY);
            }
            String what = "trial " + trial + ": n " + n + ", c " + c + ", o " + o + ", in " + h + "x" + w;
            Parallel p = new Parallel(1 + trial % 2, 1);
            assertFalse(WinogradConvF32.run(g, x, k, MemorySegment.ofArray(new float[(int) g.outSize()]), p), what);
            assertFalse(WinogradConvF32.run(g, x, k, MemorySegment.ofArray(new float[(int) g.outSize()]), p, 2), what + ", F(2x2)");
            assertFalse(WinogradConvF32.run(g, x, k, MemorySegment.ofArray(new float[(int) g.outSize()]), p, 4), what + ", F(4x4)");
            MemorySegment got = MemorySegment.ofArray(new float[(int) g.outSize()]), want = MemorySegment.ofArray(new float[(int) g.outSize()]);
            boolean direct = DirectConvF32.run(g, x, k, want, p, DirectConvF32.LANES); // small images: declined, as then both
            assertEquals(direct, DirectConvF32.run(g, x, k, got, p), what);
            if (!direct) continue;
            directs++;
            float[] gf = got.toArray(ValueLayout.JAVA_FLOAT);
            assertArrayEquals(bits(want.toArray(ValueLayout.JAVA_FLOAT)), bits(gf), what);
            assertTrue(java.util.stream.IntStream.range(0, gf.length).anyMatch(i -> !Float.isFinite(gf[i])), what);
        }
        assertTrue(directs >= 8, "direct runs: " + directs);
    }

    @Test
    void declinesWhatItDoesNotTake() {
        assumeTrue(WinogradConvF32.ON, "WinogradConvF32 runs on 16- or 8-lane vectors only, or is switched off");
        ConvSpec same = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        ConvGeometry resnet = new ConvGeometry(Shape.of(8, 64, 56, 56), Shape.of(64, 64, 3, 3), same);
        assertTrue(WinogradConvF32.applies(resnet));
        assertEquals(WinogradConvF32.F4, WinogradConvF32.fourByFour(resnet), "the ResNet-like conv by F(4x4) where it is on");
        assertFalse(WinogradConvF32.fourByFour(new ConvGeometry(Shape.of(64, 64, 6, 6), Shape.of(64, 64, 3, 3), same)), "6x6: F(2x2)'s products");
        assertFalse(WinogradConvF32.fourByFour(new ConvGeometry(Shape.of(2, 64, 28, 28), Shape.of(64, 64, 3, 3), same)), "few tiles");
        assertFalse(WinogradConvF32.fourByFour(new ConvGeometry(Shape.of(64, 64, 80, 20), Shape.of(64, 64, 3, 3), same)), "5 tiles a row");
        assertEquals(WinogradConvF32.F4, WinogradConvF32.fourByFour(new ConvGeometry(Shape.of(8, 64, 28, 28), Shape.of(64, 64, 3, 3), same)), "28x28, 8 images");
        assertEquals(ChannelsLastWinograd4x4F32.widthOn(jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length()) && WinogradConvF32.ON, WinogradConvF32.F4,
                "F(4x4) with 8 or 16 lanes unless -Djburn.winograd4x4 says otherwise");
        assertFalse(WinogradConvF32.applies(new ConvGeometry(Shape.of(2, 8, 9, 9), Shape.of(64, 8, 3, 3), same)), "few channels");
        assertFalse(WinogradConvF32.applies(new ConvGeometry(Shape.of(2, 64, 9, 9), Shape.of(16, 64, 3, 3), same)), "few filters");
        assertFalse(WinogradConvF32.applies(new ConvGeometry(Shape.of(2, 64, 9, 9), Shape.of(64, 64, 5, 5), same)), "5x5");
        ConvSpec strided = new ConvSpec(new int[] {2, 2}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        assertFalse(WinogradConvF32.applies(new ConvGeometry(Shape.of(2, 64, 9, 9), Shape.of(64, 64, 3, 3), strided)), "strides");
        ConvSpec dilated = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {2, 2}, 1, 1);
        assertFalse(WinogradConvF32.applies(new ConvGeometry(Shape.of(2, 64, 9, 9), Shape.of(64, 64, 3, 3), dilated)), "dilation");
    }
}
