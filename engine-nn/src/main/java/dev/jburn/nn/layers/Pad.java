package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;

/**
 * Constant padding of the spatial axes (Keras {@code ZeroPadding1D/2D/3D}, PyTorch
 * {@code ConstantPad*d}): of a channels-last input {@code [batch, spatial..., channels]} by default,
 * of a channels-first {@code [batch, channels, spatial...]} with {@code withChannelsFirst()}.
 * {@code padding[i] = {lo, hi}} adds {@code lo} elements before and {@code hi} after spatial axis
 * {@code i}, all equal to {@code value} (default 0). The batch and channel axes are untouched.
 *
 * <pre>{@code
 * Model m = Model.input("image", Shape.of(-1, 28, 28, 1)).apply(Pad.of(new int[] {2, 2}, new int[] {1, 3}));  // [b, 32, 32, 1]
 * }</pre>
 *
 * @param padding       one {@code {lo, hi}} pair (non-negative) per spatial axis
 * @param value         the padding value (default 0; an integer input needs an integral value)
 * @param channelsFirst whether the channel axis is axis 1 rather than the last (default false)
 */
public record Pad(int[][] padding, double value, boolean channelsFirst) implements Layer {
    public Pad {
        if (padding == null || padding.length == 0) throw new JBurnException("pad", "needs one {lo, hi} pair per spatial axis");
        int[][] p = new int[padding.length][];
        for (int i = 0; i < padding.length; i++) {
            int[] lh = padding[i];
            if (lh == null || lh.length != 2 || lh[0] < 0 || lh[1] < 0) {
                throw new JBurnException("pad", "spatial axis " + i + " needs a pair {lo, hi} of non-negative sizes, got " + Arrays.toString(lh));
            }
            p[i] = lh.clone();
        }
        padding = p;
        if (!Double.isFinite(value)) throw new JBurnException("pad", "the padding value must be finite, got " + value);
    }

    /** Zero padding, {@code {lo, hi}} per spatial axis, channels-last. */
    public static Pad of(int[]... loHi) { return new Pad(loHi, 0, false); }

    /** Zero padding of {@code p[i]} on both sides of spatial axis {@code i}. */
    public static Pad symmetric(int... p) {
        if (p == null || p.length == 0) throw new JBurnException("pad", "needs one size per spatial axis");
        int[][] lh = new int[p.length][];
        for (int i = 0; i < p.length; i++) lh[i] = new int[] {p[i], p[i]};
        return new Pad(lh, 0, false);
    }

    public Pad withValue(double v) { return new Pad(padding, v, channelsFirst); }

    public Pad withChannelsFirst() { return new Pad(padding, value, true); }

    @Override public int[][] padding() {
        int[][] p = new int[padding.length][];
        for (int i = 0; i < p.length; i++) p[i] = padding[i].clone();
        return p;
    }

    @Override public String kind() { return "pad"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.input();
        int n = padding.length;
        if (x.rank() != n + 2) {
            throw in.error("pads " + n + " spatial axes of " + (channelsFirst ? "[batch, channels, spatial...]" : "[batch, spatial..., channels]")
                    + " (rank " + (n + 2) + "), got input of shape " + x.shape());
        }
        if (!x.dtype().isFloat() && value != Math.rint(value)) throw in.error("cannot pad the integer input " + x + " with " + value);
        int[] d = x.shape().dims();
        int first = channelsFirst ? 2 : 1;
        for (int i = 0; i < n; i++) {
            int a = first + i;
            if (d[a] != Shape.OPEN) d[a] += padding[i][0] + padding[i][1];
        }
        return x.withShape(Shape.of(d));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int[][] config = new int[x.rank()][];
        Arrays.setAll(config, i -> new int[] {0, 0, 0});
        int first = channelsFirst ? 2 : 1;
        for (int i = 0; i < padding.length; i++) config[first + i] = new int[] {padding[i][0], padding[i][1], 0};
        return x.dtype().isFloat() ? x.pad(value, config) : x.pad((long) value, config);
    }

    @Override public boolean equals(Object o) {
        return o instanceof Pad p && Arrays.deepEquals(p.padding, padding) && Double.compare(p.value, value) == 0 && p.channelsFirst == channelsFirst;
    }

    @Override public int hashCode() { return Arrays.deepHashCode(padding) * 31 + Double.hashCode(value) * 7 + (channelsFirst ? 1 : 0); }

    @Override public String toString() { return "Pad[" + Arrays.deepToString(padding) + ", value=" + value + (channelsFirst ? ", channels-first" : "") + "]"; }
}
