package dev.jburn.nn.layers;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/**
 * Joins inputs along {@code axis} (negative counts from the end); every other axis must agree.
 *
 * @param axis the axis to join along
 */
public record Concatenate(int axis) implements Layer {
    @Override public String kind() { return "concatenate"; }

    @Override public TensorSpec output(LayerSignature in) {
        var ins = in.inputs();
        if (ins.size() < 2) throw in.error("takes two or more inputs, got " + ins.size());
        TensorSpec first = ins.getFirst();
        int r = first.rank();
        if (axis < -r || axis >= r) throw in.error("axis " + axis + " is out of range for inputs of rank " + r);
        int a = axis < 0 ? axis + r : axis;
        int total = 0;
        for (TensorSpec s : ins) {
            if (s.rank() != r || s.dtype() != first.dtype()) throw in.error("needs inputs of one rank and dtype, got " + ins);
            for (int i = 0; i < r; i++) {
                if (i != a && s.dim(i) != first.dim(i)) throw in.error("inputs differ on axis " + i + " (not the join axis " + a + "): " + ins);
            }
            total = total == Shape.OPEN || s.dim(a) == Shape.OPEN ? Shape.OPEN : total + s.dim(a);
        }
        int[] d = first.shape().dims();
        d[a] = total;
        return first.withShape(Shape.of(d));
    }

    @Override public Tensor apply(LayerCall call) { return Tensor.concatenate(call.inputs(), axis); }
}
