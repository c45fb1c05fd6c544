package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Locale;

/**
 * Global max or average pooling (kinds {@code global_max_pool}, {@code global_avg_pool}; Keras
 * {@code GlobalMaxPoolingND}/{@code GlobalAveragePoolingND}, PyTorch {@code AdaptiveMaxPool(1)}/{@code
 * AdaptiveAvgPool(1)}): the maximum or mean of each channel over every spatial axis, for any
 * number of spatial axes. {@code [batch, spatial..., channels]} becomes {@code [batch, channels]},
 * or {@code [batch, 1..., channels]} with {@code keepAxes} (Keras {@code keepdims}); channels first
 * {@code [batch, channels, spatial...]} likewise.
 *
 * <pre>{@code
 * Model m = Model.input("x", Shape.of(-1, 7, 7, 512)).apply(GlobalPool.avg());   // [-1, 512]
 * }</pre>
 *
 * @param op            max or average
 * @param keepAxes      whether the spatial axes stay, of size 1 (default false)
 * @param channelsFirst whether the channel axis is axis 1 (default false)
 */
public record GlobalPool(Pool.Op op, boolean keepAxes, boolean channelsFirst) implements Layer {
    public GlobalPool {
        if (op == null) throw new JBurnException("global_pool", "the op must not be null");
    }

    /** Global max pooling, channels last, spatial axes dropped. */
    public static GlobalPool max() { return new GlobalPool(Pool.Op.MAX, false, false); }

    /** Global average pooling, channels last, spatial axes dropped. */
    public static GlobalPool avg() { return new GlobalPool(Pool.Op.AVG, false, false); }

    public GlobalPool withKeepAxes(boolean keep) { return new GlobalPool(op, keep, channelsFirst); }

    public GlobalPool withChannelsFirst(boolean first) { return new GlobalPool(op, keepAxes, first); }

    @Override public String kind() { return "global_" + op.name().toLowerCase(Locale.ROOT) + "_pool"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireFloat();
        if (x.rank() < 3) {
            throw in.error("expects [batch, spatial..., channels] " + (channelsFirst ? "(channels first) " : "") + "of rank >= 3, got input of shape " + x.shape());
        }
        int sr = x.rank() - 2;
        int c = x.dim(Spatial.channelAxis(sr, channelsFirst));
        if (!keepAxes) return x.withShape(Shape.of(x.dim(0), c));
        int[] ones = new int[sr];
        java.util.Arrays.fill(ones, 1);
        return x.withShape(Spatial.shape(x.dim(0), ones, c, channelsFirst));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int[] axes = Spatial.spatialAxes(x.rank() - 2, channelsFirst);
        return op == Pool.Op.MAX ? x.max(axes, keepAxes) : x.mean(axes, keepAxes);
    }
}
