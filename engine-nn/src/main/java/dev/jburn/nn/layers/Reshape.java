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
 * Reshapes each sample, keeping the batch axis: {@code Reshape.of(7, 7, 16)} turns {@code [b, 784]}
 * into {@code [b, 7, 7, 16]}; one target axis may be {@code -1} (inferred).
 *
 * @param dims the per-sample shape
 */
public record Reshape(int[] dims) implements Layer {
    public Reshape {
        if (dims == null) throw new JBurnException("reshape", "dims must not be null");
        dims = dims.clone();
        int open = 0;
        for (int d : dims) {
            if (d == -1) open++;
            else if (d < 0) throw new JBurnException("reshape", "invalid dimension " + d + " in " + Arrays.toString(dims));
        }
        if (open > 1) throw new JBurnException("reshape", "only one -1 (inferred) axis is allowed, got " + Arrays.toString(dims));
    }

    /** The per-sample shape. */
    public static Reshape of(int... dims) { return new Reshape(dims); }

    @Override public int[] dims() { return dims.clone(); }

    @Override public String kind() { return "reshape"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.requireRank(1, Integer.MAX_VALUE, "[batch, ...]");
        int have = Layers.product(x.shape().dims(), 1);
        if (have == Shape.OPEN) throw in.error("needs every axis but the batch axis known, got input of shape " + x.shape());
        int[] t = dims.clone();
        long known = 1;
        int infer = -1;
        for (int i = 0; i < t.length; i++) {
            if (t[i] == -1) infer = i;
            else known *= t[i];
        }
        if (infer >= 0) {
            if (known == 0 || have % known != 0) throw in.error("cannot reshape samples of shape " + x.shape() + " to " + Arrays.toString(dims));
            t[infer] = (int) (have / known);
        } else if (known != have) {
            throw in.error("cannot reshape samples of shape " + x.shape() + " (" + have + " elements) to " + Arrays.toString(dims));
        }
        int[] o = new int[t.length + 1];
        o[0] = x.dim(0);
        System.arraycopy(t, 0, o, 1, t.length);
        return x.withShape(Shape.of(o));
    }

    @Override public Tensor apply(LayerCall call) {
        Tensor x = call.input();
        int[] o = new int[dims.length + 1];
        o[0] = x.shape().dim(0);
        System.arraycopy(dims, 0, o, 1, dims.length);
        return x.reshape(o);
    }

    @Override public boolean equals(Object o) { return o instanceof Reshape r && Arrays.equals(r.dims, dims); }

    @Override public int hashCode() { return Arrays.hashCode(dims); }

    @Override public String toString() { return "Reshape" + Arrays.toString(dims); }
}
