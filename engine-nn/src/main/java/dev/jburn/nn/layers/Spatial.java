package dev.jburn.nn.layers;

import dev.jburn.ConvOptions;
import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;

/**
 * Shape arithmetic the convolution and pooling layers share: per-axis options, Keras padding,
 * output sizes and the channels-last / channels-first layouts. Open axes ({@code -1}) stay open.
 *
 * <p>{@link Padding#SAME} is resolved as Keras and TensorFlow do, from the input size and the
 * stride: the output has {@code ceil(in / stride)} positions and the padding needed for that,
 * {@code max((out - 1)·stride + k_eff - in, 0)}, is split {@code floor} of half before and the rest
 * after. (For stride 1 this is the {@code k_eff - 1} of {@link Padding}; for larger strides it can
 * differ from the stride-independent rule of the tensor ops, so the layers pass explicit pairs.)
 */
final class Spatial {
    private Spatial() {}

    /** {@code v} of length 1 repeated to {@code rank}, or {@code v} of length {@code rank}; every value {@code >= min}. */
    static int[] perAxis(String kind, String what, int[] v, int rank, int min) {
        if (v == null) throw new JBurnException(kind, what + " must not be null");
        if (v.length != 1 && v.length != rank) {
            throw new JBurnException(kind, what + " needs 1 or " + rank + " values (one per spatial axis), got " + Arrays.toString(v));
        }
        int[] o = new int[rank];
        for (int i = 0; i < rank; i++) {
            o[i] = v.length == 1 ? v[0] : v[i];
            if (o[i] < min) {
                throw new JBurnException(kind, what + " must be " + (min == 0 ? "non-negative" : min == 1 ? "positive" : ">= " + min)
                        + ", got " + Arrays.toString(v));
            }
        }
        return o;
    }

    /** Fails unless {@code 1 <= spatialRank <= max}. */
    static void checkSpatialRank(String kind, int spatialRank, int max) {
        if (spatialRank < 1 || spatialRank > max) {
            throw new JBurnException(kind, "the spatial rank must be 1 to " + max + ", got " + spatialRank);
        }
    }

    /** {@code VALID}, {@code SAME}, or one non-negative {@code (lo, hi)} pair per spatial axis. */
    static Padding checkPadding(String kind, Padding p, int spatialRank) {
        if (p == null) throw new JBurnException(kind, "padding must not be null (use Padding.VALID, Padding.SAME or Padding.explicit)");
        if (p.mode() == Padding.Mode.EXPLICIT) {
            if (p.rank() != spatialRank) {
                throw new JBurnException(kind, "explicit padding needs one (lo, hi) pair per spatial axis (" + spatialRank + "), got " + p);
            }
            for (int i = 0; i < spatialRank; i++) {
                if (p.lo(i) < 0 || p.hi(i) < 0) throw new JBurnException(kind, "padding must be non-negative, got " + p);
            }
        }
        return p;
    }

    /** The dilated extents {@code dilation·(k - 1) + 1}. */
    static int[] extent(int[] k, int[] dilation) {
        int[] e = new int[k.length];
        for (int i = 0; i < k.length; i++) e[i] = dilation[i] * (k[i] - 1) + 1;
        return e;
    }

    /** {@code {lo[], hi[]}} of a forward window or convolution over concrete spatial sizes {@code in} (SAME as Keras). */
    static int[][] pads(Padding p, int[] in, int[] ext, int[] strides) {
        int r = in.length;
        int[] lo = new int[r], hi = new int[r];
        for (int i = 0; i < r; i++) {
            switch (p.mode()) {
                case VALID -> { }
                case EXPLICIT -> {
                    lo[i] = p.lo(i);
                    hi[i] = p.hi(i);
                }
                case SAME -> {
                    int out = ceilDiv(in[i], strides[i]);
                    int total = Math.max((out - 1) * strides[i] + ext[i] - in[i], 0);
                    lo[i] = total / 2;
                    hi[i] = total - total / 2;
                }
            }
        }
        return new int[][] {lo, hi};
    }

    /** The output size of a forward window or convolution along spatial axis {@code axis}; open stays open, 0 when nothing fits. */
    static int outSize(Padding p, int axis, int in, int ext, int stride) {
        if (in == Shape.OPEN) return Shape.OPEN;
        return switch (p.mode()) {
            case VALID -> in < ext ? 0 : (in - ext) / stride + 1;
            case SAME -> ceilDiv(in, stride);
            case EXPLICIT -> {
                int padded = in + p.lo(axis) + p.hi(axis);
                yield padded < ext ? 0 : (padded - ext) / stride + 1;
            }
        };
    }

    static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

    /** The spatial axes of a tensor of rank {@code spatialRank + 2}. */
    static int[] spatialAxes(int spatialRank, boolean channelsFirst) {
        int[] a = new int[spatialRank];
        for (int i = 0; i < spatialRank; i++) a[i] = i + (channelsFirst ? 2 : 1);
        return a;
    }

    /** The channel axis of a tensor of rank {@code spatialRank + 2}. */
    static int channelAxis(int spatialRank, boolean channelsFirst) { return channelsFirst ? 1 : spatialRank + 1; }

    /** The spatial sizes of {@code s}. */
    static int[] spatialDims(Shape s, int spatialRank, boolean channelsFirst) {
        int[] d = new int[spatialRank];
        int[] axes = spatialAxes(spatialRank, channelsFirst);
        for (int i = 0; i < spatialRank; i++) d[i] = s.dim(axes[i]);
        return d;
    }

    /** {@code [batch, spatial..., channels]}, or {@code [batch, channels, spatial...]} channels first. */
    static Shape shape(int batch, int[] spatial, int channels, boolean channelsFirst) {
        int[] d = new int[spatial.length + 2];
        d[0] = batch;
        d[channelAxis(spatial.length, channelsFirst)] = channels;
        int[] axes = spatialAxes(spatial.length, channelsFirst);
        for (int i = 0; i < spatial.length; i++) d[axes[i]] = spatial[i];
        return Shape.of(d);
    }

    /** The layout in words, for error messages. */
    static String layout(int spatialRank, boolean channelsFirst) {
        String sp = switch (spatialRank) {
            case 1 -> "length";
            case 2 -> "height, width";
            case 3 -> "depth, height, width";
            default -> "spatial...";
        };
        return channelsFirst ? "[batch, channels, " + sp + "]" : "[batch, " + sp + ", channels]";
    }

    /** The only input, a float tensor of rank {@code spatialRank + 2}. */
    static TensorSpec input(LayerSignature in, int spatialRank, boolean channelsFirst) {
        TensorSpec x = in.requireFloat();
        if (x.rank() != spatialRank + 2) {
            throw in.error("expects rank " + (spatialRank + 2) + " " + layout(spatialRank, channelsFirst) + ", got input of shape " + x.shape());
        }
        return x;
    }

    /** The input's channel count, which a parameter shape needs known. */
    static int channels(LayerSignature in, TensorSpec x, int spatialRank, boolean channelsFirst) {
        int c = x.dim(channelAxis(spatialRank, channelsFirst));
        if (c == Shape.OPEN) {
            throw in.error("needs a known channel count (axis " + channelAxis(spatialRank, channelsFirst) + " of "
                    + layout(spatialRank, channelsFirst) + "), got input of shape " + x.shape());
        }
        return c;
    }

    /** The forward output's spatial sizes; fails naming the shapes when a window does not fit. */
    static int[] forwardOut(LayerSignature in, TensorSpec x, int spatialRank, boolean channelsFirst, Padding padding,
                            int[] ext, int[] strides, String what) {
        int[] sp = spatialDims(x.shape(), spatialRank, channelsFirst);
        int[] out = new int[spatialRank];
        for (int i = 0; i < spatialRank; i++) {
            out[i] = outSize(padding, i, sp[i], ext[i], strides[i]);
            if (out[i] == 0) {
                throw in.error("the " + what + " of extent " + Arrays.toString(ext) + " does not fit the input of shape " + x.shape()
                        + " with padding " + padding + " (spatial axis " + i + ")");
            }
        }
        return out;
    }

    /** Conv options for this layout: kernels spatial first {@code [k..., in, out]}, explicit pads. */
    static ConvOptions convOptions(int spatialRank, boolean channelsFirst, int[] strides, int[][] pads, int[] dilation, int groups) {
        int r = spatialRank + 2;
        ConvOptions o = ConvOptions.defaults().withStrides(strides).withPadding(explicit(pads)).withKernelDilation(dilation)
                .withFeatureGroupSize(groups).withKernelPermutation(ConvOptions.kernelSpatialFirst(r));
        if (!channelsFirst) o = o.withInputPermutation(ConvOptions.channelsLast(r)).withOutputPermutation(ConvOptions.channelsLast(r));
        return o;
    }

    /** {@code {lo[], hi[]}} as a {@link Padding}. */
    static Padding explicit(int[][] pads) {
        int[][] p = new int[pads[0].length][];
        for (int i = 0; i < p.length; i++) p[i] = new int[] {pads[0][i], pads[1][i]};
        return Padding.explicit(p);
    }

    /** {@code y + bias} on the channel axis. */
    static Tensor addBias(Tensor y, Tensor bias, int spatialRank, boolean channelsFirst) {
        if (!channelsFirst) return y.add(bias);
        int[] d = new int[spatialRank + 1];
        Arrays.fill(d, 1);
        d[0] = bias.shape().dim(0);
        return y.add(bias.reshape(d));
    }

    /** A full-rank array: {@code spatial} on the spatial axes, {@code fill} on the batch and channel axes. */
    static int[] fullRank(int[] spatial, boolean channelsFirst, int fill) {
        int[] d = new int[spatial.length + 2];
        Arrays.fill(d, fill);
        int[] axes = spatialAxes(spatial.length, channelsFirst);
        for (int i = 0; i < spatial.length; i++) d[axes[i]] = spatial[i];
        return d;
    }

    /** Spatial sizes with {@code kernel} then {@code [a, b]}: a spatial-first kernel shape. */
    static Shape kernelShape(int[] kernel, int a, int b) {
        int[] d = Arrays.copyOf(kernel, kernel.length + 2);
        d[kernel.length] = a;
        d[kernel.length + 1] = b;
        return Shape.of(d);
    }
}
