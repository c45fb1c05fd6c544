package dev.jburn.nn.layers;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/** Keeps the batch axis and flattens the rest: {@code [b, h, w, c] → [b, h·w·c]}; a rank-1 input gains a feature axis of 1. */
public record Flatten() implements Layer {
    @Override public String kind() { return "flatten"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireRank(1, Integer.MAX_VALUE, "[batch, ...]");
        int[] d = x.shape().dims();
        int rest = Layers.product(d, 1);
        if (rest == Shape.OPEN) throw in.error("needs every axis but the batch axis known, got input of shape " + x.shape());
        return x.withShape(Shape.of(d[0], rest));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        return x.reshape(x.shape().dim(0), x.rank() == 1 ? 1 : (int) (x.size() / Math.max(1, x.shape().dim(0))));
    }
}
