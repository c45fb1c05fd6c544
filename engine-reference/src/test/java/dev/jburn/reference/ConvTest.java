package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.List;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** Conv: the Nx doctest, small hand-computed cases, layouts, types, empty shapes and Nx's validation. */
class ConvTest {
    private static final List<Engine> ENGINES = List.of(Engine.defaultEngine(), ORACLE, PARALLEL);
    private static final ConvOptions DEF = ConvOptions.defaults();

    @Test
    void nxDoctestStridesSamePaddingKernelDilation() {
        for (Engine e : ENGINES) {
            Tensor x = Tensor.iota(Shape.of(1, 1, 3, 3), DType.S32).to(e);
            Tensor k = Tensor.iota(Shape.of(4, 1, 2, 1), DType.S32).to(e);
            Tensor y = x.conv(k, DEF.withStrides(2).withPadding(Padding.SAME).withKernelDilation(2, 1));
            assertEquals(DType.F32, y.dtype());
            assertEquals(Shape.of(1, 4, 2, 2), y.shape());
            assertArrayEquals(new float[] {3, 5, 0, 0, 9, 15, 6, 10, 15, 25, 12, 20, 21, 35, 18, 30}, y.toFloatArray());
        }
    }

    @Test
    void smallHandComputedCases() {
        for (Engine e : ENGINES) {
            Tensor x = Tensor.of(1f, 2f, 3f, 4f).reshape(1, 1, 4).to(e);
            assertArrayEquals(new float[] {3, 5, 7}, x.conv(Tensor.of(1f, 1f).reshape(1, 1, 2).to(e)).toFloatArray());
            // cross-correlation: the kernel is not flipped
            assertArrayEquals(new float[] {5, 8, 11}, x.conv(Tensor.of(1f, 2f).reshape(1, 1, 2).to(e)).toFloatArray());
            // negative padding crops: [2, 3] correlated with [1, 1]
            assertArrayEquals(new float[] {5}, x.conv(Tensor.of(1f, 1f).reshape(1, 1, 2).to(e),
                    DEF.withPadding(Padding.explicit(new int[] {-1, -1}))).toFloatArray());
            // input dilation: [1, 0, 2, 0, 3, 0, 4] correlated with [1, 1]
            assertArrayEquals(new float[] {1, 2, 2, 3, 3, 4}, x.conv(Tensor.of(1f, 1f).reshape(1, 1, 2).to(e),
                    DEF.withInputDilation(2)).toFloatArray());
            // stride 2 with explicit padding {1, 0}: [0, 1, 2, 3, 4] windows of 2 at 0, 2
            assertArrayEquals(new float[] {1, 5}, x.conv(Tensor.of(1f, 1f).reshape(1, 1, 2).to(e),
                    DEF.withStrides(2).withPadding(Padding.explicit(new int[] {1, 0}))).toFloatArray());
        }
    }

    @Test
    void anInfiniteWeightOnPaddingOrADilationHoleGivesNaNOnEveryPath() {
        // Nx pads (and dilates) with zeros, then convolves: 0 * Inf is NaN wherever the weight meets a zero
        for (DType t : List.of(DType.F32, DType.F64, DType.F16)) {
            for (Engine e : ENGINES) {
                Tensor x = Tensor.of(1f, 2f).reshape(1, 1, 2).asType(t).to(e);
                Tensor k = Tensor.of(Float.POSITIVE_INFINITY, 0f).reshape(1, 1, 2).asType(t).to(e);
                Tensor padded = x.conv(k, DEF.withPadding(Padding.explicit(new int[] {1, 0})));
                assertTrue(Double.isNaN(padded.toDoubleArray()[0]), e + " " + t + " padding: " + padded);
                assertEquals(Double.POSITIVE_INFINITY, padded.toDoubleArray()[1], e + " " + t);
                Tensor dilated = x.conv(Tensor.of(1f, Float.POSITIVE_INFINITY).reshape(1, 1, 2).asType(t).to(e), DEF.withInputDilation(2).withStrides(1));
                assertTrue(Double.isNaN(dilated.toDoubleArray()[0]), e + " " + t + " dilation hole: " + dilated);
            }
        }
    }

    @Test
    void featureAndBatchGroups() {
        for (Engine e : ENGINES) {
            // depthwise: 2 channels, one filter each
            Tensor x = Tensor.of(new float[][] {{1, 2, 3}, {10, 20, 30}}).reshape(1, 2, 3).to(e);
            Tensor k = Tensor.of(new float[][] {{1, 1}, {1, -1}}).reshape(2, 1, 2).to(e);
            assertArrayEquals(new float[] {3, 5, -10, -10}, x.conv(k, DEF.withFeatureGroupSize(2)).toFloatArray());
            // batch groups: batch 2 in 2 groups; filter 0 sees image 0, filter 1 sees image 1
            Tensor b = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}}).reshape(2, 1, 3).to(e);
            Tensor kb = Tensor.of(new float[][] {{1, 0}, {0, 1}}).reshape(2, 1, 2).to(e);
            Tensor y = b.conv(kb, DEF.withBatchGroupSize(2));
            assertEquals(Shape.of(1, 2, 2), y.shape());
            assertArrayEquals(new float[] {1, 2, 5, 6}, y.toFloatArray());
        }
    }

    @Test
    void channelsLastEqualsChannelsFirst() {
        java.util.Random rnd = new java.util.Random(5);
        Tensor x = randomFloat(rnd, DType.F32, 2, 3, 7, 6);
        Tensor k = randomFloat(rnd, DType.F32, 4, 3, 3, 2);
        ConvOptions o = DEF.withStrides(2, 1).withPadding(Padding.SAME);
        Tensor nchw = x.conv(k, o);
        Tensor nhwc = x.transpose(0, 2, 3, 1).conv(k.transpose(2, 3, 1, 0), o
                .withInputPermutation(ConvOptions.channelsLast(4)).withOutputPermutation(ConvOptions.channelsLast(4))
                .withKernelPermutation(ConvOptions.kernelSpatialFirst(4)));
        assertEquals(Shape.of(2, 4, 6, 4), nhwc.shape());
        assertSameBits(nchw.transpose(0, 2, 3, 1), nhwc);
        assertArrayEquals(new int[] {0, 3, 1, 2}, ConvOptions.channelsLast(4));
        assertArrayEquals(new int[] {3, 2, 0, 1}, ConvOptions.kernelSpatialFirst(4));
    }

    @Test
    void outputTypes() {
        Tensor x = Tensor.of(1, 2, 3).reshape(1, 1, 3);
        assertEquals(DType.F32, x.conv(Tensor.of(1, 1).reshape(1, 1, 2)).dtype());
        assertEquals(DType.F64, x.conv(Tensor.of(1.0, 1.0).reshape(1, 1, 2)).dtype());
        assertEquals(DType.F16, x.asType(DType.F16).conv(Tensor.of(1, 1).reshape(1, 1, 2)).dtype());
        Tensor mixed = x.asType(DType.BF16).conv(Tensor.of(1, 1).reshape(1, 1, 2).asType(DType.F16));
        assertEquals(DType.F32, mixed.dtype());
        assertArrayEquals(new float[] {3, 5}, mixed.toFloatArray());
    }

    @Test
    void emptyShapes() {
        for (Engine e : ENGINES) {
            Tensor noBatch = Tensor.iota(Shape.of(0, 2, 5), DType.F32).to(e);
            Tensor k = Tensor.iota(Shape.of(3, 2, 2), DType.F32).to(e);
            assertEquals(Shape.of(0, 3, 4), noBatch.conv(k).shape());
            Tensor noChannels = Tensor.iota(Shape.of(2, 0, 5), DType.F32).to(e);
            Tensor y = noChannels.conv(Tensor.iota(Shape.of(3, 0, 2), DType.F32).to(e));
            assertEquals(Shape.of(2, 3, 4), y.shape());
            assertArrayEquals(new float[24], y.toFloatArray());
            // an empty spatial axis with padding: the kernel sees only padding
            Tensor noSpace = Tensor.iota(Shape.of(1, 1, 0), DType.F32).to(e).conv(Tensor.of(2f).reshape(1, 1, 1).to(e),
                    DEF.withPadding(Padding.symmetric(1)));
            assertArrayEquals(new float[] {0, 0}, noSpace.toFloatArray());
            assertEquals(Shape.of(1, 0, 4), Tensor.iota(Shape.of(1, 2, 5), DType.F32).to(e)
                    .conv(Tensor.iota(Shape.of(0, 2, 2), DType.F32).to(e)).shape());
        }
    }

    @Test
    void nxValidationErrors() {
        Tensor x = Tensor.iota(Shape.of(4, 4, 4), DType.F32);
        assertMessage("input shape in conv requires at least rank 3",
                () -> Tensor.of(new int[][] {{1, 2}}).conv(Tensor.iota(Shape.of(2, 2, 2), DType.F32)));
        assertMessage("kernel shape in conv requires at least rank 3", () -> x.conv(Tensor.iota(Shape.of(2, 2), DType.F32)));
        assertMessage("size of input channels divided by feature groups must match size of kernel channels",
                () -> x.conv(Tensor.iota(Shape.of(2, 2, 2), DType.F32)));
        Tensor t = Tensor.iota(Shape.of(3, 2, 2), DType.F32);
        assertMessage("size of kernel output channels must be evenly divisible by feature groups",
                () -> t.conv(Tensor.iota(Shape.of(3, 1, 1), DType.F32), DEF.withFeatureGroupSize(2)));
        assertMessage("either batch groups or feature groups must be 1",
                () -> t.conv(Tensor.iota(Shape.of(1, 1, 1), DType.F32), DEF.withFeatureGroupSize(2).withBatchGroupSize(2)));
        assertMessage("batch groups must evenly divide input batch size",
                () -> t.conv(Tensor.iota(Shape.of(2, 2, 1), DType.F32), DEF.withBatchGroupSize(2)));
        assertMessage("size of kernel output channels must be evenly divisible by batch groups",
                () -> Tensor.iota(Shape.of(4, 2, 2), DType.F32).conv(Tensor.iota(Shape.of(3, 2, 1), DType.F32), DEF.withBatchGroupSize(2)));
        assertMessage("conv would result in empty tensor", () -> x.conv(Tensor.iota(Shape.of(2, 4, 5), DType.F32)));
        assertMessage("same rank", () -> x.conv(Tensor.iota(Shape.of(2, 4, 1, 1), DType.F32)));
        assertMessage("invalid stride dimensions", () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32), DEF.withStrides(1, 1)));
        assertMessage("rank of padding configuration and shape must match",
                () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32), DEF.withPadding(Padding.symmetric(1, 1))));
        assertMessage("expected length of input permutation (2) to match rank of shape (3)",
                () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32), DEF.withInputPermutation(0, 1)));
        assertMessage("must hold each axis", () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32), DEF.withKernelPermutation(0, 0, 1)));
        assertMessage("output padding applies only to convTranspose",
                () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32), DEF.withOutputPadding(1)));
        assertMessage("kernel spatial dimensions must be positive", () -> x.conv(Tensor.iota(Shape.of(2, 4, 0), DType.F32)));
        assertMessage("different engines", () -> x.conv(Tensor.iota(Shape.of(2, 4, 1), DType.F32).to(ORACLE)));
        assertThrows(JBurnException.class, () -> DEF.withKernelDilation(0));
        assertThrows(JBurnException.class, () -> DEF.withFeatureGroupSize(0));
    }

    private static void assertMessage(String fragment, Executable call) {
        JBurnException ex = assertThrows(JBurnException.class, call);
        assertEquals("conv", ex.op());
        assertTrue(ex.getMessage().contains(fragment), ex.getMessage());
    }
}
