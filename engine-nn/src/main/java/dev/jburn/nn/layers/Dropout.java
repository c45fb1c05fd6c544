package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;
import dev.jburn.nn.internal.KeyBits;

/**
 * Inverted dropout: in training mode each element is zeroed with probability {@code rate} and
 * the rest are scaled by {@code 1 / (1 - rate)}, so inference is the identity. The mask comes
 * from the layer's own key ({@link LayerCall#key()}), different at every step.
 *
 * <p>{@code Dropout.spatial(rate)} drops whole channels (Keras {@code SpatialDropout}, PyTorch
 * {@code Dropout2d}): the mask has size 1 on every axis but the batch axis and the channel axis
 * (the last, channels-last).
 *
 * @param rate    probability of dropping, in {@code [0, 1)}
 * @param spatial whether one mask value covers a whole channel of a sample
 */
public record Dropout(double rate, boolean spatial) implements Layer {
    public Dropout {
        if (!(rate >= 0 && rate < 1)) throw new JBurnException(spatial ? "spatial_dropout" : "dropout", "rate must be in [0, 1), got " + rate);
    }

    /** Element-wise dropout. */
    public static Dropout of(double rate) { return new Dropout(rate, false); }

    /** Channel-wise dropout of a channels-last tensor {@code [batch, ..., channels]}. */
    public static Dropout spatial(double rate) { return new Dropout(rate, true); }

    @Override public String kind() { return spatial ? "spatial_dropout" : "dropout"; }

    @Override public boolean usesKey() { return true; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireFloat();
        if (spatial && x.rank() < 3) throw in.error("expects [batch, spatial..., channels] (rank >= 3), got input of shape " + x.shape());
        return x;
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        if (!call.training() || rate == 0) return x;
        Shape maskShape = x.shape();
        if (spatial) {
            int[] d = new int[x.rank()];
            java.util.Arrays.fill(d, 1);
            d[0] = x.shape().dim(0);
            d[d.length - 1] = x.shape().dim(-1);
            maskShape = Shape.of(d);
        }
        Tensor keep = KeyBits.keepMask(call.key(), maskShape, rate);
        return keep.select(x.divide(1 - rate), 0.0);
    }
}
