package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * Max or average pooling over 1, 2 or 3 spatial axes (kinds {@code max_pool1d} … {@code max_pool3d},
 * {@code avg_pool1d} … {@code avg_pool3d}; Keras {@code MaxPoolingND}/{@code AveragePoolingND}):
 * each channel separately, the maximum or the mean of each window
 * {@code x[b, o·stride + t - lo..., c]}, {@code 0 <= t < window}.
 *
 * <p>Layout: {@code [batch, spatial..., channels]} (default) or channels first. Strides default
 * to the window (Keras, PyTorch). Output sizes as {@link Conv} ({@code VALID}
 * {@code floor((in - window) / stride) + 1}, {@code SAME} {@code ceil(in / stride)} with Keras's
 * padding, explicit {@code (lo, hi)} pairs, each below the window size). Padded positions never
 * count: max pooling pads with {@code -inf}, and average pooling divides each window's sum by the
 * number of real (non-padded) elements in it, as Keras does for {@code SAME} (PyTorch's
 * {@code count_include_pad=False}).
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 28, 28, 8)).apply(Pool.max(2, 2));                        // [-1, 14, 14, 8]
 * Model a = Model.input("x", Shape.of(-1, 7, 7, 8)).apply(Pool.avg(2, 3).withStrides(2).withPadding(Padding.SAME)); // [-1, 4, 4, 8]
 * }</pre>
 *
 * @param op            max or average
 * @param spatialRank   number of spatial axes, 1 to 3
 * @param window        window size per spatial axis
 * @param strides       stride per spatial axis (null: the window)
 * @param padding       {@link Padding#VALID} (default), {@link Padding#SAME} or {@code (lo, hi)} pairs
 * @param channelsFirst whether the channel axis is axis 1 (default false)
 */
public record Pool(Op op, int spatialRank, int[] window, int[] strides, Padding padding, boolean channelsFirst) implements Layer {
    /** The reductions. */
    public enum Op { MAX, AVG }

    public Pool {
        if (op == null) throw new JBurnException("pool", "the op must not be null");
        String k = op.name().toLowerCase(Locale.ROOT) + "_pool";
        Spatial.checkSpatialRank(k, spatialRank, 3);
        k = k + spatialRank + "d";
        window = Spatial.perAxis(k, "window size", window, spatialRank, 1);
        strides = strides == null ? window.clone() : Spatial.perAxis(k, "strides", strides, spatialRank, 1);
        padding = Spatial.checkPadding(k, padding, spatialRank);
        if (padding.mode() == Padding.Mode.EXPLICIT) {
            for (int i = 0; i < spatialRank; i++) {
                if (padding.lo(i) >= window[i] || padding.hi(i) >= window[i]) {
                    throw new JBurnException(k, "padding must be smaller than the window (so that every window holds an element), got "
                            + padding + " with window " + Arrays.toString(window));
                }
            }
        }
    }

    /** Max pooling with a window of {@code window} (one size: every axis), strides equal to the window, valid. */
    public static Pool max(int spatialRank, int... window) { return new Pool(Op.MAX, spatialRank, window, null, Padding.VALID, false); }

    /** Average pooling with a window of {@code window}, strides equal to the window, valid. */
    public static Pool avg(int spatialRank, int... window) { return new Pool(Op.AVG, spatialRank, window, null, Padding.VALID, false); }

    public Pool withStrides(int... s) { return new Pool(op, spatialRank, window, s, padding, channelsFirst); }

    public Pool withPadding(Padding p) { return new Pool(op, spatialRank, window, strides, p, channelsFirst); }

    public Pool withChannelsFirst(boolean first) { return new Pool(op, spatialRank, window, strides, padding, first); }

    @Override public int[] window() { return window.clone(); }

    @Override public int[] strides() { return strides.clone(); }

    @Override public String kind() { return op.name().toLowerCase(Locale.ROOT) + "_pool" + spatialRank + "d"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        int[] out = Spatial.forwardOut(in, x, spatialRank, channelsFirst, padding, window, strides, "window");
        return x.withShape(Spatial.shape(x.dim(0), out, x.dim(Spatial.channelAxis(spatialRank, channelsFirst)), channelsFirst));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int[] sp = Spatial.spatialDims(x.shape(), spatialRank, channelsFirst);
        int[][] pads = Spatial.pads(padding, sp, window, strides);
        int r = spatialRank + 2;
        int[][] full = new int[r][2];
        int[] axes = Spatial.spatialAxes(spatialRank, channelsFirst);
        boolean padded = false;
        for (int i = 0; i < spatialRank; i++) {
            full[axes[i]] = new int[] {pads[0][i], pads[1][i]};
            padded |= pads[0][i] != 0 || pads[1][i] != 0;
        }
        int[] win = Spatial.fullRank(window, channelsFirst, 1);
        WindowOptions o = WindowOptions.defaults().withStrides(Spatial.fullRank(strides, channelsFirst, 1)).withPadding(Padding.explicit(full));
        if (op == Op.MAX) return x.windowMax(win, o);
        Tensor sum = x.windowSum(win, o);
        if (!padded) return sum.divide((double) Layers.product(window, 0));
        // the number of real elements of each window: the same window sum over ones of the spatial shape
        Tensor ones = Tensor.ones(Spatial.shape(1, sp, 1, channelsFirst), x.dtype()).to(x.engine());
        return sum.divide(ones.windowSum(win, o));
    }

    @Override public boolean equals(Object o) {
        return o instanceof Pool p && p.op == op && p.spatialRank == spatialRank && Arrays.equals(p.window, window)
                && Arrays.equals(p.strides, strides) && p.padding.equals(padding) && p.channelsFirst == channelsFirst;
    }

    @Override public int hashCode() {
        return Objects.hash(op, spatialRank, Arrays.hashCode(window), Arrays.hashCode(strides), padding, channelsFirst);
    }

    @Override public String toString() {
        return "Pool[" + kind() + ", window=" + Arrays.toString(window) + ", strides=" + Arrays.toString(strides) + ", padding=" + padding
                + ", channelsFirst=" + channelsFirst + "]";
    }
}
