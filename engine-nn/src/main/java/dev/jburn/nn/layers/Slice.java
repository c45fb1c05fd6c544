package dev.jburn.nn.layers;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/**
 * The part {@code [start, start + length)} of axis {@code axis}; {@code Model.split} makes one per part.
 *
 * @param axis   the axis (negative counts from the end)
 * @param start  first index
 * @param length number of indices
 */
public record Slice(int axis, int start, int length) implements Layer {
    public Slice {
        if (start < 0 || length < 0) throw new dev.jburn.JBurnException(dev.jburn.spi.UserOp.name("slice"), "start and length must be non-negative, got " + start + ", " + length);
    }

    @Override public String kind() { return "split"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.input();
        int r = x.rank();
        if (axis < -r || axis >= r) throw in.error("axis " + axis + " is out of range for input of shape " + x.shape());
        int a = axis < 0 ? axis + r : axis;
        if (x.dim(a) == Shape.OPEN) throw in.error("cannot split the open axis " + a + " of " + x.shape());
        if (start + (long) length > x.dim(a)) throw in.error("part [" + start + ", " + (start + length) + ") exceeds axis " + a + " of " + x.shape());
        int[] d = x.shape().dims();
        d[a] = length;
        return x.withShape(Shape.of(d));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int a = axis < 0 ? axis + x.rank() : axis;
        int[] starts = new int[x.rank()];
        int[] lengths = x.shape().dims();
        starts[a] = start;
        lengths[a] = length;
        return x.slice(starts, lengths);
    }
}
