package dev.jburn.nn.layers;

import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;
import java.util.Objects;

/**
 * Adaptive average pooling to a fixed output size over 1, 2 or 3 spatial axes (kinds
 * {@code adaptive_avg_pool1d} … {@code adaptive_avg_pool3d}; PyTorch {@code AdaptiveAvgPoolNd}):
 * output position {@code i} of an axis of input size {@code in} and output size {@code out}
 * averages the input positions {@code [floor(i·in/out), ceil((i+1)·in/out))}, PyTorch's bins
 * (they overlap when {@code out} does not divide {@code in}, and repeat when {@code out > in}).
 * The mean over a box is taken axis by axis, each as a product with a constant
 * {@code [out, in]} averaging matrix, so any input size works (it need not be known when the
 * model is built).
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, -1, -1, 512)).apply(AdaptiveAvgPool.of(7, 7));   // [-1, 7, 7, 512]
 * }</pre>
 *
 * @param spatialRank   number of spatial axes, 1 to 3
 * @param outputSize    output size per spatial axis (one value: every axis)
 * @param channelsFirst whether the channel axis is axis 1 (default false)
 */
public record AdaptiveAvgPool(int spatialRank, int[] outputSize, boolean channelsFirst) implements Layer {
    public AdaptiveAvgPool {
        Spatial.checkSpatialRank("adaptive_avg_pool", spatialRank, 3);
        outputSize = Spatial.perAxis("adaptive_avg_pool" + spatialRank + "d", "output size", outputSize, spatialRank, 1);
    }

    /** Pooling to {@code outputSize} (its length is the spatial rank), channels last. */
    public static AdaptiveAvgPool of(int... outputSize) {
        if (outputSize == null || outputSize.length == 0) {
            throw new dev.jburn.JBurnException("adaptive_avg_pool", "needs an output size per spatial axis");
        }
        return new AdaptiveAvgPool(outputSize.length, outputSize, false);
    }

    public AdaptiveAvgPool withChannelsFirst(boolean first) { return new AdaptiveAvgPool(spatialRank, outputSize, first); }

    @Override public int[] outputSize() { return outputSize.clone(); }

    @Override public String kind() { return "adaptive_avg_pool" + spatialRank + "d"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = Spatial.input(in, spatialRank, channelsFirst);
        int[] sp = Spatial.spatialDims(x.shape(), spatialRank, channelsFirst);
        for (int i = 0; i < spatialRank; i++) {
            if (sp[i] == 0) throw in.error("cannot pool an empty spatial axis " + i + " of input of shape " + x.shape());
        }
        return x.withShape(Spatial.shape(x.dim(0), outputSize, x.dim(Spatial.channelAxis(spatialRank, channelsFirst)), channelsFirst));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor y = call.input();
        int r = spatialRank + 2;
        int[] axes = Spatial.spatialAxes(spatialRank, channelsFirst);
        for (int i = 0; i < spatialRank; i++) {
            int a = axes[i], n = y.shape().dim(a), m = outputSize[i];
            if (n == m) continue;
            Tensor avg = Tensor.of(averaging(n, m)).reshape(m, n).asType(y.dtype()).to(y.engine());
            Tensor t = y.dot(new int[] {a}, new int[0], avg, new int[] {1}, new int[0]);   // the pooled axis last
            int[] perm = new int[r];
            for (int j = 0, src = 0; j < r; j++) perm[j] = j == a ? r - 1 : src++;
            y = t.transpose(perm);
        }
        return y;
    }

    /** The {@code [out, in]} matrix of PyTorch's bins, row-major. */
    static double[] averaging(int in, int out) {
        double[] w = new double[out * in];
        for (int i = 0; i < out; i++) {
            int start = (int) ((long) i * in / out);
            int end = (int) (((long) (i + 1) * in + out - 1) / out);
            for (int j = start; j < end; j++) w[i * in + j] = 1.0 / (end - start);
        }
        return w;
    }

    @Override public boolean equals(Object o) {
        return o instanceof AdaptiveAvgPool p && p.spatialRank == spatialRank && Arrays.equals(p.outputSize, outputSize)
                && p.channelsFirst == channelsFirst;
    }

    @Override public int hashCode() { return Objects.hash(spatialRank, Arrays.hashCode(outputSize), channelsFirst); }

    @Override public String toString() {
        return "AdaptiveAvgPool[" + kind() + ", outputSize=" + Arrays.toString(outputSize) + ", channelsFirst=" + channelsFirst + "]";
    }
}
