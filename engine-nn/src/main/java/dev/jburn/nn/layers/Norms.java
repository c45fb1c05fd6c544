package dev.jburn.nn.layers;

import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

/** What the normalization layers share: axis checks, per-feature broadcasting, moments. */
final class Norms {
    private Norms() {}

    /**
     * The feature axis {@code axis} of {@code x} normalized to {@code [1, rank)}, with a known size;
     * fails naming the layer when it is out of range, is the batch axis, or is open.
     */
    static int featureAxis(LayerSignature in, TensorSpec x, int axis) {
        int r = x.rank();
        if (axis < -r || axis >= r) throw in.error("feature axis " + axis + " is out of range for input of shape " + x.shape());
        int a = axis < 0 ? axis + r : axis;
        if (a == 0) throw in.error("feature axis " + axis + " is the batch axis of input of shape " + x.shape());
        if (x.dim(a) == Shape.OPEN) throw in.error("needs a known feature size (axis " + a + "), got input of shape " + x.shape());
        return a;
    }

    /** The input of a normalization layer: a float tensor of rank {@code >= minRank}. */
    static TensorSpec floatInput(LayerSignature in, int minRank, String layout) {
        TensorSpec x = in.requireRank(minRank, Integer.MAX_VALUE, layout);
        in.requireFloat();
        return x;
    }

    /** {@code p [C]} reshaped to broadcast along axis {@code axis} of a rank-{@code rank} tensor. */
    static Tensor along(Tensor p, int rank, int axis) {
        int[] d = new int[rank];
        java.util.Arrays.fill(d, 1);
        d[axis] = p.shape().dim(0);
        return p.reshape(d);
    }

    /** Every axis of {@code [0, rank)} but those in {@code keep}. */
    static int[] allBut(int rank, int... keep) {
        int[] out = new int[rank - keep.length];
        int k = 0;
        outer:
        for (int i = 0; i < rank; i++) {
            for (int j : keep) if (j == i) continue outer;
            out[k++] = i;
        }
        return java.util.Arrays.copyOf(out, k);
    }

    /** The axes {@code [from, rank)}. */
    static int[] from(int from, int rank) {
        int[] out = new int[rank - from];
        for (int i = 0; i < out.length; i++) out[i] = from + i;
        return out;
    }

    /** {@code [mean, biased variance]} over {@code axes}, axes kept. */
    static Tensor[] moments(Tensor x, int[] axes) {
        Tensor mean = x.mean(axes, true);
        Tensor d = x.subtract(mean);
        return new Tensor[] {mean, d.multiply(d).mean(axes, true)};
    }

    /** {@code (x - mean) / sqrt(var + epsilon)}. */
    static Tensor standardize(Tensor x, Tensor mean, Tensor var, double epsilon) {
        return x.subtract(mean).multiply(var.add(epsilon).rsqrt());
    }

    /** Fails unless {@code epsilon} is positive and finite. */
    static void checkEpsilon(String kind, double epsilon) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) throw new dev.jburn.JBurnException(kind, "epsilon must be positive and finite, got " + epsilon);
    }
}
