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

import static dev.jburn.reference.ChannelsLastConvTest.bits;
import static dev.jburn.reference.ChannelsLastConvTest.floats;
import static dev.jburn.reference.ChannelsLastConvTest.values;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link ChannelsLastWinogradF32} against the definition in double on generated channels-last 3×3 convs (batch 1-5, so
 * that 12-tile chunks span images; odd and even output sizes; padding 0-2 per side; 16-128 channels, 32-96 filters; the
 * small CNN's conv 2 and its input cotangent; one and two threads); its bias, ReLU and mask against the same applied to
 * its plain result (bit for bit: the epilogue's semantics); non-finite inputs and kernels: it declines.
 */
class ChannelsLastWinogradTest {
    private static ConvSpec spec(int[] lo, int[] hi) {
        return new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
    }

    @Test
    void winogradMatchesTheDefinition() {
        Random rnd = new Random(29);
        int ran = 0;
        for (int trial = 0; trial < 32; trial++) {
            int n = 1 + rnd.nextInt(5), c = new int[] {16, 32, 48, 64, 128}[rnd.nextInt(5)], o = new int[] {32, 64, 96}[rnd.nextInt(3)];
            int h = 2 + rnd.nextInt(trial % 6 == 1 ? 3 : 16), w = 2 + rnd.nextInt(trial % 6 == 2 ? 3 : 16);
            int[] lo = {rnd.nextInt(3), rnd.nextInt(3)}, hi = {rnd.nextInt(3), rnd.nextInt(3)};
            if (trial == 0) { n = 3; c = 32; o = 64; h = w = 13; lo = new int[2]; hi = new int[2]; } // conv 2
            if (trial == 1) { n = 3; c = 64; o = 32; h = w = 11; lo = new int[] {2, 2}; hi = new int[] {2, 2}; } // its input cotangent
            ConvSpec spec = spec(lo, hi);
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            int ho = h + lo[0] + hi[0] - 2, wo = w + lo[1] + hi[1] - 2;
            if (trial <= 1) assertEquals(trial == 0 || !ChannelsLastWinogradF32.WIDE, ChannelsLastWinogradF32.applies(xs, ks, spec)); // the cotangent: AVX2 only
            if (ho < 2 || wo < 2) { // (forward itself takes any padding: applies also weighs the products saved)
                assertFalse(ChannelsLastWinogradF32.applies(xs, ks, spec));
                continue;
            }
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9);
            String what = "n " + n + ", c " + c + ", o " + o + ", in " + h + "x" + w + ", pads " + Arrays.toString(lo) + Arrays.toString(hi);
            for (int threads = 1; threads <= 2; threads++) {
                List<Buffer> r = ChannelsLastWinogradF32.forward(x, xs, k, ks, null, false, false, spec, new Parallel(threads, 1));
                assertNotNull(r, what);
                assertEquals(1, r.size());
                assertCloseToDefinition(x, k, n, h, w, c, o, lo, ho, wo, values(r.getFirst()), what + ", threads " + threads);
                r.getFirst().release();
                ran++;
            }
        }
        assertTrue(ran > 40, "runs: " + ran);
    }

    /**
     * {@code y[b, oy, ox, f]} within 1e-5 of the sum of the terms' magnitudes of {@code Σ x[b, oy + i - lo, ox + j - lo, ch] · k[f, ch, i, j]}
     * in double; returns the largest ratio of the two ({@link ChannelsLastWinograd4x4Test} reports it).
     */
    static double assertCloseToDefinition(MemorySegment x, MemorySegment k, int n, int h, int w, int c, int o, int[] lo, int ho, int wo,
                                        float[] y, String what) {
        float[] xv = x.toArray(ValueLayout.JAVA_FLOAT), kv = k.toArray(ValueLayout.JAVA_FLOAT);
        assertEquals((long) n * ho * wo * o, y.length, what);
        double worst = 0;
        for (int b = 0; b < n; b++) {
            for (int oy = 0; oy < ho; oy++) {
                for (int ox = 0; ox < wo; ox++) {
                    for (int f = 0; f < o; f++) {
                        double sum = 0, mag = 0;
                        for (int i = 0; i < 3; i++) {
                            int iy = oy + i - lo[0];
                            if (iy < 0 || iy >= h) continue;
                            for (int j = 0; j < 3; j++) {
                                int ix = ox + j - lo[1];
                                if (ix < 0 || ix >= w) continue;
                                for (int ch = 0; ch < c; ch++) {
                                    double t = (double) xv[((b * h + iy) * w + ix) * c + ch] * kv[((f * c + ch) * 3 + i) * 3 + j];
                                    sum += t;
                                    mag += Math.abs(t);
                                }
                            }
                        }
                        int at = ((b * ho + oy) * wo + ox) * o + f;
                        assertEquals(sum, y[at], 1e-5 * mag + 1e-30, what + ": output " + at + " (" + b + ", " + oy + ", " + ox + ", " + f + ")");
                        if (mag > 0) worst = Math.max(worst, Math.abs(sum - y[at]) / mag);
                    }
                }
            }
        }
        return worst;
    }

    @Test
    void biasReluAndMaskAreThoseOfTheDirectForm() {
        Random rnd = new Random(31);
        for (int trial = 0; trial < 6; trial++) {
            int n = 1 + rnd.nextInt(3), c = 16 * (1 + rnd.nextInt(4)), o = 32 * (1 + rnd.nextInt(2)), h = 3 + rnd.nextInt(12), w = 3 + rnd.nextInt(12);
            int pad = rnd.nextInt(3);
            ConvSpec spec = spec(new int[] {pad, pad}, new int[] {pad, pad});
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9), bias = floats(rnd, o);
            if (trial == 1) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 3, Float.NaN); // NaN stays through the ReLU, mask 0
            if (trial == 2) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 5, Float.POSITIVE_INFINITY);
            if (trial == 3) bias.setAtIndex(ValueLayout.JAVA_FLOAT, 7, -0f);
            String what = "trial " + trial + ": n " + n + ", c " + c + ", o " + o + ", in " + h + "x" + w + ", pad " + pad;
            Parallel p = new Parallel(1 + trial % 2, 1);
            assertEpilogueOfPlain((b, relu, mask) -> ChannelsLastWinogradF32.forward(x, xs, k, ks, b, relu, mask, spec, p), bias, o, what);
        }
    }

    /** A forward form given {@code bias} (or null), {@code relu} and {@code mask}. */
    interface Forward {
        List<Buffer> run(MemorySegment bias, boolean relu, boolean mask);
    }

    /**
     * {@code form}'s bias, ReLU and mask, bit for bit, are those steps applied to its plain result ({@code z = conv + bias},
     * {@code z <= 0 ? +0 : z}, the mask {@code z <= 0} first when both are asked for); {@code o} filters, the last axis.
     */
    static void assertEpilogueOfPlain(Forward form, MemorySegment bias, int o, String what) {
        float[] plain = values(form.run(null, false, false).getFirst());
        float[] added = new float[plain.length], relu = new float[plain.length], plainRelu = new float[plain.length];
        byte[] mask = new byte[plain.length];
        for (int i = 0; i < plain.length; i++) {
            float z = plain[i] + bias.getAtIndex(ValueLayout.JAVA_FLOAT, i % o);
            added[i] = z;
            relu[i] = z <= 0f ? 0f : z;
            mask[i] = (byte) (z <= 0f ? 1 : 0);
            plainRelu[i] = plain[i] <= 0f ? 0f : plain[i];
        }
        assertArrayEquals(bits(added), bits(values(form.run(bias, false, false).getFirst())), what);
        assertArrayEquals(bits(relu), bits(values(form.run(bias, true, false).getFirst())), what);
        assertArrayEquals(bits(plainRelu), bits(values(form.run(null, true, false).getFirst())), what);
        List<Buffer> both = form.run(bias, true, true);
        assertEquals(2, both.size());
        assertArrayEquals(mask, HostBuffer.of(both.get(0)).toArray(ValueLayout.JAVA_BYTE), what);
        assertArrayEquals(bits(relu), bits(values(both.get(1))), what);
        both.forEach(Buffer::release);
    }

    @Test
    void packedKernelIsWinogradConvF32s() {
        Random rnd = new Random(41);
        for (int[] oc : new int[][] {{64, 32}, {32, 64}, {96, 16}}) {
            int o = oc[0], c = oc[1];
            MemorySegment k = floats(rnd, o * c * 9);
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 7, Float.NaN); // non-finite weights and extremes: the same bits too
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 20, Float.POSITIVE_INFINITY);
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 31, Float.MAX_VALUE);
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 32, Float.MAX_VALUE);
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 40, Float.MIN_VALUE);
            k.setAtIndex(ValueLayout.JAVA_FLOAT, 41, -0f);
            ConvGeometry g = new ConvGeometry(Shape.of(1, c, 5, 5), Shape.of(o, c, 3, 3), spec(new int[2], new int[2]));
            int cols = ChannelsLastTile.COLS, blocks = o / cols; // 32 filters a block with 512-bit vectors, 16 with AVX2
            HostBuffer want = WinogradConvF32.packKernel(g, k, blocks), got = ChannelsLastWinogradF32.packKernel(k, o, c, blocks);
            float[] w = want.segment().toArray(ValueLayout.JAVA_FLOAT), gf = got.segment().toArray(ValueLayout.JAVA_FLOAT);
            int point = blocks * c * cols, pitch = ChannelsLastWinogradF32.uPoint(blocks, c); // the same, a line more between the points
            for (int p = 0; p < 16; p++) {
                assertArrayEquals(bits(Arrays.copyOfRange(w, p * point, (p + 1) * point)), bits(Arrays.copyOfRange(gf, p * pitch, p * pitch + point)),
                        "o " + o + ", c " + c + ", point " + p);
            }
            got.release();
            want.release();
        }
    }

    @Test
    void nonFiniteValuesDecline() {
        Random rnd = new Random(37);
        float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int trial = 0; trial < 12; trial++) {
            int n = 1 + rnd.nextInt(3), c = 16 * (1 + rnd.nextInt(2)), o = 32, h = 2 + rnd.nextInt(12), w = 2 + rnd.nextInt(12);
            ConvSpec spec = spec(new int[] {1, 1}, new int[] {1, 1});
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9);
            if (trial % 3 == 2) {
                k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o * c * 9), bad[rnd.nextInt(3)]);
            } else { // one value, or +∞ and -∞ in one patch (∞ - ∞ in the transform)
                int at = rnd.nextInt(n * h * w * c);
                x.setAtIndex(ValueLayout.JAVA_FLOAT, at, bad[trial % 3]);
                if (trial % 3 == 1 && at + c < n * h * w * c) x.setAtIndex(ValueLayout.JAVA_FLOAT, at + c, Float.NEGATIVE_INFINITY);
            }
            String what = "trial " + trial + ": n " + n + ", c " + c + ", in " + h + "x" + w;
            for (boolean relu : new boolean[] {false, true}) {
                assertNull(ChannelsLastWinogradF32.forward(x, xs, k, ks, null, relu, relu, spec, new Parallel(1 + trial % 2, 1)), what);
            }
        }
    }

    @Test
    void appliesOnlyWhereItShould() {
        ConvSpec valid = spec(new int[2], new int[2]);
        assertTrue(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 3, 3), valid) == ChannelsLastWinogradF32.ON);
        assertEquals(ChannelsLastWinogradF32.ON && !ChannelsLastWinogradF32.WIDE, // the input cotangent: 1.39x fewer products, enough on AVX2 only
                ChannelsLastWinogradF32.applies(Shape.of(2, 11, 11, 64), Shape.of(32, 64, 3, 3), spec(new int[] {2, 2}, new int[] {2, 2})));
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 28, 28, 1), Shape.of(32, 1, 3, 3), valid)); // conv 1
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 20), Shape.of(64, 20, 3, 3), valid)); // channels not whole vectors
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 32), Shape.of(40, 32, 3, 3), valid)); // filters not whole blocks
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 5, 5), valid));
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 3, 3, 32), Shape.of(64, 32, 3, 3), valid)); // one output a row
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 3, 3),
                new ConvSpec(new int[] {2, 2}, new int[2], new int[2], new int[] {1, 1}, new int[] {1, 1}, 1, 1)));
        assertFalse(ChannelsLastWinogradF32.applies(Shape.of(2, 13, 13, 32), Shape.of(64, 32, 3, 3), spec(new int[] {-1, 0}, new int[] {1, 0})));
    }
}
