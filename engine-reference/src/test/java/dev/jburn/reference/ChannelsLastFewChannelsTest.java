package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Jit;
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
 * {@link ChannelsLastFewChannelsF32} (run here on any vector width, though the engine takes it on 8 lanes only): the
 * general form's bits ({@link ChannelsLastConvF32#forward}, itself checked against F64) on generated convs with 1-4
 * channels, 1-3 spatial axes, strides, dilations, padding (negative too), a last tile that overlaps the one before, NaN
 * and infinities in the input and kernel, and every bias / ReLU / mask combination; the small CNN's conv 1 against the
 * definition in double; its epilogue against the same steps on its plain result; the Jit path through it.
 */
class ChannelsLastFewChannelsTest {
    private static final int BLOCK = ChannelsLastFewChannelsF32.BLOCK;

    @Test
    void givesTheGeneralFormsBits() {
        Random rnd = new Random(51);
        int ran = 0;
        for (int trial = 0; trial < 40; trial++) {
            int sr = 1 + trial % 3, n = 1 + rnd.nextInt(3), c = 1 + rnd.nextInt(ChannelsLastFewChannelsF32.MAX_CHANNELS);
            int o = BLOCK * (1 + rnd.nextInt(2));
            RandomChannelsLastConv cs = RandomChannelsLastConv.next(rnd, sr, n, c, o, 2, 12, 6);
            ConvSpec spec = cs.spec();
            Shape xs = cs.x(), ks = cs.kernel();
            int xc = cs.xCount(), kc = cs.kCount();
            if (!applies(xs, ks, spec)) continue; // fewer than 3 output positions
            MemorySegment x = floats(rnd, (int) xc), k = floats(rnd, (int) kc), bias = floats(rnd, o);
            float[] odd = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f};
            if (trial % 4 == 1) for (float v : odd) x.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), v);
            if (trial % 4 == 2) k.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt((int) kc), odd[rnd.nextInt(3)]); // meets the padding
            if (trial % 4 == 3) bias.setAtIndex(ValueLayout.JAVA_FLOAT, rnd.nextInt(o), odd[rnd.nextInt(4)]);
            String what = "trial " + trial + ": " + cs.describe();
            Parallel p = new Parallel(1 + trial % 2, 1);
            for (int e = 0; e < 4; e++) {
                MemorySegment b = e == 0 ? null : bias;
                boolean relu = e >= 2, mask = e == 3;
                List<Buffer> want = ChannelsLastConvF32.forward(x, xs, k, ks, b, relu, mask, spec, p);
                List<Buffer> got = ChannelsLastFewChannelsF32.forward(x, xs, k, ks, b, relu, mask, spec, p);
                assertEquals(want.size(), got.size(), what);
                assertArrayEquals(bits(values(want.getLast())), bits(values(got.getLast())), what + ", bias " + (b != null) + ", relu " + relu);
                if (mask) {
                    assertArrayEquals(HostBuffer.of(want.getFirst()).toArray(ValueLayout.JAVA_BYTE),
                            HostBuffer.of(got.getFirst()).toArray(ValueLayout.JAVA_BYTE), what + ": mask");
                }
                want.forEach(Buffer::release);
                got.forEach(Buffer::release);
            }
            ran++;
        }
        assertTrue(ran >= 30, "most cases have 3 output positions, got " + ran);
    }

    /** {@link ChannelsLastFewChannelsF32#applies} on any vector width (the engine asks it only where {@code ON}). */
    private static boolean applies(Shape xs, Shape ks, ConvSpec spec) {
        return ChannelsLastFewChannelsF32.ON ? ChannelsLastFewChannelsF32.applies(xs, ks, spec) : appliesWhenOn(xs, ks, spec);
    }

    private static boolean appliesWhenOn(Shape xs, Shape ks, ConvSpec spec) {
        int sr = spec.spatialRank();
        PaddedImage img = new PaddedImage(ChannelsLastConvF32.spatial(xs, 1, sr), xs.dim(sr + 1), spec.padLow(), spec.padHigh());
        int[] out = ChannelsLastConvF32.slides(img, ChannelsLastConvF32.spatial(ks, 2, sr), spec.kernelDilation(), spec.strides());
        return ChannelsLastConvF32.product(out) >= ChannelsLastFewChannelsF32.POSITIONS;
    }

    @Test
    void theSmallCnnsConv1IsTheDefinition() {
        // conv 1's 32 filters fill whole tiles only with 8 lanes (BLOCK = 4 vectors: 64 filters with 16 lanes, where
        // applies() declines 32 and a direct call would index past the packed kernel); the RGB case below runs on both
        Random rnd = new Random(52);
        for (int[] pads : 32 % ChannelsLastFewChannelsF32.BLOCK == 0 ? new int[][] {{0, 0}, {1, 1}, {2, 0}} : new int[0][]) {
            int n = 3, h = 28, w = 28, c = 1, o = 32;
            int[] lo = {pads[0], pads[0]}, hi = {pads[1], pads[1]};
            ConvSpec spec = new ConvSpec(new int[] {1, 1}, lo, hi, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9);
            int ho = h + lo[0] + hi[0] - 2, wo = w + lo[1] + hi[1] - 2;
            List<Buffer> r = ChannelsLastFewChannelsF32.forward(x, Shape.of(n, h, w, c), k, Shape.of(o, c, 3, 3), null, false, false, spec,
                    new Parallel(2, 1));
            ChannelsLastWinogradTest.assertCloseToDefinition(x, k, n, h, w, c, o, lo, ho, wo, values(r.getFirst()), "pads " + Arrays.toString(pads));
            r.getFirst().release();
        }
        // three channels (an RGB image), padded
        MemorySegment x = floats(rnd, 2 * 9 * 7 * 3), k = floats(rnd, 64 * 3 * 9);
        ConvSpec same = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        List<Buffer> r = ChannelsLastFewChannelsF32.forward(x, Shape.of(2, 9, 7, 3), k, Shape.of(64, 3, 3, 3), null, false, false, same,
                new Parallel(1, 1));
        ChannelsLastWinogradTest.assertCloseToDefinition(x, k, 2, 9, 7, 3, 64, new int[] {1, 1}, 9, 7, values(r.getFirst()), "3 channels");
        r.getFirst().release();
    }

    @Test
    void biasReluAndMaskAreThoseStepsOnThePlainResult() {
        Random rnd = new Random(53);
        for (int trial = 0; trial < 4; trial++) {
            int n = 1 + trial, h = 5 + rnd.nextInt(8), w = 5 + rnd.nextInt(8), c = 1 + trial % 2, o = BLOCK * (1 + trial % 2);
            ConvSpec spec = new ConvSpec(new int[] {1, 1}, new int[] {trial % 2, 0}, new int[] {0, trial % 2}, new int[] {1, 1},
                    new int[] {1, 1}, 1, 1);
            Shape xs = Shape.of(n, h, w, c), ks = Shape.of(o, c, 3, 3);
            MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9), bias = floats(rnd, o);
            bias.setAtIndex(ValueLayout.JAVA_FLOAT, 1, Float.NaN);
            bias.setAtIndex(ValueLayout.JAVA_FLOAT, 2, trial % 2 == 0 ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY);
            bias.setAtIndex(ValueLayout.JAVA_FLOAT, 3, -0f);
            Parallel p = new Parallel(1 + trial % 2, 1);
            ChannelsLastWinogradTest.assertEpilogueOfPlain((b, relu, mask) -> ChannelsLastFewChannelsF32.forward(x, xs, k, ks, b, relu, mask, spec, p),
                    bias, o, "trial " + trial);
        }
    }

    @Test
    void appliesOnlyWhereItShould() {
        ConvSpec valid = new ConvSpec(new int[] {1, 1}, new int[2], new int[2], new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        int o = 4 * ChannelsLastTile.L;
        assertEquals(ChannelsLastFewChannelsF32.ON, ChannelsLastFewChannelsF32.applies(Shape.of(128, 28, 28, 1), Shape.of(o, 1, 3, 3), valid));
        assertEquals(ChannelsLastTile.L == 8, ChannelsLastFewChannelsF32.ON || "false".equals(System.getProperty("jburn.fewchannels")));
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(2, 28, 28, 5), Shape.of(o, 5, 3, 3), valid)); // too many channels
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(2, 28, 28, 1), Shape.of(o / 2, 1, 3, 3), valid)); // not whole blocks
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(2, 3, 4, 1), Shape.of(o, 1, 3, 3), valid)); // 2 output positions
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(0, 28, 28, 1), Shape.of(o, 1, 3, 3), valid)); // empty
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(2, 28, 28, 1), Shape.of(0, 1, 3, 3), valid));
        assertFalse(ChannelsLastFewChannelsF32.applies(Shape.of(2, 28, 28, 1), Shape.of(o, 1, 3, 3),
                new ConvSpec(new int[] {1, 1}, new int[2], new int[2], new int[] {2, 1}, new int[] {1, 1}, 1, 1))); // input dilation
    }

    /** A compiled conv 1 layer (conv, bias, ReLU; channels-last, HWIO kernel) against the same run eagerly in F64. */
    @Test
    void theCompiledLayerMatchesTheF64Result() {
        Random rnd = new Random(54);
        ConvOptions opts = ConvOptions.defaults().withPadding(Padding.VALID).withKernelPermutation(ConvOptions.kernelSpatialFirst(4))
                .withInputPermutation(ConvOptions.channelsLast(4)).withOutputPermutation(ConvOptions.channelsLast(4));
        java.util.function.Function<List<Tensor>, List<Tensor>> layer =
                in -> List.of(in.get(0).conv(in.get(1), opts).add(in.get(2)).maximum(0.0));
        Tensor x = ShapeTestSupport.randomFloat(rnd, DType.F32, 5, 28, 28, 1), k = ShapeTestSupport.randomFloat(rnd, DType.F32, 3, 3, 1, 32);
        Tensor b = ShapeTestSupport.randomFloat(rnd, DType.F32, 32);
        for (Engine e : List.of(Engine.defaultEngine(), ShapeTestSupport.PARALLEL)) {
            Tensor got = Jit.compileList(layer).apply(List.of(x.to(e), k.to(e), b.to(e))).getFirst();
            double[] want = layer.apply(List.of(x.asType(DType.F64), k.asType(DType.F64), b.asType(DType.F64))).getFirst().toDoubleArray();
            double[] g = got.toDoubleArray();
            assertEquals(want.length, g.length);
            for (int i = 0; i < want.length; i++) assertEquals(want[i], g[i], 1e-5 * (1 + Math.abs(want[i])), "output " + i);
        }
    }
}
