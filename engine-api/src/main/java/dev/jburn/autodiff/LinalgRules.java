package dev.jburn.autodiff;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;

import java.util.Arrays;
import java.util.List;

/** Backward rules of {@code cholesky} and {@code triangularSolve} (batched over leading axes). */
final class LinalgRules {
    private LinalgRules() {}

    static List<Tensor> triangularSolve(Prim.TriangularSolve t, Tensor a, Tensor b, Tensor x, Tensor g) {
        if (!a.dtype().isFloat()) return BackwardRules.none(2);
        boolean vector = b.rank() == a.rank() - 1;
        if (vector) {
            b = b.newAxis(b.rank());
            x = x.newAxis(x.rank());
            g = g.newAxis(g.rank());
        }
        Tensor gb = LinAlg.triangularSolve(a, g, t.lower(), t.leftSide(), !t.transposeA());
        Tensor ga;
        if (t.leftSide()) ga = t.transposeA() ? matmul(x, mT(gb)) : matmul(gb, mT(x));
        else ga = t.transposeA() ? matmul(mT(gb), x) : matmul(mT(x), gb);
        ga = triangle(ga.negate(), t.lower());
        return Arrays.asList(ga, vector ? gb.squeeze(gb.rank() - 1) : gb);
    }

    /**
     * Murray (2016): with {@code P = Φ(Lᵀ·Ḡ)} ({@code Φ}: lower triangle, diagonal halved) and
     * {@code S = L⁻ᵀ·P·L⁻¹}, the cotangent of the lower triangle that cholesky reads is {@code Φ(S + Sᵀ)}.
     */
    static Tensor cholesky(Tensor a, Tensor l, Tensor g) {
        if (!a.dtype().isFloat()) return null;
        Tensor p = phi(matmul(mT(l), g));
        Tensor y = LinAlg.triangularSolve(l, p, true, true, true);
        Tensor s = LinAlg.triangularSolve(l, y, true, false, false);
        return phi(s.add(mT(s)));
    }

    /** Lower triangle with the diagonal halved. */
    private static Tensor phi(Tensor m) {
        int n = m.shape().dim(-1);
        Tensor r = iota(m, n, 0), c = iota(m, n, 1);
        Tensor scale = r.greater(c).select(1.0, r.equal(c).select(0.5, 0.0)).asType(m.dtype());
        return m.multiply(scale);
    }

    private static Tensor triangle(Tensor m, boolean lower) {
        int n = m.shape().dim(-1);
        Tensor r = iota(m, n, 0), c = iota(m, n, 1);
        return (lower ? r.greaterEqual(c) : r.lessEqual(c)).select(m, 0.0);
    }

    private static Tensor iota(Tensor like, int n, int axis) {
        Tensor i = Tensor.iota(Shape.of(n, n), DType.S32, axis);
        return i.engine() == like.engine() ? i : i.to(like.engine());
    }

    /** Batched matrix product over the last two axes. */
    private static Tensor matmul(Tensor p, Tensor q) {
        int r = p.rank();
        int[] batch = new int[r - 2];
        for (int i = 0; i < batch.length; i++) batch[i] = i;
        return p.dot(new int[] {r - 1}, batch, q, new int[] {r - 2}, batch);
    }

    /** Transpose of the last two axes. */
    private static Tensor mT(Tensor m) {
        int r = m.rank();
        int[] perm = new int[r];
        for (int i = 0; i < r; i++) perm[i] = i;
        perm[r - 2] = r - 1;
        perm[r - 1] = r - 2;
        return m.transpose(perm);
    }
}
