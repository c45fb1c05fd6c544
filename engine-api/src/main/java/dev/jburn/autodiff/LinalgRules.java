package dev.jburn.autodiff;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;

import java.util.Arrays;
import java.util.List;

/**
 * Backward rules of {@code cholesky}, {@code triangularSolve}, {@code lu} and reduced {@code qr} of
 * square or tall matrices, {@code eigh}, and {@code svd}'s singular values (batched over leading
 * axes). Through {@code lu}, {@code solve}, {@code invert} and {@code determinant} differentiate too.
 */
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

    /**
     * {@code a = p·l·u} with unit-lower {@code l} (square {@code a}): {@code ā = p·l⁻ᵀ·(tril₋₁(lᵀ·l̄) + triu(ū·uᵀ))·u⁻ᵀ},
     * the transpose of JAX's {@code lu} JVP. {@code p} is piecewise constant.
     */
    static List<Tensor> lu(Tensor a, Tensor p, Tensor l, Tensor u, Tensor gl, Tensor gu) {
        if (!a.dtype().isFloat() || (gl == null && gu == null)) return BackwardRules.none(1);
        if (a.shape().dim(-1) != a.shape().dim(-2)) {
            throw new dev.jburn.JBurnException("lu", "gradients through lu are built for square matrices, got " + a.shape());
        }
        Tensor inner = null;
        if (gl != null) inner = strictLower(matmul(mT(l), gl));
        if (gu != null) {
            Tensor up = triangle(matmul(gu, mT(u)), false);
            inner = inner == null ? up : inner.add(up);
        }
        Tensor left = LinAlg.triangularSolve(l, inner, true, true, true);
        Tensor right = LinAlg.triangularSolve(u, left, false, false, true);
        return List.of(matmul(p, right));
    }

    /**
     * Reduced {@code a = q·r} of an {@code m×n} matrix with {@code m >= n} (Walter and Lehmann 2018):
     * {@code M = r·r̄ᵀ - q̄ᵀ·q}, {@code ā = (q̄ + q·copyltu(M))·r⁻ᵀ}, where {@code copyltu} mirrors
     * the lower triangle into the upper one.
     */
    static List<Tensor> qr(Prim.Qr prim, Tensor a, Tensor q, Tensor r, Tensor gq, Tensor gr) {
        if (!a.dtype().isFloat() || (gq == null && gr == null)) return BackwardRules.none(1);
        int m = a.shape().dim(-2), n = a.shape().dim(-1);
        if (m < n || (prim.complete() && m != n)) {
            throw new dev.jburn.JBurnException("qr", "gradients through qr are built for the reduced factorization of square or tall "
                    + "matrices (m >= n), got " + a.shape() + (prim.complete() ? " with complete: true" : ""));
        }
        Tensor mm = null;
        if (gr != null) mm = matmul(r, mT(gr));
        if (gq != null) {
            Tensor t = matmul(mT(gq), q);
            mm = mm == null ? t.negate() : mm.subtract(t);
        }
        Tensor lower = triangle(mm, true);
        Tensor copyltu = lower.add(mT(strictLower(mm)));
        Tensor b = matmul(q, copyltu);
        if (gq != null) b = b.add(gq);
        return List.of(LinAlg.triangularSolve(r, b, false, false, true));
    }

    /**
     * Symmetric {@code a = v·diag(w)·vᵀ}: {@code ā = v·(diag(w̄) + F∘(vᵀ·v̄))·vᵀ} with
     * {@code F[i][j] = 1/(w[j] - w[i])} off the diagonal (0 on it), symmetrized, since eigh reads a
     * symmetric matrix. Repeated eigenvalues make {@code F} infinite, as in every framework.
     */
    static List<Tensor> eigh(Tensor a, Tensor w, Tensor v, Tensor gw, Tensor gv) {
        if (!a.dtype().isFloat() || (gw == null && gv == null)) return BackwardRules.none(1);
        int n = a.shape().dim(-1);
        Tensor inner = null;
        if (gv != null) {
            Tensor diff = w.newAxis(w.rank() - 1).subtract(w.newAxis(w.rank())); // [i][j] = w[j] - w[i]
            Tensor off = offDiagonal(diff, n);
            Tensor safe = off.select(diff, 1.0); // the diagonal's 0 would divide by zero before select drops it
            Tensor f = off.select(onesLike(safe).divide(safe), 0.0);
            inner = f.multiply(matmul(mT(v), gv));
        }
        if (gw != null) {
            Tensor d = diagEmbed(gw, n);
            inner = inner == null ? d : inner.add(d);
        }
        Tensor g = matmul(matmul(v, inner), mT(v));
        return List.of(g.add(mT(g)).multiply(0.5));
    }

    /**
     * {@code a = u·diag(s)·vᵀ} (reduced, {@code k = min(m, n)}), Townsend (2016): with
     * {@code F[i][j] = 1/(s[j]² - s[i]²)} off the diagonal,
     * {@code ā = u·[(F∘(uᵀū - ūᵀu))·S + diag(s̄) + S·(F∘(vᵀv̄ - v̄ᵀv))]·vᵀ + (I - uuᵀ)·ū·S⁻¹·vᵀ + u·S⁻¹·v̄ᵀ·(I - vvᵀ)}.
     * Valid for losses that do not depend on each singular pair's sign, with distinct nonzero
     * singular values. With {@code fullMatrices} and a non-square matrix the extra singular vectors
     * are not unique, so their cotangents are refused (as JAX does); the singular values always work.
     */
    static List<Tensor> svd(Prim.Svd prim, Tensor a, Tensor u, Tensor s, Tensor vt, Tensor gu, Tensor gs, Tensor gvt) {
        if (!a.dtype().isFloat() || (gu == null && gs == null && gvt == null)) return BackwardRules.none(1);
        int k = s.shape().dim(-1);
        boolean reducedU = u.shape().dim(-1) == k, reducedV = vt.shape().dim(-2) == k;
        if ((gu != null && !reducedU) || (gvt != null && !reducedV)) {
            throw new dev.jburn.JBurnException("svd", "gradients through the singular vectors of svd with full matrices are not "
                    + "defined (the extra vectors are not unique) for shape " + a.shape() + "; use LinAlg.svd(a, false)");
        }
        Tensor uk = reducedU ? u : sliceLast(u, k, true);
        Tensor v = mT(reducedV ? vt : sliceLast(vt, k, false));
        Tensor row = s.newAxis(s.rank() - 1); // [..., 1, k]: scales columns
        Tensor col = s.newAxis(s.rank());     // [..., k, 1]: scales rows
        Tensor middle = gs == null ? null : diagEmbed(gs, k);
        Tensor outer = null;
        if (gu != null || gvt != null) {
            Tensor s2 = s.multiply(s);
            Tensor diff = s2.newAxis(s2.rank() - 1).subtract(s2.newAxis(s2.rank())); // [i][j] = s[j]² - s[i]²
            Tensor off = offDiagonal(diff, k);
            Tensor f = off.select(onesLike(diff).divide(off.select(diff, 1.0)), 0.0);
            if (gu != null) {
                Tensor utg = matmul(mT(uk), gu);
                Tensor j = f.multiply(utg.subtract(mT(utg))).multiply(row);
                middle = middle == null ? j : middle.add(j);
                // (I - uuᵀ)·ū·S⁻¹·vᵀ, zero when u is square
                Tensor perp = gu.subtract(matmul(uk, utg)).divide(row);
                outer = matmul(perp, mT(v));
            }
            if (gvt != null) {
                Tensor gv = mT(gvt);
                Tensor vtg = matmul(mT(v), gv);
                Tensor kk = f.multiply(vtg.subtract(mT(vtg))).multiply(col);
                middle = middle == null ? kk : middle.add(kk);
                // u·S⁻¹·v̄ᵀ·(I - vvᵀ), zero when v is square
                Tensor perp = mT(gv).subtract(matmul(mT(vtg), mT(v)));
                Tensor t = matmul(uk.divide(row), perp);
                outer = outer == null ? t : outer.add(t);
            }
        }
        Tensor g = middle == null ? null : matmul(matmul(uk, middle), mT(v));
        if (outer != null) g = g == null ? outer : g.add(outer);
        return List.of(g);
    }

    /** The first {@code k} columns ({@code columns}) or rows of the last two axes. */
    private static Tensor sliceLast(Tensor m, int k, boolean columns) {
        int r = m.rank();
        int[] starts = new int[r];
        int[] lengths = m.shape().dims().clone();
        lengths[columns ? r - 1 : r - 2] = k;
        return m.slice(starts, lengths);
    }

    /** {@code v} on the diagonal of an {@code n×n} matrix (batched). */
    private static Tensor diagEmbed(Tensor v, int n) {
        Tensor eye = iota(v, n, 0).equal(iota(v, n, 1)).asType(v.dtype());
        return v.newAxis(v.rank() - 1).multiply(eye);
    }

    /** A tensor of ones like {@code m}, built on its engine ({@code m·0 + 1} would be NaN where {@code m} is infinite). */
    private static Tensor onesLike(Tensor m) {
        Tensor ones = Tensor.ones(m.shape(), m.dtype());
        return ones.engine() == m.engine() ? ones : ones.to(m.engine());
    }

    private static Tensor offDiagonal(Tensor like, int n) {
        return iota(like, n, 0).notEqual(iota(like, n, 1));
    }

    private static Tensor strictLower(Tensor m) {
        int n = m.shape().dim(-1);
        return iota(m, n, 0).greater(iota(m, n, 1)).select(m, 0.0);
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
