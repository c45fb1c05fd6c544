package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.TensorSpec;

import java.util.Arrays;

/**
 * Permutes the axes of each sample; the batch axis stays first. {@code perm} lists, for output
 * axes {@code 1, 2, ...}, the input axis each comes from, numbered as in the whole tensor (the batch
 * is axis 0, so the values are a permutation of {@code 1..rank-1}), as Keras's {@code Permute}:
 * {@code Transpose.of(2, 1)} turns {@code [b, t, f]} into {@code [b, f, t]};
 * {@code Transpose.of(3, 1, 2)} turns channels-last {@code [b, h, w, c]} into channels-first
 * {@code [b, c, h, w]}.
 *
 * @param perm the source axis of each non-batch output axis, a permutation of {@code 1..perm.length}
 */
public record Transpose(int[] perm) implements Layer {
    public Transpose {
        if (perm == null || perm.length == 0) throw new JBurnException("transpose", "perm must list the non-batch axes, got " + Arrays.toString(perm));
        perm = perm.clone();
        boolean[] seen = new boolean[perm.length + 1];
        for (int p : perm) {
            if (p < 1 || p > perm.length || seen[p]) {
                throw new JBurnException("transpose", "perm must be a permutation of the non-batch axes 1.." + perm.length + ", got " + Arrays.toString(perm));
            }
            seen[p] = true;
        }
    }

    /** The permutation of the non-batch axes (values from 1). */
    public static Transpose of(int... perm) { return new Transpose(perm); }

    @Override public int[] perm() { return perm.clone(); }

    @Override public String kind() { return "transpose"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.input();
        if (x.rank() != perm.length + 1) {
            throw in.error("perm " + Arrays.toString(perm) + " permutes " + perm.length + " non-batch axes, got input of shape " + x.shape());
        }
        int[] d = new int[x.rank()];
        d[0] = x.dim(0);
        for (int i = 0; i < perm.length; i++) d[i + 1] = x.dim(perm[i]);
        return x.withShape(dev.jburn.Shape.of(d));
    }

    @Override public Tensor apply(LayerCall call) {
        int[] full = new int[perm.length + 1];
        System.arraycopy(perm, 0, full, 1, perm.length);
        return call.input().transpose(full);
    }

    @Override public boolean equals(Object o) { return o instanceof Transpose t && Arrays.equals(t.perm, perm); }

    @Override public int hashCode() { return Arrays.hashCode(perm); }

    @Override public String toString() { return "Transpose" + Arrays.toString(perm); }
}
