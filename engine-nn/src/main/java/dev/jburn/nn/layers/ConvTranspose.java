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
 * A transposed convolution over 1, 2 or 3 spatial axes (kinds {@code conv_transpose1d},
 * {@code conv_transpose2d}, {@code conv_transpose3d}; Keras {@code ConvNDTranspose}, PyTorch
 * {@code ConvTransposeNd}): the adjoint of a convolution with respect to its input, the usual
 * learned upsampling. Each input element scatters into the output:
 * {@code y[b, i·stride + t·dilation - lo..., g·F/G + f] += x[b, i..., c] · kernel[t..., f, c]}
 * with {@code g = c / (channels/groups)}, then {@code activation(y + bias)}.
 *
 * <p>Layout: input and output {@code [batch, spatial..., channels]} (default) or channels first.
 * Parameters: {@code kernel [k..., filters/groups, channels]} — spatial first, then the output
 * channels, then the input channels: Keras's {@code Conv2DTranspose} kernel {@code (kh, kw, filters, in)};
 * PyTorch's weight {@code [in, filters/groups, k...]} is a permutation of it — and {@code bias [filters]}.
 *
 * <p>Output size per spatial axis, with {@code k_eff = dilation·(k - 1) + 1}:
 * explicit {@code (lo, hi)}: {@code (in - 1)·stride - lo - hi + k_eff + outputPadding} (PyTorch's
 * {@code padding=p, output_padding=op} is {@code (p, p)}, {@code op}); {@code VALID} is explicit
 * {@code (0, 0)}; {@code SAME}: {@code in·stride}, the adjoint of a Keras {@code SAME} convolution
 * of that input size (crop {@code max(k_eff - stride, 0)} in total, {@code floor} of half before,
 * and, when {@code k_eff < stride}, {@code stride - k_eff} zeros after), equal to Keras. Keras's
 * {@code VALID} without an output padding gives {@code max((in - 1)·stride + k_eff, in·stride)};
 * the second form is {@code withOutputPadding(stride - k_eff)} here. {@code outputPadding} must be
 * below the stride, and 0 with {@code SAME}.
 *
 * <pre>{@code
 * Model up = Model.input("z", Shape.of(-1, 7, 7, 64)).apply(ConvTranspose.of(2, 32, 3).withStrides(2).withPadding(Padding.SAME));
 * // [-1, 14, 14, 32]
 * }</pre>
 *
 * @param spatialRank   number of spatial axes, 1 to 3
 * @param filters       output channels (≥ 1, a multiple of {@code groups})
 * @param kernel        kernel size per spatial axis
 * @param strides       stride per spatial axis (default 1): the upsampling factor
 * @param padding       {@link Padding#VALID} (default), {@link Padding#SAME} or non-negative {@code (lo, hi)} pairs
 * @param outputPadding extra size after each spatial axis (default 0; each below the stride)
 * @param dilation      kernel dilation per spatial axis (default 1)
 * @param groups        channel groups (default 1)
 * @param useBias       whether to add {@code bias} (default true)
 * @param channelsFirst whether the channel axis is axis 1 (default false)
 * @param activation    applied to the result (default linear)
 * @param kernelInit    default Glorot uniform
 * @param biasInit      default zeros
 */
public record ConvTranspose(int spatialRank, int filters, int[] kernel, int[] strides, Padding padding, int[] outputPadding,
                            int[] dilation, int groups, boolean useBias, boolean channelsFirst, Activation activation,
                            Initializer kernelInit, Initializer biasInit) implements Layer {
    public ConvTranspose {
        Spatial.checkSpatialRank("conv_transpose", spatialRank, 3);
        String k = "conv_transpose" + spatialRank + "d";
        if (filters < 1) throw new JBurnException(k, "filters must be positive, got " + filters);
        kernel = Spatial.perAxis(k, "kernel size", kernel, spatialRank, 1);
        strides = Spatial.perAxis(k, "strides", strides, spatialRank, 1);
        outputPadding = Spatial.perAxis(k, "output padding", outputPadding, spatialRank, 0);
        dilation = Spatial.perAxis(k, "dilation", dilation, spatialRank, 1);
        padding = Spatial.checkPadding(k, padding, spatialRank);
        for (int i = 0; i < spatialRank; i++) {
            if (outputPadding[i] >= strides[i]) {
                throw new JBurnException(k, "output padding must be smaller than the stride, got output padding "
                        + Arrays.toString(outputPadding) + " with strides " + Arrays.toString(strides));
            }
            if (outputPadding[i] != 0 && padding.mode() == Padding.Mode.SAME) {
                throw new JBurnException(k, "output padding must be 0 with SAME padding (the output is in·stride), got "
                        + Arrays.toString(outputPadding));
            }
        }
        if (groups < 1) throw new JBurnException(k, "groups must be positive, got " + groups);
        if (filters % groups != 0) throw new JBurnException(k, "filters (" + filters + ") must be a multiple of groups (" + groups + ")");
        if (activation == null || kernelInit == null || biasInit == null) {
            throw new JBurnException(k, "activation and initializers must not be null");
        }
    }

    /** {@code filters} outputs with a kernel of {@code kernel}: stride 1, valid, bias, linear. */
    public static ConvTranspose of(int spatialRank, int filters, int... kernel) {
        return new ConvTranspose(spatialRank, filters, kernel, new int[] {1}, Padding.VALID, new int[] {0}, new int[] {1}, 1, true,
                false, Activation.LINEAR, Initializers.glorotUniform(), Initializers.zeros());
    }

    public ConvTranspose withStrides(int... s) {
        return new ConvTranspose(spatialRank, filters, kernel, s, padding, outputPadding, dilation, groups, useBias, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withPadding(Padding p) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, p, outputPadding, dilation, groups, useBias, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withOutputPadding(int... op) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, op, dilation, groups, useBias, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withDilation(int... d) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, d, groups, useBias, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withGroups(int g) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, g, useBias, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withoutBias() {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, groups, false, channelsFirst,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withChannelsFirst(boolean first) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, groups, useBias, first,
                activation, kernelInit, biasInit);
    }

    public ConvTranspose withActivation(Activation a) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, groups, useBias, channelsFirst,
                a, kernelInit, biasInit);
    }

    public ConvTranspose withKernelInitializer(Initializer i) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, groups, useBias, channelsFirst,
                activation, i, biasInit);
    }

    public ConvTranspose withBiasInitializer(Initializer i) {
        return new ConvTranspose(spatialRank, filters, kernel, strides, padding, outputPadding, dilation, groups, useBias, channelsFirst,
                activation, kernelInit, i);
    }

    @Override public int[] kernel() { return kernel.clone(); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public int[] outputPadding() { return outputPadding.clone(); }

    @Override public int[] dilation() { return dilation.clone(); }

    @Override public String kind() { return "conv_transpose" + spatialRank + "d"; }

    /** {@code {lo[], hi[], outputPadding[]}} the tensor op takes for this layer's padding. */
    private int[][] transposePads() {
        int[] ext = Spatial.extent(kernel, dilation);
        int[] lo = new int[spatialRank], hi = new int[spatialRank], op = outputPadding.clone();
        for (int i = 0; i < spatialRank; i++) {
            switch (padding.mode()) {
                case VALID -> { }
                case EXPLICIT -> {
                    lo[i] = padding.lo(i);
                    hi[i] = padding.hi(i);
                }
                case SAME -> {
                    int total = Math.max(ext[i] - strides[i], 0);
                    lo[i] = total / 2;
                    hi[i] = total - total / 2;
                    op[i] = Math.max(strides[i] - ext[i], 0);
                }
            }
        }
        return new int[][] {lo, hi, op};
    }

    private int channels(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        int c = Spatial.channels(in, x, spatialRank, channelsFirst);
        if (c % groups != 0) throw in.error("input channels (" + c + ") must be a multiple of groups (" + groups + "), got input of shape " + x.shape());
        return c;
    }

    @Override public TensorSpec output(LayerSignature in) {
        channels(in);
        TensorSpec x = in.input();
        int[] sp = Spatial.spatialDims(x.shape(), spatialRank, channelsFirst);
        int[] ext = Spatial.extent(kernel, dilation);
        int[][] p = transposePads();
        int[] out = new int[spatialRank];
        for (int i = 0; i < spatialRank; i++) {
            if (sp[i] == Shape.OPEN) {
                out[i] = Shape.OPEN;
                continue;
            }
            long size = (long) (sp[i] - 1) * strides[i] + ext[i] - p[0][i] - p[1][i] + p[2][i];
            if (sp[i] < 1 || size < 1 || size > Integer.MAX_VALUE) {
                throw in.error("the output would have size " + size + " on spatial axis " + i + " for input of shape " + x.shape()
                        + ", kernel extent " + Arrays.toString(ext) + ", strides " + Arrays.toString(strides) + ", padding " + padding);
            }
            out[i] = (int) size;
        }
        return x.withShape(Spatial.shape(x.dim(0), out, filters, channelsFirst));
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        int c = channels(in);
        List<ParamSpec> p = new ArrayList<>();
        p.add(new ParamSpec("kernel", Spatial.kernelShape(kernel, filters / groups, c), in.floatType(), kernelInit));
        if (useBias) p.add(new ParamSpec("bias", Shape.of(filters), in.floatType(), biasInit));
        return p;
    }

    @Override public Tensor apply(LayerCall call) {
        int[][] p = transposePads();
        Tensor y = call.input().convTranspose(call.param("kernel"),
                Spatial.convOptions(spatialRank, channelsFirst, strides, new int[][] {p[0], p[1]}, dilation, groups).withOutputPadding(p[2]));
        if (useBias) y = Spatial.addBias(y, call.param("bias"), spatialRank, channelsFirst);
        return activation.apply(y);
    }

    @Override public boolean equals(Object o) {
        return o instanceof ConvTranspose c && c.spatialRank == spatialRank && c.filters == filters && Arrays.equals(c.kernel, kernel)
                && Arrays.equals(c.strides, strides) && c.padding.equals(padding) && Arrays.equals(c.outputPadding, outputPadding)
                && Arrays.equals(c.dilation, dilation) && c.groups == groups && c.useBias == useBias && c.channelsFirst == channelsFirst
                && c.activation.equals(activation) && c.kernelInit.equals(kernelInit) && c.biasInit.equals(biasInit);
    }

    @Override public int hashCode() {
        return Objects.hash(spatialRank, filters, Arrays.hashCode(kernel), Arrays.hashCode(strides), padding, Arrays.hashCode(outputPadding),
                Arrays.hashCode(dilation), groups, useBias, channelsFirst, activation, kernelInit, biasInit);
    }

    @Override public String toString() {
        return "ConvTranspose[" + kind() + ", filters=" + filters + ", kernel=" + Arrays.toString(kernel) + ", strides="
                + Arrays.toString(strides) + ", padding=" + padding + ", outputPadding=" + Arrays.toString(outputPadding) + ", dilation="
                + Arrays.toString(dilation) + ", groups=" + groups + ", useBias=" + useBias + ", channelsFirst=" + channelsFirst
                + ", activation=" + activation + ", kernelInit=" + kernelInit + ", biasInit=" + biasInit + "]";
    }
}
