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
 * A convolution over 1, 2 or 3 spatial axes (kinds {@code conv1d}, {@code conv2d}, {@code conv3d};
 * Keras {@code ConvND}, PyTorch {@code ConvNd}): a cross-correlation (the kernel is not flipped),
 * {@code y[b, o..., f] = activation(bias[f] + Σ_{t..., c} x[b, o·stride + t·dilation - lo..., g·C/G + c] · kernel[t..., c, f])}
 * with {@code g = f / (filters/groups)}.
 *
 * <p>Layout: input {@code [batch, spatial..., channels]} (channels last, the default) or
 * {@code [batch, channels, spatial...]} ({@link #withChannelsFirst}); the output has the same
 * layout. Parameters: {@code kernel [k..., channels/groups, filters]} (spatial first, Keras/Flax
 * HWIO; PyTorch's weight {@code [filters, channels/groups, k...]} is a permutation of it) and
 * {@code bias [filters]}.
 *
 * <p>Output size per spatial axis: {@code VALID} {@code floor((in - k_eff) / stride) + 1},
 * {@code SAME} {@code ceil(in / stride)} (padding resolved as Keras/TensorFlow, see below),
 * explicit {@code (lo, hi)} {@code floor((in + lo + hi - k_eff) / stride) + 1} (PyTorch's
 * {@code padding=p} is {@code (p, p)}), with {@code k_eff = dilation·(k - 1) + 1}. {@code SAME}
 * pads {@code max((out - 1)·stride + k_eff - in, 0)} in total, {@code floor} of half before.
 *
 * <pre>{@code
 * Model m = Model.input("image", Shape.of(-1, 28, 28, 1))
 *         .apply(Conv.of(2, 32, 3).withPadding(Padding.SAME).withStrides(2).withActivation(Activation.RELU));
 * }</pre>
 *
 * @param spatialRank  number of spatial axes, 1 to 3
 * @param filters      output channels (≥ 1, a multiple of {@code groups})
 * @param kernel       kernel size per spatial axis (one value: every axis)
 * @param strides      stride per spatial axis (default 1)
 * @param padding      {@link Padding#VALID} (default), {@link Padding#SAME} or one non-negative {@code (lo, hi)} pair per spatial axis
 * @param dilation     kernel dilation per spatial axis (default 1)
 * @param groups       channel groups (default 1; {@code channels} and {@code filters} multiples of it)
 * @param useBias      whether to add {@code bias} (default true)
 * @param channelsFirst whether the channel axis is axis 1 (default false: the last axis)
 * @param activation   applied to the result (default linear)
 * @param kernelInit   default Glorot uniform (fans {@code k...·channels/groups} and {@code k...·filters})
 * @param biasInit     default zeros
 */
public record Conv(int spatialRank, int filters, int[] kernel, int[] strides, Padding padding, int[] dilation, int groups,
                   boolean useBias, boolean channelsFirst, Activation activation, Initializer kernelInit,
                   Initializer biasInit) implements Layer {
    public Conv {
        Spatial.checkSpatialRank("conv", spatialRank, 3);
        String k = "conv" + spatialRank + "d";
        if (filters < 1) throw new JBurnException(k, "filters must be positive, got " + filters);
        kernel = Spatial.perAxis(k, "kernel size", kernel, spatialRank, 1);
        strides = Spatial.perAxis(k, "strides", strides, spatialRank, 1);
        dilation = Spatial.perAxis(k, "dilation", dilation, spatialRank, 1);
        padding = Spatial.checkPadding(k, padding, spatialRank);
        if (groups < 1) throw new JBurnException(k, "groups must be positive, got " + groups);
        if (filters % groups != 0) throw new JBurnException(k, "filters (" + filters + ") must be a multiple of groups (" + groups + ")");
        if (activation == null || kernelInit == null || biasInit == null) {
            throw new JBurnException(k, "activation and initializers must not be null");
        }
    }

    /** {@code filters} outputs over {@code spatialRank} axes with a kernel of {@code kernel} (one size: every axis): stride 1, valid, bias, linear. */
    public static Conv of(int spatialRank, int filters, int... kernel) {
        return new Conv(spatialRank, filters, kernel, new int[] {1}, Padding.VALID, new int[] {1}, 1, true, false,
                Activation.LINEAR, Initializers.glorotUniform(), Initializers.zeros());
    }

    public Conv withStrides(int... s) {
        return new Conv(spatialRank, filters, kernel, s, padding, dilation, groups, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public Conv withPadding(Padding p) {
        return new Conv(spatialRank, filters, kernel, strides, p, dilation, groups, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public Conv withDilation(int... d) {
        return new Conv(spatialRank, filters, kernel, strides, padding, d, groups, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public Conv withGroups(int g) {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, g, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    public Conv withoutBias() {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, groups, false, channelsFirst, activation, kernelInit, biasInit);
    }

    public Conv withChannelsFirst(boolean first) {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, groups, useBias, first, activation, kernelInit, biasInit);
    }

    public Conv withActivation(Activation a) {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, groups, useBias, channelsFirst, a, kernelInit, biasInit);
    }

    public Conv withKernelInitializer(Initializer i) {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, groups, useBias, channelsFirst, activation, i, biasInit);
    }

    public Conv withBiasInitializer(Initializer i) {
        return new Conv(spatialRank, filters, kernel, strides, padding, dilation, groups, useBias, channelsFirst, activation, kernelInit, i);
    }

    @Override public int[] kernel() { return kernel.clone(); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] dilation() { return dilation.clone(); }

    @Override public String kind() { return "conv" + spatialRank + "d"; }

    private int channels(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        int c = Spatial.channels(in, x, spatialRank, channelsFirst);
        if (c % groups != 0) throw in.error("input channels (" + c + ") must be a multiple of groups (" + groups + "), got input of shape " + x.shape());
        return c;
    }

    @Override public TensorSpec output(LayerSignature in) {
        channels(in);
        TensorSpec x = in.input();
        int[] out = Spatial.forwardOut(in, x, spatialRank, channelsFirst, padding, Spatial.extent(kernel, dilation), strides, "kernel");
        return x.withShape(Spatial.shape(x.dim(0), out, filters, channelsFirst));
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        int c = channels(in);
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec("kernel", Spatial.kernelShape(kernel, c / groups, filters), in.floatType(), kernelInit));
        if (useBias) p.add(new ParamSpec("bias", Shape.of(filters), in.floatType(), biasInit));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int[] sp = Spatial.spatialDims(x.shape(), spatialRank, channelsFirst);
        int[][] pads = Spatial.pads(padding, sp, Spatial.extent(kernel, dilation), strides);
        Tensor y = x.conv(call.param("kernel"), Spatial.convOptions(spatialRank, channelsFirst, strides, pads, dilation, groups));
        if (useBias) y = Spatial.addBias(y, call.param("bias"), spatialRank, channelsFirst);
        return activation.apply(y);
    }

    @Override public boolean equals(Object o) {
        return o instanceof Conv c && c.spatialRank == spatialRank && c.filters == filters && Arrays.equals(c.kernel, kernel)
                && Arrays.equals(c.strides, strides) && c.padding.equals(padding) && Arrays.equals(c.dilation, dilation)
                && c.groups == groups && c.useBias == useBias && c.channelsFirst == channelsFirst && c.activation.equals(activation)
                && c.kernelInit.equals(kernelInit) && c.biasInit.equals(biasInit);
    }

    @Override public int hashCode() {
        return Objects.hash(spatialRank, filters, Arrays.hashCode(kernel), Arrays.hashCode(strides), padding, Arrays.hashCode(dilation),
                groups, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    @Override public String toString() {
        return "Conv[" + kind() + ", filters=" + filters + ", kernel=" + Arrays.toString(kernel) + ", strides=" + Arrays.toString(strides)
                + ", padding=" + padding + ", dilation=" + Arrays.toString(dilation) + ", groups=" + groups + ", useBias=" + useBias
                + ", channelsFirst=" + channelsFirst + ", activation=" + activation + ", kernelInit=" + kernelInit + ", biasInit=" + biasInit + "]";
    }
}
