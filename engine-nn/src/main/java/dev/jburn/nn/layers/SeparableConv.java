package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A depthwise-separable convolution over 1 or 2 spatial axes (kinds {@code separable_conv1d},
 * {@code separable_conv2d}; Keras {@code SeparableConvND}): a {@link DepthwiseConv} (strides,
 * padding and dilation apply to it) followed by a 1×1 pointwise convolution to {@code filters}
 * channels, then {@code activation(· + bias)}. No bias or activation between the two steps.
 *
 * <p>Parameters (Keras layout): {@code depthwise_kernel [k..., channels, depthMultiplier]},
 * {@code pointwise_kernel [1..., channels·depthMultiplier, filters]}, {@code bias [filters]}.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 32, 32, 16)).apply(SeparableConv.of(2, 64, 3).withPadding(Padding.SAME));
 * }</pre>
 *
 * @param spatialRank     number of spatial axes, 1 or 2
 * @param filters         output channels (≥ 1)
 * @param kernel          depthwise kernel size per spatial axis
 * @param depthMultiplier depthwise kernels per input channel (default 1)
 * @param strides         stride per spatial axis (default 1)
 * @param padding         {@link Padding#VALID} (default), {@link Padding#SAME} (Keras) or non-negative {@code (lo, hi)} pairs
 * @param dilation        depthwise kernel dilation (default 1)
 * @param useBias         whether to add {@code bias} (default true)
 * @param channelsFirst   whether the channel axis is axis 1 (default false)
 * @param activation      applied to the result (default linear)
 * @param depthwiseInit   default Glorot uniform
 * @param pointwiseInit   default Glorot uniform
 * @param biasInit        default zeros
 */
public record SeparableConv(int spatialRank, int filters, int[] kernel, int depthMultiplier, int[] strides, Padding padding,
                            int[] dilation, boolean useBias, boolean channelsFirst, Activation activation,
                            Initializer depthwiseInit, Initializer pointwiseInit, Initializer biasInit) implements Layer {
    public SeparableConv {
        Spatial.checkSpatialRank("separable_conv", spatialRank, 2);
        String k = "separable_conv" + spatialRank + "d";
        if (filters < 1) throw new JBurnException(k, "filters must be positive, got " + filters);
        kernel = Spatial.perAxis(k, "kernel size", kernel, spatialRank, 1);
        if (depthMultiplier < 1) throw new JBurnException(k, "the depth multiplier must be positive, got " + depthMultiplier);
        strides = Spatial.perAxis(k, "strides", strides, spatialRank, 1);
        dilation = Spatial.perAxis(k, "dilation", dilation, spatialRank, 1);
        padding = Spatial.checkPadding(k, padding, spatialRank);
        if (activation == null || depthwiseInit == null || pointwiseInit == null || biasInit == null) {
            throw new JBurnException(k, "activation and initializers must not be null");
        }
    }

    /** {@code filters} outputs with a depthwise kernel of {@code kernel}: multiplier 1, stride 1, valid, bias, linear. */
    public static SeparableConv of(int spatialRank, int filters, int... kernel) {
        return new SeparableConv(spatialRank, filters, kernel, 1, new int[] {1}, Padding.VALID, new int[] {1}, true, false,
                Activation.LINEAR, Initializers.glorotUniform(), Initializers.glorotUniform(), Initializers.zeros());
    }

    public SeparableConv withDepthMultiplier(int m) {
        return new SeparableConv(spatialRank, filters, kernel, m, strides, padding, dilation, useBias, channelsFirst, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withStrides(int... s) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, s, padding, dilation, useBias, channelsFirst, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withPadding(Padding p) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, p, dilation, useBias, channelsFirst, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withDilation(int... d) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, d, useBias, channelsFirst, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withoutBias() {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, false, channelsFirst, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withChannelsFirst(boolean first) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, useBias, first, activation,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withActivation(Activation a) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, a,
                depthwiseInit, pointwiseInit, biasInit);
    }

    public SeparableConv withDepthwiseInitializer(Initializer i) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, activation,
                i, pointwiseInit, biasInit);
    }

    public SeparableConv withPointwiseInitializer(Initializer i) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, activation,
                depthwiseInit, i, biasInit);
    }

    public SeparableConv withBiasInitializer(Initializer i) {
        return new SeparableConv(spatialRank, filters, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, activation,
                depthwiseInit, pointwiseInit, i);
    }

    @Override public int[] kernel() { return kernel.clone(); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] dilation() { return dilation.clone(); }

    @Override public String kind() { return "separable_conv" + spatialRank + "d"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        Spatial.channels(in, x, spatialRank, channelsFirst);
        int[] out = Spatial.forwardOut(in, x, spatialRank, channelsFirst, padding, Spatial.extent(kernel, dilation), strides, "kernel");
        return x.withShape(Spatial.shape(x.dim(0), out, filters, channelsFirst));
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        int c = Spatial.channels(in, Spatial.input(in, spatialRank, channelsFirst), spatialRank, channelsFirst);
        int[] ones = new int[spatialRank];
        Arrays.fill(ones, 1);
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec("depthwise_kernel", Spatial.kernelShape(kernel, c, depthMultiplier), in.floatType(), depthwiseInit));
        p.add(new ParamSpec("pointwise_kernel", Spatial.kernelShape(ones, c * depthMultiplier, filters), in.floatType(), pointwiseInit));
        if (useBias) p.add(new ParamSpec("bias", Shape.of(filters), in.floatType(), biasInit));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor d = DepthwiseConv.depthwise(call.input(), call.param("depthwise_kernel"), spatialRank, kernel, depthMultiplier, strides,
                padding, dilation, channelsFirst);
        int[] one = {1};
        int[][] noPads = {new int[spatialRank], new int[spatialRank]};
        Tensor y = d.conv(call.param("pointwise_kernel"), Spatial.convOptions(spatialRank, channelsFirst, one, noPads, one, 1));
        if (useBias) y = Spatial.addBias(y, call.param("bias"), spatialRank, channelsFirst);
        return activation.apply(y);
    }

    @Override public boolean equals(Object o) {
        return o instanceof SeparableConv c && c.spatialRank == spatialRank && c.filters == filters && Arrays.equals(c.kernel, kernel)
                && c.depthMultiplier == depthMultiplier && Arrays.equals(c.strides, strides) && c.padding.equals(padding)
                && Arrays.equals(c.dilation, dilation) && c.useBias == useBias && c.channelsFirst == channelsFirst
                && c.activation.equals(activation) && c.depthwiseInit.equals(depthwiseInit) && c.pointwiseInit.equals(pointwiseInit)
                && c.biasInit.equals(biasInit);
    }

    @Override public int hashCode() {
        return Objects.hash(spatialRank, filters, Arrays.hashCode(kernel), depthMultiplier, Arrays.hashCode(strides), padding,
                Arrays.hashCode(dilation), useBias, channelsFirst, activation, depthwiseInit, pointwiseInit, biasInit);
    }

    @Override public String toString() {
        return "SeparableConv[" + kind() + ", filters=" + filters + ", kernel=" + Arrays.toString(kernel) + ", depthMultiplier="
                + depthMultiplier + ", strides=" + Arrays.toString(strides) + ", padding=" + padding + ", dilation="
                + Arrays.toString(dilation) + ", useBias=" + useBias + ", channelsFirst=" + channelsFirst + ", activation=" + activation
                + ", depthwiseInit=" + depthwiseInit + ", pointwiseInit=" + pointwiseInit + ", biasInit=" + biasInit + "]";
    }
}
