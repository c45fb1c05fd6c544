package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The channels-last conv groups of Jit graphs ({@link ChannelsLastConvs}, {@link ChannelsLastConvF32}):
 * a channels-last conv and its two cotangents, compiled, against the same computed eagerly in F64
 * (F32 sums in another order agree within rounding), on shapes that exercise partial row and column
 * tiles, padding (negative too), strides, dilations and 1-3 spatial axes; and the groups are found.
 */
class ChannelsLastConvTest {
    /** {@code relu}: a ReLU follows, as {@code max(z, 0)} with the nn layers' gradient ({@code maxForm}) or as {@code select(z <= 0, 0, z)}. */
    private record Case(int[] in, int channels, int filters, int[] kernel, int[] strides, int[][] pads, int[] dilation, boolean relu,
                        boolean maxForm) {
        int rank() { return in.length + 2; }

        /** The channels-last input's dims for {@code batch} images. */
        int[] inputDims(int batch) {
            int[] d = new int[rank()];
            d[0] = batch;
            System.arraycopy(in, 0, d, 1, in.length);
            d[rank() - 1] = channels;
            return d;
        }

        /** The HWIO kernel's dims. */
        int[] kernelDims() {
            int[] d = new int[rank()];
            System.arraycopy(kernel, 0, d, 0, kernel.length);
            d[rank() - 2] = channels;
            d[rank() - 1] = filters;
            return d;
        }
    }

    /** The nn layers' ReLU ({@code Activation.relu}): {@code max(x, 0)}, its gradient read from the result. */
    private static final java.util.function.Function<Tensor, Tensor> RELU_MAX =
            Autodiff.customGradient(x -> x.maximum(0.0), (x, y, g) -> y.greater(0.0).select(g, 0.0));

    /**
     * {@code [y, d/dx, d/dk]} of {@code sum(y · r)} for {@code y = conv(x, k) + bias} (then a ReLU in one of its two forms,
     * when the case says so), channels-last x and output, HWIO kernel.
     */
    private static List<Tensor> step(Case c, List<Tensor> xs) {
        int r = c.rank();
        ConvOptions o = ConvOptions.defaults().withStrides(c.strides).withPadding(Padding.explicit(c.pads))
                .withKernelDilation(c.dilation).withKernelPermutation(ConvOptions.kernelSpatialFirst(r))
                .withInputPermutation(ConvOptions.channelsLast(r)).withOutputPermutation(ConvOptions.channelsLast(r));
        Tensor weights = xs.get(2), bias = xs.get(3);
        java.util.function.BiFunction<Tensor, Tensor, Tensor> layer = (x, k) -> {
            Tensor z = x.conv(k, o).add(bias);
            return !c.relu ? z : c.maxForm ? RELU_MAX.apply(z) : z.lessEqual(0.0).select(0.0, z);
        };
        List<Tensor> g = Autodiff.gradList((List<Tensor> p) -> layer.apply(p.get(0), p.get(1)).multiply(weights).sum()).apply(xs.subList(0, 2));
        Tensor y = layer.apply(xs.get(0), xs.get(1));
        return List.of(y, g.get(0), g.get(1));
    }

    private static Case random(Random rnd, int spatial) {
        int[] in = new int[spatial], kernel = new int[spatial], strides = new int[spatial], dil = new int[spatial];
        int[][] pads = new int[spatial][];
        for (int a = 0; a < spatial; a++) {
            in[a] = 3 + rnd.nextInt(spatial == 3 ? 4 : 9);
            kernel[a] = 1 + rnd.nextInt(3);
            strides[a] = rnd.nextInt(3) == 0 ? 2 : 1;
            dil[a] = rnd.nextInt(4) == 0 ? 2 : 1;
            pads[a] = new int[] {rnd.nextInt(3) - (rnd.nextInt(5) == 0 ? 1 : 0), rnd.nextInt(3)};
        }
        int[] channels = {1, 3, 8, 19};
        int[] filters = {1, 5, 16, 17, 33};
        return new Case(in, channels[rnd.nextInt(channels.length)], filters[rnd.nextInt(filters.length)], kernel, strides, pads, dil,
                rnd.nextBoolean(), rnd.nextBoolean());
    }

    @Test
    void compiledChannelsLastConvsMatchTheF64Result() {
        Random rnd = new Random(41);
        int checked = 0;
        for (int trial = 0; trial < 24; trial++) {
            Case c = random(rnd, 1 + trial % 3);
            int batch = 1 + rnd.nextInt(trial % 4 == 0 ? 12 : 3);
            int[] xd = c.inputDims(batch), kd = c.kernelDims();
            Tensor x = randomFloat(rnd, DType.F32, xd), k = randomFloat(rnd, DType.F32, kd), bias = randomFloat(rnd, DType.F32, c.filters);
            Tensor y;
            try {
                y = step(c, List.of(x, k, Tensor.scalar(1f), bias)).get(0);
            } catch (dev.jburn.JBurnException empty) {
                continue; // the kernel outgrows the padded input: no conv to check
            }
            if (y.size() == 0) continue;
            for (Graph g : compiledOnBothEnginesMatchF64(rnd, c, x, k, bias, y)) {
                assertTrue(groups(g) >= 2, () -> "the forward conv and the kernel cotangent run channels-last: " + g);
                assertTrue(biasJoined(g), () -> "the bias joins the forward conv: " + g);
                assertEquals(c.relu, reluJoined(g, c.maxForm), () -> "the ReLU joins the forward conv: " + g);
            }
            checked++;
        }
        assertTrue(checked >= 18, "most cases have a conv, got " + checked);
    }

    /** Without vector kernels the rewrite is off: the oracle runs every conv as traced. */
    @Test
    void theScalarOracleKeepsTheGraph() {
        Engine oracle = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));
        Case c = new Case(new int[] {5, 6}, 3, 4, new int[] {3, 3}, new int[] {1, 1}, new int[][] {{1, 1}, {0, 0}}, new int[] {1, 1}, true, false);
        Random rnd = new Random(42);
        Tensor x = randomFloat(rnd, DType.F32, 2, 5, 6, 3), k = randomFloat(rnd, DType.F32, 3, 3, 3, 4), bias = randomFloat(rnd, DType.F32, 4);
        CompiledFunction f = Jit.compileList(xs -> step(c, xs));
        List<Tensor> got = f.apply(List.of(x.to(oracle), k.to(oracle), Tensor.scalar(1f).to(oracle), bias.to(oracle)));
        List<Tensor> expected = step(c, List.of(x.asType(DType.F64), k.asType(DType.F64), Tensor.scalar(1.0), bias.asType(DType.F64)));
        for (int i = 0; i < 3; i++) assertClose("oracle output " + i, expected.get(i), got.get(i));
        ChannelsLastConvs off = new ChannelsLastConvs(new Parallel(1, Long.MAX_VALUE), false);
        assertSame(f.graph(), off.rewrite(f.graph()));
    }

    /**
     * The bias and the ReLU that the tiles apply before their store give the bits of the conv, then an F32 add, then
     * {@code z <= 0 ? +0 : z} (NaN stays): filter counts with a partial last block, one to 19 channels, padding, -0.0,
     * NaN and infinite bias values.
     */
    @Test
    void theTilesBiasAndReluHaveTheBitsOfSeparatePasses() {
        Random rnd = new Random(43);
        Parallel one = new Parallel(1, Long.MAX_VALUE);
        for (int trial = 0; trial < 30; trial++) {
            int n = 1 + rnd.nextInt(3), h = 3 + rnd.nextInt(7), w = 3 + rnd.nextInt(7), c = new int[] {1, 3, 8, 19}[rnd.nextInt(4)];
            int o = new int[] {1, 5, 16, 17, 33, 64}[rnd.nextInt(6)], pad = rnd.nextInt(2);
            dev.jburn.spi.ConvSpec spec = new dev.jburn.spi.ConvSpec(new int[] {1, 1}, new int[] {pad, pad}, new int[] {pad, 0},
                    new int[] {1, 1}, new int[] {1, 1}, 1, 1);
            java.lang.foreign.MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9), bias = floats(rnd, o);
            if (o > 2) {
                bias.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, -0.0f);
                bias.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 1, Float.NaN);
                bias.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 2, trial % 2 == 0 ? Float.NEGATIVE_INFINITY : 1e30f);
            }
            dev.jburn.Shape xs = dev.jburn.Shape.of(n, h, w, c), ks = dev.jburn.Shape.of(o, c, 3, 3);
            float[] plain = values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, spec, one).getFirst());
            float[] b = bias.toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
            float[] added = plain.clone(), relu = plain.clone();
            for (int i = 0; i < plain.length; i++) {
                added[i] = plain[i] + b[i % o];
                relu[i] = added[i] <= 0f ? 0f : added[i];
            }
            String what = "n " + n + ", " + h + "x" + w + ", c " + c + ", o " + o + ", pad " + pad;
            assertArrayEquals(bits(added), bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, bias, false, false, spec, one).getFirst())),
                    what + ": bias");
            assertArrayEquals(bits(relu), bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, bias, true, false, spec, one).getFirst())),
                    what + ": bias, relu");
            assertArrayEquals(bits(relu), bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, bias, true, true, spec, one).get(1))),
                    what + ": bias, relu with its mask");
        }
    }

    /**
     * Splitting a forward conv's reduction into chunks of taps (each continuing the sums the one before stored) keeps
     * every bit: one tap per chunk against the whole reduction at once, with padding, bias, ReLU, partial column blocks.
     */
    @Test
    void chunkingTheReductionKeepsTheBits() {
        Random rnd = new Random(46);
        Parallel one = new Parallel(1, Long.MAX_VALUE);
        for (int trial = 0; trial < 20; trial++) {
            int n = 1 + rnd.nextInt(2), h = 2 + rnd.nextInt(8), w = 2 + rnd.nextInt(8), c = new int[] {1, 3, 8, 40}[rnd.nextInt(4)];
            int o = new int[] {1, 5, 17, 33, 64}[rnd.nextInt(5)], pad = rnd.nextInt(3);
            dev.jburn.spi.ConvSpec spec = new dev.jburn.spi.ConvSpec(new int[] {1, 1}, new int[] {pad, pad}, new int[] {pad, pad},
                    new int[] {1, 1}, new int[] {1, 1}, 1, 1);
            java.lang.foreign.MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * 9), bias = floats(rnd, o);
            dev.jburn.Shape xs = dev.jburn.Shape.of(n, h, w, c), ks = dev.jburn.Shape.of(o, c, 3, 3);
            boolean relu = rnd.nextBoolean(), mask = relu && rnd.nextBoolean();
            List<dev.jburn.spi.Buffer> whole = ChannelsLastConvF32.forward(x, xs, k, ks, bias, relu, mask, spec, one, true, Integer.MAX_VALUE);
            if (whole == null) continue;
            List<dev.jburn.spi.Buffer> chunked = ChannelsLastConvF32.forward(x, xs, k, ks, bias, relu, mask, spec, one, true, 1);
            String what = "n " + n + ", " + h + "x" + w + ", c " + c + ", o " + o + ", pad " + pad + ", relu " + relu + ", mask " + mask;
            assertArrayEquals(bits(values(whole.getLast())), bits(values(chunked.getLast())), what);
        }
    }

    /**
     * Skipping the taps that read only padding (the input cotangent's wide padding) keeps every bit, and an infinite
     * or NaN weight turns the skipping off, so that it still meets the padding's zeros and gives NaN there, as the oracle.
     */
    @Test
    void skippingTapsOnPaddingKeepsTheBits() {
        Random rnd = new Random(44);
        Parallel one = new Parallel(1, Long.MAX_VALUE);
        for (int trial = 0; trial < 30; trial++) {
            int n = 1 + rnd.nextInt(2), h = 1 + rnd.nextInt(8), w = 1 + rnd.nextInt(8), c = new int[] {1, 3, 8}[rnd.nextInt(3)];
            int o = new int[] {1, 5, 16, 17, 33}[rnd.nextInt(5)], kh = 1 + rnd.nextInt(4), kw = 1 + rnd.nextInt(3);
            int[] lo = {rnd.nextInt(kh + 1) - (rnd.nextInt(6) == 0 ? 1 : 0), rnd.nextInt(kw)}, hi = {rnd.nextInt(kh + 1), rnd.nextInt(kw)};
            int[] strides = {1 + rnd.nextInt(2), 1}, dil = {1 + (rnd.nextInt(4) == 0 ? 1 : 0), 1};
            dev.jburn.spi.ConvSpec spec = new dev.jburn.spi.ConvSpec(strides, lo, hi, new int[] {1, 1}, dil, 1, 1);
            java.lang.foreign.MemorySegment x = floats(rnd, n * h * w * c), k = floats(rnd, o * c * kh * kw), bias = floats(rnd, o);
            dev.jburn.Shape xs = dev.jburn.Shape.of(n, h, w, c), ks = dev.jburn.Shape.of(o, c, kh, kw);
            String what = "n " + n + ", " + h + "x" + w + ", c " + c + ", o " + o + ", kernel " + kh + "x" + kw + ", pads "
                    + java.util.Arrays.toString(lo) + java.util.Arrays.toString(hi) + ", strides " + strides[0] + ", dilation " + dil[0];
            List<dev.jburn.spi.Buffer> all = ChannelsLastConvF32.forward(x, xs, k, ks, bias, false, false, spec, one, false, ChannelsLastConvF32.CHUNK_BYTES);
            if (all == null) continue; // no output
            assertArrayEquals(bits(values(all.getFirst())), bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, bias, false, false, spec,
                    one, true, ChannelsLastConvF32.CHUNK_BYTES).getFirst())), what);
        }
        // an infinite weight on the first tap, which reads padding for the first output rows: NaN there, as without skipping
        java.lang.foreign.MemorySegment x = floats(rnd, 4 * 4), k = floats(rnd, 9);
        k.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, Float.POSITIVE_INFINITY);
        dev.jburn.spi.ConvSpec pad2 = new dev.jburn.spi.ConvSpec(new int[] {1, 1}, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1},
                new int[] {1, 1}, 1, 1);
        dev.jburn.Shape xs = dev.jburn.Shape.of(1, 4, 4, 1), ks = dev.jburn.Shape.of(1, 1, 3, 3);
        float[] y = values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, pad2, one).getFirst());
        assertTrue(Float.isNaN(y[0]), "0 x inf on the padding gives NaN: " + java.util.Arrays.toString(y));
        assertArrayEquals(bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, pad2, one, false, ChannelsLastConvF32.CHUNK_BYTES).getFirst())), bits(y));
    }

    /**
     * The kernel cotangent on 12-row panel tiles ({@link ChannelsLastTile#panel12}) keeps the bits of the 6-row tiles:
     * batch 1 and more than {@code PARTIALS} images, odd sizes, padding (negative too), strides, dilations, 1-3 spatial
     * axes, channel counts whose row blocks straddle taps, partial column blocks.
     */
    @Test
    void panelTilesKeepTheKernelCotangentsBits() {
        Random rnd = new Random(47);
        Parallel two = new Parallel(2, 1);
        int checked = 0;
        for (int trial = 0; trial < 40; trial++) {
            int sr = 1 + trial % 3, n = trial % 5 == 0 ? 1 : 1 + rnd.nextInt(11);
            int c = new int[] {8, 13, 32, 40}[rnd.nextInt(4)], o = new int[] {1, 17, 33, 64}[rnd.nextInt(4)];
            int[] in = new int[sr], u = new int[sr], strides = new int[sr], lo = new int[sr], hi = new int[sr], dil = new int[sr];
            for (int a = 0; a < sr; a++) {
                in[a] = 2 + rnd.nextInt(sr == 3 ? 4 : 9);
                strides[a] = 1 + rnd.nextInt(2);
                dil[a] = 1 + (rnd.nextInt(4) == 0 ? 1 : 0);
                lo[a] = rnd.nextInt(3) - (rnd.nextInt(5) == 0 ? 1 : 0);
                hi[a] = rnd.nextInt(3);
                u[a] = 1 + rnd.nextInt(Math.max(1, in[a] - 1));
            }
            // the cotangent conv: its strides step the taps, its kernel dilation the cotangent's positions
            dev.jburn.spi.ConvSpec spec = new dev.jburn.spi.ConvSpec(strides, lo, hi, ones(sr), dil, 1, 1);
            int[] xd = new int[sr + 2], gd = new int[sr + 2];
            xd[0] = n;
            gd[0] = n;
            long xc = n * (long) c, gc = n * (long) o;
            for (int a = 0; a < sr; a++) {
                xd[a + 1] = in[a];
                gd[a + 1] = u[a];
                xc *= in[a];
                gc *= u[a];
            }
            xd[sr + 1] = c;
            gd[sr + 1] = o;
            java.lang.foreign.MemorySegment x = floats(rnd, (int) xc), g = floats(rnd, (int) gc);
            dev.jburn.Shape xs = dev.jburn.Shape.of(xd), gs = dev.jburn.Shape.of(gd);
            HostBuffer six = ChannelsLastConvF32.kernelGradient(x, xs, g, gs, spec, two, false);
            if (six == null) continue; // no taps
            HostBuffer twelve = ChannelsLastConvF32.kernelGradient(x, xs, g, gs, spec, two, true);
            String what = "n " + n + ", in " + java.util.Arrays.toString(in) + ", c " + c + ", o " + o + ", u " + java.util.Arrays.toString(u)
                    + ", strides " + java.util.Arrays.toString(strides) + ", pads " + java.util.Arrays.toString(lo) + java.util.Arrays.toString(hi)
                    + ", dilation " + java.util.Arrays.toString(dil);
            assertArrayEquals(bits(values(six)), bits(values(twelve)), what);
            checked++;
        }
        assertTrue(checked >= 30, "most cases have taps, got " + checked);
        // the small CNN's conv 2 (every row block read in the image, the cotangent where it lies), 9 images: partial sums
        // of one and two images
        dev.jburn.spi.ConvSpec valid = new dev.jburn.spi.ConvSpec(ones(2), new int[2], new int[2], ones(2), ones(2), 1, 1);
        dev.jburn.Shape xs = dev.jburn.Shape.of(9, 13, 13, 32), gs = dev.jburn.Shape.of(9, 11, 11, 64);
        java.lang.foreign.MemorySegment x = floats(rnd, 9 * 13 * 13 * 32), g = floats(rnd, 9 * 11 * 11 * 64);
        assertArrayEquals(bits(values(ChannelsLastConvF32.kernelGradient(x, xs, g, gs, valid, two, false))),
                bits(values(ChannelsLastConvF32.kernelGradient(x, xs, g, gs, valid, two, true))), "conv 2");
    }

    /**
     * The scatter form of a fully padded conv (the input cotangent of a valid conv) gives the padded form's bits (each sum
     * the same fma chain, less the zero products on the padding): batch 1 and more, images per group 1 to 5 (tiles across
     * images, a partial last group), odd sizes, dilations, 1-3 spatial axes, one and two column blocks, channels not a
     * multiple of the vector and more than {@link ChannelsLastTile#RUN_STRIDE} (chunks), NaN and infinities in the input; an
     * infinite weight keeps the padded form (NaN where it meets the padding, as the oracle).
     */
    @Test
    void theScatterFormOfAFullCorrelationGivesThePaddedFormsBits() {
        Random rnd = new Random(48);
        Parallel two = new Parallel(2, 1);
        int W = ChannelsLastTile.COLS;
        for (int trial = 0; trial < 40; trial++) {
            int sr = 1 + trial % 3, n = trial % 4 == 0 ? 1 : 1 + rnd.nextInt(7);
            int c = new int[] {8, 13, 64, 150}[rnd.nextInt(4)], o = W * (1 + rnd.nextInt(2));
            int[] in = new int[sr], kd = new int[sr], dil = new int[sr], pad = new int[sr];
            int[] xd = new int[sr + 2], kshape = new int[sr + 2];
            xd[0] = n;
            kshape[0] = o;
            kshape[1] = c;
            long xc = n * (long) c, kc = (long) o * c;
            for (int a = 0; a < sr; a++) {
                in[a] = 1 + rnd.nextInt(sr == 3 ? 4 : 12);
                kd[a] = 1 + rnd.nextInt(3);
                dil[a] = 1 + (rnd.nextInt(3) == 0 ? 1 : 0);
                pad[a] = (kd[a] - 1) * dil[a];
                xd[a + 1] = in[a];
                kshape[a + 2] = kd[a];
                xc *= in[a];
                kc *= kd[a];
            }
            xd[sr + 1] = c;
            dev.jburn.spi.ConvSpec spec = new dev.jburn.spi.ConvSpec(ones(sr), pad, pad, ones(sr), dil, 1, 1);
            java.lang.foreign.MemorySegment x = floats(rnd, (int) xc), k = floats(rnd, (int) kc);
            if (trial % 3 == 1) { // non-finite inputs: NaN and infinities meet the weights in both forms alike
                float[] odd = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
                for (float v : odd) x.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, rnd.nextInt((int) xc), v);
            }
            dev.jburn.Shape xs = dev.jburn.Shape.of(xd), ks = dev.jburn.Shape.of(kshape);
            float[] padded = values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, spec, two, true,
                    ChannelsLastConvF32.CHUNK_BYTES, false).getFirst());
            int group = 1 + trial % 5;
            float[] scattered = values(ChannelsLastConvF32.scatterGroup(group, () -> ChannelsLastConvF32.forward(x, xs, k, ks, null, false,
                    false, spec, two, true, ChannelsLastConvF32.CHUNK_BYTES, true)).getFirst());
            String what = "n " + n + ", in " + java.util.Arrays.toString(in) + ", c " + c + ", o " + o + ", kernel "
                    + java.util.Arrays.toString(kd) + ", dilation " + java.util.Arrays.toString(dil) + ", group " + group;
            assertArrayEquals(bits(padded), bits(scattered), what);
        }
        // an infinite weight: the padded form runs, and gives NaN where the weight meets padding
        java.lang.foreign.MemorySegment x = floats(rnd, 3 * 3 * 8), k = floats(rnd, W * 8 * 9);
        k.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, Float.POSITIVE_INFINITY);
        dev.jburn.spi.ConvSpec pad2 = new dev.jburn.spi.ConvSpec(new int[] {1, 1}, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1},
                new int[] {1, 1}, 1, 1);
        dev.jburn.Shape xs = dev.jburn.Shape.of(1, 3, 3, 8), ks = dev.jburn.Shape.of(W, 8, 3, 3);
        float[] y = values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, pad2, two, true, ChannelsLastConvF32.CHUNK_BYTES, true).getFirst());
        assertTrue(Float.isNaN(y[0]), "0 x inf on the padding gives NaN");
        assertArrayEquals(bits(values(ChannelsLastConvF32.forward(x, xs, k, ks, null, false, false, pad2, two, true,
                ChannelsLastConvF32.CHUNK_BYTES, false).getFirst())), bits(y));
    }

    /** Compiled convs whose input cotangent takes the scatter form (32 input channels), against F64, as the random cases. */
    @Test
    void compiledInputCotangentsInScatterFormMatchTheF64Result() {
        Random rnd = new Random(49);
        int ch = ChannelsLastTile.COLS;
        List<Case> cases = List.of(
                new Case(new int[] {5, 6}, ch, 9, new int[] {3, 3}, new int[] {1, 1}, new int[][] {{0, 0}, {0, 0}}, new int[] {1, 1}, true, true),
                new Case(new int[] {7, 4}, ch, 16, new int[] {2, 3}, new int[] {1, 1}, new int[][] {{0, 0}, {0, 0}}, new int[] {2, 1}, false, false),
                new Case(new int[] {9}, 2 * ch, 8, new int[] {3}, new int[] {1}, new int[][] {{0, 0}}, new int[] {1}, false, false),
                new Case(new int[] {3, 4, 3}, ch, 12, new int[] {2, 2, 2}, new int[] {1, 1, 1}, new int[][] {{0, 0}, {0, 0}, {0, 0}},
                        new int[] {1, 1, 1}, true, false));
        for (int ci = 0; ci < cases.size(); ci++) {
            Case c = cases.get(ci);
            int batch = ci % 2 == 0 ? 1 : 3;
            int[] xd = c.inputDims(batch), kd = c.kernelDims();
            Tensor x = randomFloat(rnd, DType.F32, xd), k = randomFloat(rnd, DType.F32, kd), bias = randomFloat(rnd, DType.F32, c.filters);
            Tensor y = step(c, List.of(x, k, Tensor.scalar(1f), bias)).get(0);
            for (Graph g : compiledOnBothEnginesMatchF64(rnd, c, x, k, bias, y)) {
                assertTrue(groups(g) >= 3, () -> "the three convs run channels-last: " + g);
            }
        }
    }

    /**
     * A random output cotangent {@code w} (drawn from {@code rnd}) for the forward result {@code y}; then {@link #step} of
     * {@code c} compiled on both cpu engines against its F64 result (forward, input and kernel cotangents). The compiled
     * graphs, for the caller's checks of what ran channels-last.
     */
    private static List<Graph> compiledOnBothEnginesMatchF64(Random rnd, Case c, Tensor x, Tensor k, Tensor bias, Tensor y) {
        Tensor w = randomFloat(rnd, DType.F32, y.shape().dims());
        List<Tensor> expected = step(c, List.of(x.asType(DType.F64), k.asType(DType.F64), w.asType(DType.F64), bias.asType(DType.F64)));
        List<Graph> graphs = new java.util.ArrayList<>();
        for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
            CompiledFunction f = Jit.compileList(xs -> step(c, xs));
            List<Tensor> got = f.apply(List.of(x.to(e), k.to(e), w.to(e), bias.to(e)));
            for (int i = 0; i < 3; i++) assertClose(c + " output " + i, expected.get(i), got.get(i));
            graphs.add(f.graph());
        }
        return graphs;
    }

    static int[] ones(int n) {
        int[] r = new int[n];
        java.util.Arrays.fill(r, 1);
        return r;
    }

    static java.lang.foreign.MemorySegment floats(Random rnd, int count) {
        java.lang.foreign.MemorySegment m = HostBuffer.uninitialized((long) count * Float.BYTES).segment();
        for (int i = 0; i < count; i++) m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, rnd.nextFloat() * 2 - 1);
        return m;
    }

    static float[] values(dev.jburn.spi.Buffer b) {
        return HostBuffer.of(b).toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
    }

    static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) b[i] = Float.floatToRawIntBits(v[i]);
        return b;
    }

    /** Fused nodes the rewrite makes out of {@code g}'s convs. */
    private static int groups(Graph g) {
        Graph r = new ChannelsLastConvs(new Parallel(1, Long.MAX_VALUE), true).rewrite(g);
        int n = 0;
        for (Node node : r.nodes()) {
            if (node.prim() instanceof Prim.Fused f && f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Conv)) n++;
        }
        return n;
    }

    /** Whether a conv group of the rewritten {@code g} ends in the bias add. */
    private static boolean biasJoined(Graph g) {
        Graph r = new ChannelsLastConvs(new Parallel(1, Long.MAX_VALUE), true).rewrite(g);
        return r.nodes().stream().anyMatch(n -> n.prim() instanceof Prim.Fused f
                && f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Binary bin && bin.op() == dev.jburn.op.BinaryOp.ADD)
                && f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Conv));
    }

    /** Whether a conv group of the rewritten {@code g} ends in the ReLU: its max, or its mask and its result. */
    private static boolean reluJoined(Graph g, boolean maxForm) {
        Graph r = new ChannelsLastConvs(new Parallel(1, Long.MAX_VALUE), true).rewrite(g);
        return r.nodes().stream().anyMatch(n -> n.prim() instanceof Prim.Fused f && f.body().outputs().size() == (maxForm ? 1 : 2)
                && f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Conv)
                && (!maxForm || f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Binary bin && bin.op() == dev.jburn.op.BinaryOp.MAX)));
    }

    /** Within F32 rounding of sums of {@code |terms|}: {@code 1e-5 · (1 + max |expected|)}. */
    private static void assertClose(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        double scale = 1;
        for (double v : e) scale = Math.max(scale, Math.abs(v));
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < e.length && bad.size() < 5; i++) {
            if (!(Math.abs(e[i] - a[i]) <= 1e-5 * scale)) bad.add(i + ": " + e[i] + " vs " + a[i]);
        }
        assertTrue(bad.isEmpty(), () -> what + ": " + bad);
    }
}
