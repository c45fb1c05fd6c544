package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Conv on every engine (scalar oracle, vector, parallel) against a direct loop written in the
 * test ({@link ConvReference}) on random shapes, strides, dilations, paddings (negative too),
 * feature and batch groups, 1-D to 3-D, and random layouts (channels first, channels last,
 * arbitrary permutations).
 */
class ConvRandomTest {
    private static final List<Engine> ENGINES = List.of(ORACLE, Engine.defaultEngine(), PARALLEL);

    @Test
    void randomConvolutionsMatchTheDefinition() {
        Random rnd = new Random(31);
        for (int trial = 0; trial < 150; trial++) {
            int sr = 1 + trial % 3;
            ConvReference.Case c = ConvReference.random(rnd, sr, trial % 2 == 0);
            DType t = trial % 5 == 0 ? DType.F64 : DType.F32;
            check(rnd, c, t, trial % 3 == 0 ? Layout.CHANNELS_LAST : trial % 3 == 1 ? Layout.RANDOM : Layout.CANONICAL);
        }
    }

    @Test
    void largerDirectAndIm2colShapes() {
        Random rnd = new Random(32);
        // big enough for the register tiles, parallel splits and partial channel blocks
        int[][] shapes = {{2, 5, 19, 23, 7, 3, 3}, {1, 16, 12, 40, 9, 1, 1}, {3, 3, 30, 17, 13, 5, 2}, {2, 20, 9, 30, 50, 1, 1},
                {1, 7, 33, 5, 13, 3, 1}};
        for (int[] s : shapes) {
            for (int stride = 1; stride <= 2; stride++) {
                ConvReference.Case c = new ConvReference.Case(new int[] {s[0], s[1], s[2], s[3]}, new int[] {s[4], s[1], s[5], s[6]},
                        new int[] {stride, stride}, new int[] {(s[5] - 1) / 2, (s[6] - 1) / 2}, new int[] {s[5] / 2, s[6] / 2},
                        new int[] {1, 1}, new int[] {1, 1}, 1, 1, dev.jburn.Padding.SAME);
                check(rnd, c, DType.F32, Layout.CANONICAL);
                check(rnd, c, DType.F32, Layout.CHANNELS_LAST);
            }
        }
        // the kernel cotangent's shape: a kernel nearly as large as the image, a 3×3 output, several images (batched im2col)
        ConvReference.Case kc = new ConvReference.Case(new int[] {5, 9, 13, 13}, new int[] {7, 9, 11, 11}, new int[] {1, 1},
                new int[] {0, 0}, new int[] {0, 0}, new int[] {1, 1}, new int[] {1, 1}, 1, 1, dev.jburn.Padding.explicit(new int[][] {{0, 0}, {0, 0}}));
        check(rnd, kc, DType.F32, Layout.CANONICAL);
        check(rnd, kc, DType.F64, Layout.CANONICAL);
        check(rnd, kc, DType.F32, Layout.CHANNELS_LAST);
    }

    @Test
    void halfTypesFollowTheOracle() {
        Random rnd = new Random(33);
        for (int trial = 0; trial < 20; trial++) {
            ConvReference.Case c = ConvReference.random(rnd, 1 + trial % 2, trial % 2 == 0);
            DType t = trial % 2 == 0 ? DType.F16 : DType.BF16;
            Tensor x = randomFloat(rnd, t, c.inDims()), k = randomFloat(rnd, t, c.kDims());
            Tensor expected = x.to(ORACLE).conv(k.to(ORACLE), c.options());
            assertEquals(t, expected.dtype());
            double ulp = t == DType.F16 ? 1e-3 : 8e-3;
            for (Engine e : List.of(Engine.defaultEngine(), PARALLEL)) {
                double[] a = x.to(e).conv(k.to(e), c.options()).toDoubleArray(), ex = expected.toDoubleArray();
                for (int i = 0; i < a.length; i++) {
                    assertEquals(ex[i], a[i], 2 * ulp * Math.max(1, Math.abs(ex[i])) + 1e-2, c + " element " + i);
                }
            }
        }
    }

    private enum Layout { CANONICAL, CHANNELS_LAST, RANDOM }

    private static void check(Random rnd, ConvReference.Case c, DType t, Layout layout) {
        int r = c.inDims().length;
        Tensor x = randomFloat(rnd, DType.F64, c.inDims()), k = randomFloat(rnd, DType.F64, c.kDims());
        double[][] expected = ConvReference.conv(c, x.toDoubleArray(), k.toDoubleArray());
        int[] inPerm = null, kPerm = null, outPerm = null;
        switch (layout) {
            case CANONICAL -> { }
            case CHANNELS_LAST -> {
                inPerm = ConvOptions.channelsLast(r);
                outPerm = ConvOptions.channelsLast(r);
                kPerm = ConvOptions.kernelSpatialFirst(r);
            }
            case RANDOM -> {
                inPerm = ConvReference.permutation(rnd, r);
                kPerm = ConvReference.permutation(rnd, r);
                outPerm = ConvReference.permutation(rnd, r);
            }
        }
        // The tensors are stored in the layout; the options say where each canonical role lives.
        Tensor xl = inPerm == null ? x : x.transpose(ConvReference.inverse(inPerm));
        Tensor kl = kPerm == null ? k : k.transpose(ConvReference.inverse(kPerm));
        ConvOptions o = c.options().withInputPermutation(inPerm).withKernelPermutation(kPerm).withOutputPermutation(outPerm);
        double tol = t == DType.F64 ? 1e-12 : 2e-6;
        for (Engine e : ENGINES) {
            Tensor y = xl.asType(t).to(e).conv(kl.asType(t).to(e), o);
            assertEquals(t, y.dtype());
            Tensor canonical = outPerm == null ? y : y.transpose(outPerm);
            assertEquals(Shape.of(c.outDims()), canonical.shape(), c.toString());
            double[] got = canonical.toDoubleArray();
            for (int i = 0; i < got.length; i++) {
                double err = Math.abs(got[i] - expected[0][i]);
                assertTrue(err <= tol * (expected[1][i] + 1e-300) * 4 + 1e-300,
                        c + " " + layout + " " + t + " on " + e.name() + " element " + i + ": " + got[i] + " vs " + expected[0][i]);
            }
        }
    }
}
