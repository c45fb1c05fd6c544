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
 * A depthwise convolution over 1 or 2 spatial axes (kinds {@code depthwise_conv1d},
 * {@code depthwise_conv2d}; Keras {@code DepthwiseConvND}, PyTorch {@code ConvNd} with
 * {@code groups = in_channels}): each input channel {@code c} is convolved on its own with
 * {@code depthMultiplier} kernels, giving output channel {@code c·depthMultiplier + m}:
 * {@code y[b, o..., c·M + m] = activation(bias[c·M + m] + Σ_t x[b, o·stride + t·dilation - lo..., c] · kernel[t..., c, m])}.
 *
 * <p>Parameters: {@code kernel [k..., channels, depthMultiplier]} (Keras layout) and
 * {@code bias [channels·depthMultiplier]}. Strides, padding (Keras {@code SAME}, see {@link Conv}),
 * dilation and layouts as {@link Conv}.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 32, 32, 16)).apply(DepthwiseConv.of(2, 3).withDepthMultiplier(2).withPadding(Padding.SAME));
 * // [-1, 32, 32, 32]
 * }</pre>
 *
 * @param spatialRank     number of spatial axes, 1 or 2
 * @param kernel          kernel size per spatial axis
 * @param depthMultiplier kernels per input channel (default 1)
 * @param strides         stride per spatial axis (default 1)
 * @param padding         {@link Padding#VALID} (default), {@link Padding#SAME} or non-negative {@code (lo, hi)} pairs
 * @param dilation        kernel dilation per spatial axis (default 1)
 * @param useBias         whether to add {@code bias} (default true)
 * @param channelsFirst   whether the channel axis is axis 1 (default false)
 * @param activation      applied to the result (default linear)
 * @param kernelInit      default Glorot uniform
 * @param biasInit        default zeros
 */
public record DepthwiseConv(int spatialRank, int[] kernel, int depthMultiplier, int[] strides, Padding padding, int[] dilation,
                            boolean useBias, boolean channelsFirst, Activation activation, Initializer kernelInit,
                            Initializer biasInit) implements Layer {
    public DepthwiseConv {
        Spatial.checkSpatialRank("depthwise_conv", spatialRank, 2);
        String k = "depthwise_conv" + spatialRank + "d";
        kernel = Spatial.perAxis(k, "kernel size", kernel, spatialRank, 1);
        if (depthMultiplier < 1) throw new JBurnException(k, "the depth multiplier must be positive, got " + depthMultiplier);
        strides = Spatial.perAxis(k, "strides", strides, spatialRank, 1);
        dilation = Spatial.perAxis(k, "dilation", dilation, spatialRank, 1);
        padding = Spatial.checkPadding(k, padding, spatialRank);
        if (activation == null || kernelInit == null || biasInit == null) {
            throw new JBurnException(k, "activation and initializers must not be null");
        }
    }

    /** A depthwise convolution with a kernel of {@code kernel}: multiplier 1, stride 1, valid, bias, linear. */
    public static DepthwiseConv of(int spatialRank, int... kernel) {
        return new DepthwiseConv(spatialRank, kernel, 1, new int[] {1}, Padding.VALID, new int[] {1}, true, false, Activation.LINEAR,
                Initializers.glorotUniform(), Initializers.zeros());
    }

    public DepthwiseConv withDepthMultiplier(int m) {
        return new DepthwiseConv(spatialRank, kernel, m, strides, padding, dilation, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withStrides(int... s) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, s, padding, dilation, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withPadding(Padding p) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, p, dilation, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withDilation(int... d) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, d, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withoutBias() {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, dilation, false, channelsFirst, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withChannelsFirst(boolean first) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, dilation, useBias, first, activation, kernelInit, biasInit);
    }

    public DepthwiseConv withActivation(Activation a) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, a, kernelInit, biasInit);
    }

    public DepthwiseConv withKernelInitializer(Initializer i) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, activation, i, biasInit);
    }

    public DepthwiseConv withBiasInitializer(Initializer i) {
        return new DepthwiseConv(spatialRank, kernel, depthMultiplier, strides, padding, dilation, useBias, channelsFirst, activation, kernelInit, i);
    }

    @Override public int[] kernel() { return kernel.clone(); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] dilation() { return dilation.clone(); }

    @Override public String kind() { return "depthwise_conv" + spatialRank + "d"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        int c = Spatial.channels(in, x, spatialRank, channelsFirst);
        int[] out = Spatial.forwardOut(in, x, spatialRank, channelsFirst, padding, Spatial.extent(kernel, dilation), strides, "kernel");
        return x.withShape(Spatial.shape(x.dim(0), out, c * depthMultiplier, channelsFirst));
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        int c = Spatial.channels(in, Spatial.input(in, spatialRank, channelsFirst), spatialRank, channelsFirst);
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec("kernel", Spatial.kernelShape(kernel, c, depthMultiplier), in.floatType(), kernelInit));
        if (useBias) p.add(new ParamSpec("bias", Shape.of(c * depthMultiplier), in.floatType(), biasInit));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor y = depthwise(call.input(), call.param("kernel"), spatialRank, kernel, depthMultiplier, strides, padding, dilation, channelsFirst);
        if (useBias) y = Spatial.addBias(y, call.param("bias"), spatialRank, channelsFirst);
        return activation.apply(y);
    }

    /** The depthwise step shared with {@link SeparableConv}: a grouped conv, {@code groups = channels}, kernel {@code [k..., 1, C·M]}. */
    static Tensor depthwise(Tensor x, Tensor kernel, int spatialRank, int[] k, int multiplier, int[] strides, Padding padding,
                            int[] dilation, boolean channelsFirst) {
        int c = x.shape().dim(Spatial.channelAxis(spatialRank, channelsFirst));
        int[] sp = Spatial.spatialDims(x.shape(), spatialRank, channelsFirst);
        int[][] pads = Spatial.pads(padding, sp, Spatial.extent(k, dilation), strides);
        Tensor grouped = kernel.reshape(Spatial.kernelShape(k, 1, c * multiplier));
        return x.conv(grouped, Spatial.convOptions(spatialRank, channelsFirst, strides, pads, dilation, c));
    }

    @Override public boolean equals(Object o) {
        return o instanceof DepthwiseConv c && c.spatialRank == spatialRank && Arrays.equals(c.kernel, kernel)
                && c.depthMultiplier == depthMultiplier && Arrays.equals(c.strides, strides) && c.padding.equals(padding)
                && Arrays.equals(c.dilation, dilation) && c.useBias == useBias && c.channelsFirst == channelsFirst
                && c.activation.equals(activation) && c.kernelInit.equals(kernelInit) && c.biasInit.equals(biasInit);
    }

    @Override public int hashCode() {
        return Objects.hash(spatialRank, Arrays.hashCode(kernel), depthMultiplier, Arrays.hashCode(strides), padding,
                Arrays.hashCode(dilation), useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    @Override public String toString() {
        return "DepthwiseConv[" + kind() + ", kernel=" + Arrays.toString(kernel) + ", depthMultiplier=" + depthMultiplier + ", strides="
                + Arrays.toString(strides) + ", padding=" + padding + ", dilation=" + Arrays.toString(dilation) + ", useBias=" + useBias
                + ", channelsFirst=" + channelsFirst + ", activation=" + activation + ", kernelInit=" + kernelInit + ", biasInit=" + biasInit + "]";
    }
}
