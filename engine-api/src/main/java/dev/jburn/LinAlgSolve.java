package dev.jburn;

import dev.jburn.op.LinalgOp;
import dev.jburn.spi.Buffer;

import java.util.List;

/**
 * The composites {@code solve}, {@code invert} and {@code determinant}, built from the LU and
 * triangular-solve primitives and ordinary tensor ops, batched like them.
 *
 * <p>Singularity is data-dependent, so it is decided here after the factorization, by reading
 * back one PRED flag per matrix: a matrix is singular when its determinant is exactly zero —
 * the 2×2 / 3×3 closed form in F64 (exact for small integers, where LU in floating point would
 * leave a pivot of 1e-16), or an exactly zero pivot of {@code U} for larger matrices. Inside
 * {@code Jit.compile} nothing can be read while tracing: a singular input fails when the compiled
 * function runs, at the triangular solve's zero pivot.
 */
final class LinAlgSolve {
    private LinAlgSolve() {}

    private static final String SOLVE = LinalgOp.SOLVE.opName();
    private static final String INVERT = LinalgOp.INVERT.opName();
    private static final String DETERMINANT = LinalgOp.DETERMINANT.opName();
    private static final int CLOSED_FORM_MAX = 3;

    // ---- solve / invert -------------------------------------------------------------------------------

    static Tensor solve(Tensor a, Tensor b) {
        Tensor[] on = CommonEngine.of(SOLVE, a, b);
        a = on[0];
        b = on[1];
        Shape sa = a.shape();
        Shape sb = b.shape();
        if (sa.rank() < 2 || sa.dim(-2) != sa.dim(-1)) {
            throw new JBurnException(SOLVE, "`a` tensor has incompatible dimensions, expected a square matrix or a batch of square "
                    + "matrices, got: " + sa);
        }
        LinAlgOps.requireSolvableShapes(SOLVE, sa, sb, true, () -> {
            int[] batch = LinAlgOps.batchDims(sa);
            String vector = LinAlgOps.withBatch(batch, sa.dim(-1)).toString();
            String matrix = batch.length == 0 ? sa.toString()
                    : vector.substring(0, vector.length() - 1) + ", m]";
            return "`b` tensor has incompatible dimensions, expected " + matrix + " or " + vector + ", got: " + sb;
        });
        DType f = DType.merge(a.dtype(), b.dtype()).toFloating();
        try (Tensor af = a.asType(f); Tensor bf = b.asType(f)) {
            return solveFloating(SOLVE, "can't solve for singular matrix", af, bf);
        }
    }

    static Tensor invert(Tensor a) {
        Shape s = a.shape();
        if (s.rank() < 2 || s.dim(-2) != s.dim(-1)) {
            throw new JBurnException(INVERT, "invert/1 expects a square matrix or a batch of square matrices, got tensor with shape: " + s);
        }
        DType f = a.dtype().toFloating();
        try (Tensor af = a.asType(f);
             Tensor rows = LinAlgOps.iota(a, s, DType.S32, s.rank() - 2);
             Tensor cols = LinAlgOps.iota(a, s, DType.S32, s.rank() - 1);
             Tensor isDiagonal = rows.equal(cols);
             Tensor eye = isDiagonal.asType(f)) {
            return solveFloating(INVERT, "can't invert singular matrix", af, eye);
        }
    }

    /** {@code a·x = b} with both already in the floating type {@code f}: {@code l·u·x = pᵀ·b}. */
    private static Tensor solveFloating(String op, String singular, Tensor a, Tensor b) {
        int n = a.shape().dim(-1);
        boolean vector = b.rank() == a.rank() - 1;
        if (n == 0) return b.asType(b.dtype()); // nothing to solve; a new reference to the (empty) b
        if (n <= CLOSED_FORM_MAX) {
            try (Tensor det = closedFormDeterminant(a); Tensor zero = det.equal(0)) {
                requireNonSingular(op, singular, zero, a.shape());
            }
        }
        List<Tensor> plu = LinAlgOps.luFloating(a);
        try (Tensor p = plu.get(0); Tensor l = plu.get(1); Tensor u = plu.get(2)) {
            if (n > CLOSED_FORM_MAX) {
                try (Tensor d = LinAlgOps.diagonal(u); Tensor zeros = d.equal(0); Tensor zero = zeros.any(new int[] {-1})) {
                    requireNonSingular(op, singular, zero, a.shape());
                }
            }
            try (Tensor pb = permuteRows(p, b, vector);
                 Tensor y = backendSolve(op, l, pb, true)) {
                return backendSolve(op, u, y, false);
            }
        }
    }

    /** {@code pᵀ·b}: row {@code j} of the result is row {@code perm[j]} of {@code b}, where {@code p[perm[j]][j] = 1}. Exact, NaN-safe. */
    private static Tensor permuteRows(Tensor p, Tensor b, boolean vector) {
        try (Tensor perm = p.argmax(p.rank() - 2)) {
            if (vector) return b.takeAlongAxis(perm, -1);
            try (Tensor column = perm.newAxis(-1); Tensor idx = column.broadcast(b.shape())) {
                return b.takeAlongAxis(idx, -2);
            }
        }
    }

    private static Tensor backendSolve(String op, Tensor t, Tensor rhs, boolean lower) {
        try {
            Buffer out = t.backend().triangularSolve(t.operand(), rhs.operand(), lower, true, false);
            return Tensor.wrap(t.engine(), out, rhs.dtype(), rhs.shape());
        } catch (JBurnException e) {
            throw new JBurnException(op, e.reason(), e);
        }
    }

    /**
     * Throws when any flag of {@code singular} (PRED, one per matrix) is set, naming the first such
     * matrix. Inside {@code Jit.compile} the data is not known while tracing, so there is no check
     * here: a singular matrix fails when the compiled function runs, at the triangular solve's zero pivot.
     */
    private static void requireNonSingular(String op, String message, Tensor singular, Shape shape) {
        if (singular.engine().isTracing()) return;
        try (Tensor any = singular.any()) {
            if (any.item().longValue() == 0) return;
        }
        String where;
        if (singular.rank() == 0) {
            where = " (shape " + shape + ")";
        } else {
            try (Tensor flat = singular.reshape(-1); Tensor first = flat.argmax()) {
                where = " (matrix " + first.item() + " of the batch " + shape + ")";
            }
        }
        throw new JBurnException(op, message + ": its determinant is 0" + where);
    }

    // ---- determinant ----------------------------------------------------------------------------------

    static Tensor determinant(Tensor a) {
        Shape s = a.shape();
        if (s.rank() < 2 || s.dim(-2) != s.dim(-1)) {
            throw new JBurnException(DETERMINANT, "determinant/1 expects a square tensor, got tensor with shape: " + s);
        }
        DType f = a.dtype().toFloating();
        if (s.dim(-1) <= CLOSED_FORM_MAX) {
            try (Tensor det = closedFormDeterminant(a)) {
                return det.asType(f);
            }
        }
        List<Tensor> plu = LinAlgOps.luFloating(a);
        try (Tensor p = plu.get(0); Tensor l = plu.get(1); Tensor u = plu.get(2);
             Tensor d = LinAlgOps.diagonal(u);
             Tensor d64 = d.asType(DType.F64);
             Tensor prod = d64.product(new int[] {-1});
             Tensor sign = permutationSign(p);
             Tensor signed = prod.multiply(sign);
             Tensor zeros = d.equal(0);
             Tensor singular = zeros.any(new int[] {-1});
             Tensor det = singular.select(0.0, signed)) {
            return det.asType(f);
        }
    }

    /**
     * {@code det(p) = ±1} of permutation matrices {@code [..., n, n]}, as F64: the parity of the
     * number of inversions of {@code perm} ({@code perm[j]} = the row of the 1 in column {@code j}).
     */
    private static Tensor permutationSign(Tensor p) {
        int r = p.rank();
        try (Tensor perm = p.argmax(r - 2);
             Tensor left = perm.newAxis(-1);
             Tensor right = perm.newAxis(-2);
             Tensor inverted = left.greater(right);
             Tensor rows = LinAlgOps.iota(p, p.shape(), DType.S32, r - 2);
             Tensor cols = LinAlgOps.iota(p, p.shape(), DType.S32, r - 1);
             Tensor upper = rows.less(cols);
             Tensor counted = inverted.logicalAnd(upper);
             Tensor count = counted.asType(DType.S32);
             Tensor inversions = count.sum(new int[] {-2, -1});
             Tensor parity = inversions.remainder(2);
             Tensor twice = parity.multiply(-2);
             Tensor sign = twice.add(1)) {
            return sign.asType(DType.F64);
        }
    }

    /**
     * Determinants of matrices up to 3×3 in F64 (integer and F32 entries multiply exactly there):
     * {@code [...]}. An empty matrix has determinant 1.
     */
    private static Tensor closedFormDeterminant(Tensor a) {
        int n = a.shape().dim(-1);
        int[] batch = LinAlgOps.batchDims(a.shape());
        try (Tensor x = a.asType(DType.F64)) {
            return switch (n) {
                case 0 -> {
                    try (Tensor one = ShapeOps.scalarOn(a.engine(), DType.F64, 1.0)) {
                        yield one.broadcast(Shape.of(batch));
                    }
                }
                case 1 -> entry(x, batch, 0, 0);
                case 2 -> {
                    try (Tensor a00 = entry(x, batch, 0, 0); Tensor a01 = entry(x, batch, 0, 1);
                         Tensor a10 = entry(x, batch, 1, 0); Tensor a11 = entry(x, batch, 1, 1)) {
                        yield minor(a00, a11, a01, a10);
                    }
                }
                default -> {
                    Tensor[][] e = new Tensor[3][3];
                    try {
                        for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) e[i][j] = entry(x, batch, i, j);
                        try (Tensor m0 = minor(e[1][1], e[2][2], e[1][2], e[2][1]);
                             Tensor m1 = minor(e[1][0], e[2][2], e[1][2], e[2][0]);
                             Tensor m2 = minor(e[1][0], e[2][1], e[1][1], e[2][0]);
                             Tensor t0 = e[0][0].multiply(m0);
                             Tensor t1 = e[0][1].multiply(m1);
                             Tensor t2 = e[0][2].multiply(m2);
                             Tensor s01 = t0.subtract(t1)) {
                            yield s01.add(t2);
                        }
                    } finally {
                        for (Tensor[] row : e) for (Tensor t : row) if (t != null) t.close();
                    }
                }
            };
        }
    }

    /** {@code a·d - b·c}. */
    private static Tensor minor(Tensor a, Tensor d, Tensor b, Tensor c) {
        try (Tensor ad = a.multiply(d); Tensor bc = b.multiply(c)) {
            return ad.subtract(bc);
        }
    }

    /** Entry {@code (i, j)} of every matrix: {@code [...]}. */
    private static Tensor entry(Tensor x, int[] batch, int i, int j) {
        int r = x.rank();
        int[] starts = new int[r];
        starts[r - 2] = i;
        starts[r - 1] = j;
        int[] lengths = java.util.Arrays.copyOf(batch, r);
        lengths[r - 2] = 1;
        lengths[r - 1] = 1;
        try (Tensor block = x.slice(starts, lengths)) {
            return block.reshape(Shape.of(batch));
        }
    }
}
