package dev.jburn;

/**
 * Linear algebra as Nx's {@code Nx.LinAlg}: factorizations, solvers and norms of matrices,
 * batched over leading axes (a {@code [3, 4, 4]} tensor is three 4×4 matrices). Results are in
 * the input's floating type ({@link DType#toFloating()}: integers give F32); the reference engine
 * computes every float type in double and rounds once on output.
 *
 * <pre>{@code
 * Tensor a = Tensor.of(new double[][] {{4, 2}, {2, 3}});
 * Tensor l = LinAlg.cholesky(a);                         // a = l·lᵀ
 * Tensor x = LinAlg.solve(a, Tensor.of(2.0, 1.0));       // a·x = b
 * try (LinAlg.SVD svd = LinAlg.svd(a)) { svd.s(); }      // singular values, descending
 * }</pre>
 *
 * <h2>Singular matrices</h2>
 * {@link #solve} and {@link #invert} throw a {@link JBurnException} for a singular matrix: one
 * whose determinant is exactly zero, computed in closed form in double precision for matrices up
 * to 3×3 (exact for small integer entries) and from the LU factorization for larger ones (an
 * exactly zero pivot). Nearly singular matrices are solved and may give very large values, as in
 * LAPACK and NumPy. This deviates from Nx, whose {@code invert} returns all NaN for a singular
 * matrix. {@link #determinant} of a singular matrix is 0. {@link #triangularSolve} throws when
 * the triangular matrix has an exact zero on its diagonal (Nx: "can't solve for singular matrix").
 * {@link #cholesky} of a matrix that is not positive definite gives NaN, without an error.
 */
public final class LinAlg {
    private LinAlg() {}

    // ==== results ==================================================================================

    /**
     * {@code a = p·l·u}: {@code p} a permutation matrix in the input's dtype (S32 for S32 input, as
     * Nx), {@code l} unit lower triangular, {@code u} upper triangular, both floating. Closing it
     * closes all three.
     */
    public record LU(Tensor p, Tensor l, Tensor u) implements AutoCloseable {
        @Override public void close() {
            p.close();
            l.close();
            u.close();
        }
    }

    /** {@code a = q·r}: {@code q} with orthonormal columns, {@code r} upper triangular. Closing it closes both. */
    public record QR(Tensor q, Tensor r) implements AutoCloseable {
        @Override public void close() {
            q.close();
            r.close();
        }
    }

    /**
     * {@code a·v = v·diag(w)}: eigenvalues {@code w [..., n]} sorted by descending absolute value
     * (Nx's order; equal magnitudes put the positive value first), eigenvectors as the columns of
     * {@code v [..., n, n]}, each with its largest-magnitude component positive. Closing it closes both.
     */
    public record Eigh(Tensor eigenvalues, Tensor eigenvectors) implements AutoCloseable {
        @Override public void close() {
            eigenvalues.close();
            eigenvectors.close();
        }
    }

    /**
     * {@code a = u·diag(s)·vt}: singular values {@code s [..., k]} descending and non-negative
     * ({@code k = min(m, n)}), {@code u} and {@code vt} with orthonormal columns and rows. Closing it closes all three.
     */
    public record SVD(Tensor u, Tensor s, Tensor vt) implements AutoCloseable {
        @Override public void close() {
            u.close();
            s.close();
            vt.close();
        }
    }

    /**
     * Which norm {@link #norm(Tensor, Ord)} computes. For vectors: {@link #DEFAULT} (Euclidean),
     * {@link #INF} (max abs), {@link #NEG_INF} (min abs), {@code p(0)} (number of non-zeros), any
     * other {@code p(x)} ({@code (Σ|v|^x)^(1/x)}). For matrices: {@link #DEFAULT} and
     * {@link #FROBENIUS} (Frobenius), {@link #NUCLEAR} (sum of singular values), {@code p(1)} /
     * {@code p(-1)} (max / min column abs-sum), {@link #INF} / {@link #NEG_INF} (max / min row
     * abs-sum), {@code p(2)} / {@code p(-2)} (largest / smallest singular value).
     *
     * @param kind which family
     * @param p    the exponent of a {@link Kind#P} norm; NaN for the other kinds
     */
    public record Ord(Kind kind, double p) {
        /** Norm families. */
        public enum Kind { DEFAULT, P, FROBENIUS, NUCLEAR, INF, NEG_INF }

        /** Euclidean for vectors, Frobenius for matrices. */
        public static final Ord DEFAULT = new Ord(Kind.DEFAULT, Double.NaN);
        public static final Ord FROBENIUS = new Ord(Kind.FROBENIUS, Double.NaN);
        public static final Ord NUCLEAR = new Ord(Kind.NUCLEAR, Double.NaN);
        public static final Ord INF = new Ord(Kind.INF, Double.NaN);
        public static final Ord NEG_INF = new Ord(Kind.NEG_INF, Double.NaN);

        public Ord {
            if (kind == null) throw new JBurnException("norm", "ord kind must not be null");
            if (kind == Kind.P && !Double.isFinite(p)) throw new JBurnException("norm", "ord p must be a finite number, got " + p);
            if (kind != Kind.P) p = Double.NaN;
        }

        /** The {@code p}-norm; {@code ±Infinity} give {@link #INF} / {@link #NEG_INF}. */
        public static Ord p(double p) {
            if (p == Double.POSITIVE_INFINITY) return INF;
            if (p == Double.NEGATIVE_INFINITY) return NEG_INF;
            return new Ord(Kind.P, p);
        }

        @Override public String toString() {
            return kind == Kind.P ? (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p))
                    : kind.name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    // ==== factorizations ===========================================================================

    /**
     * The lower Cholesky factor {@code L} of symmetric positive-definite matrices, {@code a = L·Lᵀ};
     * only the lower triangle of {@code a} is read. Not positive definite: NaN where a pivot fails.
     *
     * <pre>{@code LinAlg.cholesky(Tensor.of(new float[][] {{20, 17.6f}, {17.6f, 16}}));   // [[4.472136, 0], [3.9354796, 0.71554184]]}</pre>
     */
    public static Tensor cholesky(Tensor a) { Args.nonNull("cholesky", "a", a); return LinAlgOps.cholesky(a); }

    /**
     * Solves {@code a·x = b} for a lower-triangular {@code a}; see {@link #triangularSolve(Tensor, Tensor, boolean, boolean, boolean)}.
     *
     * <pre>{@code LinAlg.triangularSolve(Tensor.of(new double[][] {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}}), Tensor.of(1.0, 2, 1));   // [1, 1, -1]}</pre>
     */
    public static Tensor triangularSolve(Tensor a, Tensor b) { Args.nonNull("triangularSolve", "a", a, "b", b); return LinAlgOps.triangularSolve(a, b, true, true, false); }

    /**
     * Solves {@code op(a)·x = b} ({@code leftSide}) or {@code x·op(a) = b}, where {@code op(a)} is
     * {@code aᵀ} when {@code transposeA}; {@code a} is lower (or upper) triangular and only that
     * triangle is read. {@code a} is {@code [..., n, n]}; {@code b} is {@code [..., n]} (a batch of
     * vectors), or {@code [..., n, m]} (left side) / {@code [..., m, n]} (right side) with the same
     * batch axes. The result has {@code b}'s shape. An exact zero on the diagonal throws.
     */
    public static Tensor triangularSolve(Tensor a, Tensor b, boolean lower, boolean leftSide, boolean transposeA) {
        Args.nonNull("triangularSolve", "a", a, "b", b);
        return LinAlgOps.triangularSolve(a, b, lower, leftSide, transposeA);
    }

    /**
     * LU factorization with partial pivoting (the pivot is the first largest magnitude in the
     * column, as LAPACK), {@code a = p·l·u}, for square matrices.
     *
     * <pre>{@code
     * try (LinAlg.LU f = LinAlg.lu(Tensor.of(new int[][] {{1, 0, 1}, {-1, 0, -1}, {1, 1, 1}}))) {
     *     f.p();   // s32 [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
     *     f.u();   // f32 [[1, 0, 1], [0, 1, 0], [0, 0, 0]]
     * }
     * }</pre>
     */
    public static LU lu(Tensor a) { Args.nonNull("lu", "a", a); return LinAlgOps.lu(a); }

    /** Reduced QR: {@code q [..., m, k]}, {@code r [..., k, n]}, {@code k = min(m, n)}. See {@link #qr(Tensor, boolean)}. */
    public static QR qr(Tensor a) { Args.nonNull("qr", "a", a); return LinAlgOps.qr(a, false); }

    /**
     * QR factorization by Householder reflections: {@code complete} gives {@code q [..., m, m]},
     * {@code r [..., m, n]}; reduced gives {@code q [..., m, k]}, {@code r [..., k, n]}. No sign
     * normalisation, as Nx: an upper-triangular {@code a} gives {@code q = I, r = a}.
     *
     * <pre>{@code
     * try (LinAlg.QR f = LinAlg.qr(Tensor.of(new double[][] {{-3, 2, 1}, {0, 1, 1}, {0, 0, -1}}))) {
     *     f.q();   // identity
     *     f.r();   // [[-3, 2, 1], [0, 1, 1], [0, 0, -1]]
     * }
     * }</pre>
     */
    public static QR qr(Tensor a, boolean complete) { Args.nonNull("qr", "a", a); return LinAlgOps.qr(a, complete); }

    /**
     * Eigenvalues and eigenvectors of symmetric matrices (only the lower triangle is read), by
     * Jacobi rotations. Sorted by descending absolute value, as Nx.
     *
     * <pre>{@code
     * try (LinAlg.Eigh e = LinAlg.eigh(Tensor.of(new double[][] {{0, 1, 2}, {1, 0, 2}, {2, 2, 3}}))) {
     *     e.eigenvalues();   // [5, -1, -1]
     * }
     * }</pre>
     */
    public static Eigh eigh(Tensor a) { Args.nonNull("eigh", "a", a); return LinAlgOps.eigh(a); }

    /** Full SVD: {@code u [..., m, m]}, {@code s [..., k]}, {@code vt [..., n, n]}. See {@link #svd(Tensor, boolean)}. */
    public static SVD svd(Tensor a) { Args.nonNull("svd", "a", a); return LinAlgOps.svd(a, true); }

    /**
     * Singular value decomposition by one-sided Jacobi rotations. {@code fullMatrices} gives
     * {@code u [..., m, m]} and {@code vt [..., n, n]}, otherwise {@code u [..., m, k]} and
     * {@code vt [..., k, n]}; {@code s [..., k]} is descending. No sign normalisation, as Nx.
     *
     * <pre>{@code
     * try (LinAlg.SVD f = LinAlg.svd(Tensor.of(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}))) {
     *     f.u();    // diag(1, 1, -1)
     *     f.s();    // [1, 1, 1]
     *     f.vt();   // identity
     * }
     * }</pre>
     */
    public static SVD svd(Tensor a, boolean fullMatrices) { Args.nonNull("svd", "a", a); return LinAlgOps.svd(a, fullMatrices); }

    // ==== solvers ==================================================================================

    /**
     * Solves {@code a·x = b} by LU with partial pivoting; {@code a} is {@code [..., n, n]},
     * {@code b} is {@code [..., n]} or {@code [..., n, m]} with the same batch axes; the result has
     * {@code b}'s shape and the floating type of both. A singular {@code a} throws (see the class notes).
     *
     * <pre>{@code LinAlg.solve(Tensor.of(new double[][] {{1, 0, 1}, {1, 1, 0}, {1, 1, 1}}), Tensor.of(0.0, 2, 1));   // [1, 1, -1]}</pre>
     */
    public static Tensor solve(Tensor a, Tensor b) { Args.nonNull("solve", "a", a, "b", b); return LinAlgSolve.solve(a, b); }

    /**
     * The inverse of square matrices. A singular matrix throws a {@link JBurnException} (Nx returns
     * all NaN instead).
     *
     * <pre>{@code LinAlg.invert(Tensor.of(new double[][] {{1, 2}, {0, 1}}));   // [[1, -2], [0, 1]]}</pre>
     */
    public static Tensor invert(Tensor a) { Args.nonNull("invert", "a", a); return LinAlgSolve.invert(a); }

    /**
     * Determinants of square matrices, shape {@code [...]}: closed forms for 2×2 and 3×3 (computed in
     * double, as Nx's formulas), the LU diagonal with the permutation's sign for larger matrices. A
     * singular matrix gives 0.
     *
     * <pre>{@code LinAlg.determinant(Tensor.of(new int[][] {{1, 2}, {3, 4}}));   // f32 -2.0}</pre>
     */
    public static Tensor determinant(Tensor a) { Args.nonNull("determinant", "a", a); return LinAlgSolve.determinant(a); }

    // ==== norms ====================================================================================

    /**
     * The Euclidean norm of a vector or the Frobenius norm of a matrix.
     *
     * <pre>{@code LinAlg.norm(Tensor.of(3, 4));   // f32 5.0}</pre>
     */
    public static Tensor norm(Tensor t) { Args.nonNull("norm", "t", t); return MatrixNorms.norm(t, Ord.DEFAULT, null, false); }

    /**
     * The {@code ord} norm (see {@link Ord}) of a vector (rank 1) or a matrix (rank 2).
     *
     * <pre>{@code
     * LinAlg.norm(Tensor.of(3, -4, 0, 0), LinAlg.Ord.p(0));                         // 2.0
     * LinAlg.norm(Tensor.of(new int[][] {{3, -2}, {2, -4}}), LinAlg.Ord.p(1));      // 6.0
     * }</pre>
     */
    public static Tensor norm(Tensor t, Ord ord) { Args.nonNull("norm", "t", t, "ord", ord); return MatrixNorms.norm(t, ord, null, false); }

    /**
     * The {@code ord} norm over {@code axes} of a tensor of any rank: one axis gives vector norms
     * along it, two axes {@code [rows, cols]} give matrix norms of those planes (as NumPy's
     * {@code norm} with {@code axis}); {@code keepAxes} keeps the reduced axes with size 1.
     *
     * <pre>{@code LinAlg.norm(Tensor.of(new int[][] {{3, 4}, {0, -4}}), LinAlg.Ord.DEFAULT, new int[] {1}, false);   // [5.0, 4.0]}</pre>
     */
    public static Tensor norm(Tensor t, Ord ord, int[] axes, boolean keepAxes) { Args.nonNull("norm", "t", t, "ord", ord); return MatrixNorms.norm(t, ord, axes, keepAxes); }
}
