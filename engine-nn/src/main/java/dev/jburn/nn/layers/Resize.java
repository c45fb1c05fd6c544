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
 * Resizes the spatial axes of a channels-last input {@code [batch, spatial..., channels]} (1 to 3
 * spatial axes; {@code withChannelsFirst()} for {@code [batch, channels, spatial...]}) to a given
 * output size or by scale factors (output {@code floor(in · factor)}, Keras and PyTorch). Each
 * spatial axis is resampled separately (so {@code BILINEAR} is linear in 1-D and trilinear in 3-D),
 * with the coordinate map {@code in / out} of the actual sizes (PyTorch's
 * {@code recompute_scale_factor=True}; the same as the factor when {@code in · factor} is whole).
 *
 * <ul>
 * <li>{@code BILINEAR} (default) uses half-pixel centers, as PyTorch's {@code align_corners=False}
 *     and TF2's {@code tf.image.resize}: output {@code i} samples input coordinate
 *     {@code src = max(0, (i + 0.5) · in / out - 0.5)} and mixes {@code x[floor(src)]} and
 *     {@code x[min(floor(src) + 1, in - 1)]} with weights {@code 1 - frac(src)}, {@code frac(src)}
 *     (no antialiasing when downsampling).</li>
 * <li>{@code NEAREST} takes {@code x[min(floor((i + 0.5) · in / out), in - 1)]}, computed exactly
 *     in integers: PyTorch's {@code mode="nearest-exact"} (not the legacy {@code "nearest"}, which
 *     uses {@code floor(i · in / out)}).</li>
 * </ul>
 *
 * Bilinear resizing is a product with a constant {@code [out, in]} interpolation matrix per axis,
 * computed in Java when the layer runs (or is traced); nearest is a {@code take} of constant indices.
 * Both are differentiable in the input.
 *
 * <pre>{@code
 * Model up = Model.input("image", Shape.of(-1, 16, 16, 3)).apply(Resize.of(32, 32));                     // bilinear
 * Model x2 = Model.input("image", Shape.of(-1, 16, 16, 3)).apply(Resize.scale(2, 2).withMethod(Resize.Method.NEAREST));
 * }</pre>
 *
 * @param size          output sizes per spatial axis, or null when {@code scale} is given
 * @param scale         scale factors per spatial axis, or null when {@code size} is given
 * @param method        the interpolation (default bilinear)
 * @param channelsFirst whether the channel axis is axis 1 rather than the last (default false)
 */
public record Resize(int[] size, double[] scale, Method method, boolean channelsFirst) implements Layer {
    /** The interpolations. */
    public enum Method { NEAREST, BILINEAR }

    public Resize {
        if ((size == null) == (scale == null)) throw new JBurnException("resize", "give either the output size or the scale factors");
        int n = size != null ? size.length : scale.length;
        if (n < 1 || n > 3) throw new JBurnException("resize", "resizes 1 to 3 spatial axes, got " + n);
        if (size != null) {
            size = size.clone();
            for (int s : size) if (s < 1) throw new JBurnException("resize", "output sizes must be positive, got " + Arrays.toString(size));
        } else {
            scale = scale.clone();
            for (double f : scale) {
                if (!(f > 0) || Double.isInfinite(f)) throw new JBurnException("resize", "scale factors must be positive and finite, got " + Arrays.toString(scale));
            }
        }
        if (method == null) throw new JBurnException("resize", "the method must not be null");
    }

    /** Bilinear resizing to {@code size} (one per spatial axis), channels-last. */
    public static Resize of(int... size) {
        if (size == null) throw new JBurnException("resize", "the output size must not be null");
        return new Resize(size, null, Method.BILINEAR, false);
    }

    /** Bilinear resizing by {@code factors} (one per spatial axis), channels-last. */
    public static Resize scale(double... factors) {
        if (factors == null) throw new JBurnException("resize", "the scale factors must not be null");
        return new Resize(null, factors, Method.BILINEAR, false);
    }

    public Resize withMethod(Method m) { return new Resize(size, scale, m, channelsFirst); }

    public Resize withChannelsFirst() { return new Resize(size, scale, method, true); }

    @Override public int[] size() { return size == null ? null : size.clone(); }

    @Override public double[] scale() { return scale == null ? null : scale.clone(); }

    private int spatial() { return size != null ? size.length : scale.length; }

    @Override public String kind() { return "resize"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.input();
        int n = spatial();
        if (x.rank() != n + 2) {
            throw in.error("resizes " + n + " spatial axes of " + (channelsFirst ? "[batch, channels, spatial...]" : "[batch, spatial..., channels]")
                    + " (rank " + (n + 2) + "), got input of shape " + x.shape());
        }
        if (method == Method.BILINEAR && !x.dtype().isFloat()) throw in.error("bilinear resizing expects a float input, got " + x);
        int[] d = x.shape().dims();
        int first = channelsFirst ? 2 : 1;
        for (int i = 0; i < n; i++) {
            int a = first + i;
            if (size != null) d[a] = size[i];
            else if (d[a] != Shape.OPEN) {
                d[a] = outSize(d[a], i);
                if (d[a] < 1) throw in.error("scale factor " + scale[i] + " leaves no element of axis " + a + " of input of shape " + x.shape());
            }
        }
        return x.withShape(Shape.of(d));
    }

    private int outSize(int in, int i) { return size != null ? size[i] : (int) Math.floor(in * scale[i]); }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int first = channelsFirst ? 2 : 1;
        for (int i = 0; i < spatial(); i++) {
            int a = first + i, in = x.shape().dim(a), out = outSize(in, i);
            if (out == in) continue;   // both maps are the identity
            if (method == Method.NEAREST) {
                x = x.take(Tensor.of(nearestIndices(in, out)).to(x.engine()), a);
            } else {
                Tensor m = Tensor.of(linearMatrix(in, out)).reshape(out, in).asType(x.dtype()).to(x.engine());
                Tensor y = m.dot(new int[] {1}, new int[] {}, x, new int[] {a}, new int[] {});   // [out, other axes of x...]
                int[] perm = new int[x.rank()];
                for (int j = 0; j < perm.length; j++) perm[j] = j < a ? j + 1 : j == a ? 0 : j;
                x = y.transpose(perm);
            }
        }
        return x;
    }

    /** {@code min(floor((i + 0.5) · in / out), in - 1)} for each output index, in integers. */
    private static int[] nearestIndices(int in, int out) {
        int[] idx = new int[out];
        for (int i = 0; i < out; i++) idx[i] = (int) Math.min(((2L * i + 1) * in) / (2L * out), in - 1);
        return idx;
    }

    /** The row-major {@code [out, in]} half-pixel linear interpolation matrix. */
    private static double[] linearMatrix(int in, int out) {
        double[] m = new double[out * in];
        for (int i = 0; i < out; i++) {
            double src = Math.max(0, (i + 0.5) * in / out - 0.5);
            int i0 = Math.min((int) Math.floor(src), in - 1), i1 = Math.min(i0 + 1, in - 1);
            double l = src - i0;
            m[i * in + i0] += 1 - l;
            m[i * in + i1] += l;
        }
        return m;
    }

    @Override public boolean equals(Object o) {
        return o instanceof Resize r && Arrays.equals(r.size, size) && Arrays.equals(r.scale, scale) && r.method == method && r.channelsFirst == channelsFirst;
    }

    @Override public int hashCode() { return Arrays.hashCode(size) * 31 + Arrays.hashCode(scale) * 7 + method.hashCode() + (channelsFirst ? 1 : 0); }

    @Override public String toString() {
        return "Resize[" + (size != null ? "size=" + Arrays.toString(size) : "scale=" + Arrays.toString(scale)) + ", " + method
                + (channelsFirst ? ", channels-first" : "") + "]";
    }
}
