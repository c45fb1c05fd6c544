package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.layers.AdaptiveAvgPool;
import dev.jburn.nn.layers.Conv;
import dev.jburn.nn.layers.ConvTranspose;
import dev.jburn.nn.layers.DepthwiseConv;
import dev.jburn.nn.layers.GlobalPool;
import dev.jburn.nn.layers.Pool;
import dev.jburn.nn.layers.SeparableConv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.*;

/** Convolution and pooling layers: known parameter counts, output shapes, and errors for bad options and inputs. */
class ConvLayersTest {
    @Test
    void leNet5HasItsKnownParameterCount() {
        Model m = Model.input("x", Shape.of(-1, 32, 32, 1))
                .conv2d(6, 5, Activation.TANH).avgPool2d(2)
                .conv2d(16, 5, Activation.TANH).avgPool2d(2)
                .flatten().dense(120, Activation.TANH).dense(84, Activation.TANH).dense(10);
        assertEquals(61_706, m.parameterCount());
        assertEquals(Shape.of(-1, 10), m.outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 5, 5, 16), m.layers().get(4).output().shape());
        String summary = m.summary();
        assertTrue(summary.contains("Total params: 61,706") && summary.contains("conv2d_1") && summary.contains("avg_pool2d_1")
                && summary.contains("f32[-1, 28, 28, 6]"), summary);
    }

    @Test
    void smallCnnPredictsTenLogitsPerImage() {
        Model m = Model.input("x", Shape.of(-1, 28, 28, 1))
                .conv2d(32, 3, Activation.RELU).maxPool2d(2)
                .conv2d(64, 3, Activation.RELU).maxPool2d(2)
                .flatten().dense(128, Activation.RELU).dense(10);
        // 3·3·1·32 + 32, 3·3·32·64 + 64, 1600·128 + 128, 128·10 + 10
        assertEquals(320 + 18_496 + 1600 * 128 + 128 + 1290, m.parameterCount());
        assertEquals(225_034, m.parameterCount());
        ModelState s = m.init(Prng.key(0));
        assertEquals(Shape.of(3, 3, 1, 32), s.get("conv2d_0.kernel").shape());
        assertEquals(Shape.of(3, 3, 32, 64), s.get("conv2d_1.kernel").shape());
        Tensor x = Prng.uniform(Prng.key(1), Shape.of(3, 28, 28, 1), DType.F32, 0, 1).values();
        Tensor y = m.predict(s, x);
        assertEquals(Shape.of(3, 10), y.shape());
        for (float v : y.toFloatArray()) assertTrue(Float.isFinite(v));
    }

    @Test
    void outputShapesFollowKerasAndPyTorch() {
        Model x = Model.input("x", Shape.of(-1, 7, 8, 3));
        assertEquals(Shape.of(-1, 4, 4, 5), x.apply(Conv.of(2, 5, 3).withStrides(2).withPadding(Padding.SAME)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 5, 5, 4), x.convTranspose2d(4, 3, 2).apply(Pool.max(2, 3)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 14, 16, 4), x.apply(ConvTranspose.of(2, 4, 3).withStrides(2).withPadding(Padding.SAME))
                .outputSpecs().getFirst().shape());
        // PyTorch ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1): (7-1)·2 - 2 + 3 + 1 = 14
        assertEquals(Shape.of(-1, 14, 16, 4), x.apply(ConvTranspose.of(2, 4, 3).withStrides(2)
                .withPadding(Padding.symmetric(1, 1)).withOutputPadding(1)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 5, 6, 6), x.apply(DepthwiseConv.of(2, 3).withDepthMultiplier(2)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 7, 8, 16), x.apply(SeparableConv.of(2, 16, 3).withPadding(Padding.SAME)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 3), x.globalMaxPool().outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 1, 1, 3), x.apply(GlobalPool.avg().withKeepAxes(true)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 2, 3, 3), x.adaptiveAvgPool2d(2, 3).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 4, 4, 3), x.apply(Pool.avg(2, 2).withPadding(Padding.SAME)).outputSpecs().getFirst().shape());
        // channels first, open spatial axes stay open
        Model cf = Model.input("x", Shape.of(-1, 3, -1, 8));
        assertEquals(Shape.of(-1, 6, -1, 6), cf.apply(Conv.of(2, 6, 3).withChannelsFirst(true)).outputSpecs().getFirst().shape());
        assertEquals(Shape.of(-1, 3, -1, 4), cf.apply(Pool.max(2, 2).withChannelsFirst(true)).outputSpecs().getFirst().shape());
        // parameter layouts
        var p = Model.input("x", Shape.of(-1, 9, 9, 4)).apply(ConvTranspose.of(2, 6, 3).withGroups(2)).parameterSpecs();
        assertEquals(Shape.of(3, 3, 3, 4), p.get("conv_transpose2d_0.kernel").shape());
        p = Model.input("x", Shape.of(-1, 9, 9, 4)).apply(SeparableConv.of(2, 8, 3).withDepthMultiplier(2)).parameterSpecs();
        assertEquals(Shape.of(3, 3, 4, 2), p.get("separable_conv2d_0.depthwise_kernel").shape());
        assertEquals(Shape.of(1, 1, 8, 8), p.get("separable_conv2d_0.pointwise_kernel").shape());
        assertEquals(Shape.of(8), p.get("separable_conv2d_0.bias").shape());
    }

    @Test
    void openSpatialAxesRunAtAnySize() {
        Model m = Model.input("x", Shape.of(-1, -1, -1, 2)).apply(Conv.of(2, 3, 3).withStrides(2).withPadding(Padding.SAME))
                .adaptiveAvgPool2d(2, 2).flatten();
        ModelState s = m.init(Prng.key(0));
        assertEquals(Shape.of(1, 12), m.predict(s, Tensor.zeros(Shape.of(1, 9, 6, 2), DType.F32)).shape());
        assertEquals(Shape.of(2, 12), m.predict(s, Tensor.zeros(Shape.of(2, 4, 5, 2), DType.F32)).shape());
    }

    @Test
    void badOptionsAreRefusedWhenTheLayerIsMade() {
        refused(() -> Conv.of(2, 0, 3), "conv2d: filters must be positive");
        refused(() -> Conv.of(4, 8, 3), "conv: the spatial rank must be 1 to 3");
        refused(() -> Conv.of(2, 8, 3, 3, 3), "conv2d: kernel size needs 1 or 2 values");
        refused(() -> Conv.of(2, 8, 3).withStrides(0), "conv2d: strides must be positive");
        refused(() -> Conv.of(2, 6, 3).withGroups(4), "conv2d: filters (6) must be a multiple of groups (4)");
        refused(() -> Conv.of(2, 6, 3).withPadding(Padding.explicit(new int[] {1, 1})), "conv2d: explicit padding needs one (lo, hi) pair per spatial axis");
        refused(() -> Conv.of(1, 6, 3).withPadding(Padding.explicit(new int[] {-1, 1})), "conv1d: padding must be non-negative");
        refused(() -> Conv.of(2, 6, 3).withActivation(null), "conv2d: activation and initializers must not be null");
        refused(() -> ConvTranspose.of(2, 4, 3).withStrides(2).withOutputPadding(2), "conv_transpose2d: output padding must be smaller than the stride");
        refused(() -> ConvTranspose.of(1, 4, 3).withStrides(2).withPadding(Padding.SAME).withOutputPadding(1),
                "conv_transpose1d: output padding must be 0 with SAME padding");
        refused(() -> DepthwiseConv.of(3, 3), "depthwise_conv: the spatial rank must be 1 to 2");
        refused(() -> DepthwiseConv.of(2, 3).withDepthMultiplier(0), "depthwise_conv2d: the depth multiplier must be positive");
        refused(() -> SeparableConv.of(2, 0, 3), "separable_conv2d: filters must be positive");
        refused(() -> Pool.max(2, 2).withPadding(Padding.explicit(new int[] {2, 0}, new int[] {0, 0})),
                "max_pool2d: padding must be smaller than the window");
        refused(() -> Pool.avg(1, 0), "avg_pool1d: window size must be positive");
        refused(() -> AdaptiveAvgPool.of(2, 0), "adaptive_avg_pool2d: output size must be positive");
        refused(() -> Model.input("x", Shape.of(-1, 8, 8, 1)).maxPool2d(0), "max_pool2d: window size must be positive");
    }

    @Test
    void badInputsNameTheLayerAndTheShapes() {
        Model img = Model.input("x", Shape.of(-1, 28, 28, 3));
        refused(() -> Model.input("x", Shape.of(-1, 28, 28)).conv2d(8, 3).summary(),
                "conv2d_0 (conv2d): expects rank 4 [batch, height, width, channels], got input of shape [-1, 28, 28]");
        refused(() -> Model.input("x", Shape.of(-1, 28, 28, -1)).conv2d(8, 3).summary(), "conv2d_0 (conv2d): needs a known channel count");
        refused(() -> Model.input("x", Shape.of(-1, 2, 2, 1)).conv2d(8, 3).summary(), "conv2d_0 (conv2d): the kernel of extent [3, 3] does not fit");
        refused(() -> img.apply(Conv.of(2, 4, 3).withGroups(2)).summary(), "conv2d_0 (conv2d): input channels (3) must be a multiple of groups (2)");
        refused(() -> Model.input("x", Shape.of(-1, 8, 8, 1), DType.S32).conv2d(4, 3).summary(), "conv2d_0 (conv2d): expects a float input");
        refused(() -> img.conv1d(4, 3).summary(), "conv1d_0 (conv1d): expects rank 3 [batch, length, channels]");
        refused(() -> img.apply(Conv.of(2, 6, 3).withChannelsFirst(true).withGroups(3)).summary(),
                "conv2d_0 (conv2d): input channels (28) must be a multiple of groups (3)");
        refused(() -> img.conv3d(4, 3).summary(), "conv3d_0 (conv3d): expects rank 5 [batch, depth, height, width, channels]");
        refused(() -> img.apply(ConvTranspose.of(2, 4, 3).withGroups(2)).summary(), "conv_transpose2d_0 (conv_transpose2d): input channels (3)");
        refused(() -> Model.input("x", Shape.of(-1, 8)).convTranspose2d(4, 3, 2).summary(), "conv_transpose2d_0 (conv_transpose2d): expects rank 4");
        refused(() -> Model.input("x", Shape.of(-1, 8, 8, -1)).depthwiseConv2d(3).summary(), "depthwise_conv2d_0 (depthwise_conv2d): needs a known channel count");
        refused(() -> Model.input("x", Shape.of(-1, 2, 8, 4)).separableConv2d(8, 3).summary(),
                "separable_conv2d_0 (separable_conv2d): the kernel of extent [3, 3] does not fit the input of shape [-1, 2, 8, 4]");
        refused(() -> img.maxPool1d(2).summary(), "max_pool1d_0 (max_pool1d): expects rank 3");
        refused(() -> Model.input("x", Shape.of(-1, 1, 28, 3)).avgPool2d(2).summary(), "avg_pool2d_0 (avg_pool2d): the window of extent [2, 2] does not fit");
        refused(() -> img.maxPool3d(2).summary(), "max_pool3d_0 (max_pool3d): expects rank 5");
        refused(() -> Model.input("x", Shape.of(-1, 10)).globalAvgPool().summary(), "global_avg_pool_0 (global_avg_pool): expects [batch, spatial..., channels]");
        refused(() -> Model.input("x", Shape.of(-1, 4, 4, 2), DType.S32).globalMaxPool().summary(), "global_max_pool_0 (global_max_pool): expects a float input");
        refused(() -> Model.input("x", Shape.of(-1, 4, 2)).adaptiveAvgPool2d(2, 2).summary(), "adaptive_avg_pool2d_0 (adaptive_avg_pool2d): expects rank 4");
        // at run time: a concrete input whose open axis is too small
        Model open = Model.input("x", Shape.of(-1, -1, 3)).conv1d(2, 3);
        ModelState s = open.init(Prng.key(0));
        assertThrows(JBurnException.class, () -> open.predict(s, Tensor.zeros(Shape.of(1, 2, 3), DType.F32)));
    }

    @Test
    void layersAreValuesWithCopiedArrays() {
        int[] k = {3, 3};
        Conv a = Conv.of(2, 8, k);
        k[0] = 5;
        assertArrayEquals(new int[] {3, 3}, a.kernel());
        a.kernel()[0] = 7;
        assertArrayEquals(new int[] {3, 3}, a.kernel());
        Initializer w = Initializers.glorotUniform(), z = Initializers.zeros();
        Conv c = Conv.of(2, 8, 3).withKernelInitializer(w).withBiasInitializer(z);
        assertEquals(c, Conv.of(2, 8, 3, 3).withKernelInitializer(w).withBiasInitializer(z));
        assertEquals(c.hashCode(), Conv.of(2, 8, 3, 3).withKernelInitializer(w).withBiasInitializer(z).hashCode());
        assertNotEquals(c, c.withStrides(2));
        assertEquals(c.withStrides(2), c.withStrides(2, 2));
        assertEquals(Pool.max(2, 2), Pool.max(2, 2).withStrides(2, 2));
        assertArrayEquals(new int[] {2, 2}, Pool.avg(2, 2).strides());
        assertEquals("conv_transpose3d", ConvTranspose.of(3, 2, 2).kind());
        assertEquals("global_avg_pool", GlobalPool.avg().kind());
        assertEquals("adaptive_avg_pool1d", AdaptiveAvgPool.of(4).kind());
    }

    private static void refused(Executable e, String prefix) {
        JBurnException ex = assertThrows(JBurnException.class, e);
        assertTrue(ex.getMessage().startsWith(prefix), "message: " + ex.getMessage() + "\nexpected to start with: " + prefix);
    }
}
