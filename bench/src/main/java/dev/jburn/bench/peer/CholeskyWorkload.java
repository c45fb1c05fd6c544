package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.function.UnaryOperator;

/**
 * Cholesky factor (lower) of an f32 SPD {@code n×n} matrix {@code A = (S + Sᵀ)/2}, {@code S = M·Mᵀ/n + I}, M uniform
 * in [-1, 1) (exactly symmetric, eigenvalues in about [1, 5]). Checks entries of {@code L·Lᵀ} against A and that
 * the upper triangle is 0. DJL has no Cholesky op.
 */
public record CholeskyWorkload(int n) implements PeerWorkload {
    @Override public String group() { return "cholesky"; }

    @Override public String name() { return "cholesky " + n; }

    @Override public String shape() { return "f32 [" + n + "," + n + "] SPD"; }

    @Override public double flops() { return n * (double) n * n / 3; }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) throws PeerUnavailable {
        UnaryOperator<Tensor> cholesky = dev.jburn.LinAlg::cholesky;
        Tensor a;
        try (var scope = Tensor.scope()) {
            Tensor m = Checks.onCpu(Prng.uniformSplit(Prng.key(4), Shape.of(n, n), DType.F32, -1, 1), cpu);
            Tensor s = m.dot(m.transpose()).divide(n).add(Tensor.eye(n, DType.F32).to(cpu));
            a = scope.keep(s.add(s.transpose()).divide(2));
        }
        return TimedCase.of(() -> cholesky.apply(a),
                l -> Checks.first(Checks.shape(l.shape().dims(), n, n), check(a.toFloatArray(), l.toFloatArray(), n)),
                Checks::close, a);
    }

    private String pythonSetup(String spd) {
        return "n = %d\n%s\n".formatted(n, spd);
    }

    @Override
    public PythonCode numpy() {
        return PythonCode.of(pythonSetup("""
                m = np.random.default_rng(4).uniform(-1, 1, (n, n)).astype(np.float32)
                s = m @ m.T / np.float32(n) + np.eye(n, dtype=np.float32)
                a = (s + s.T) / np.float32(2)
                """), "np.linalg.cholesky(a)", PYTHON_CHECK);
    }

    @Override
    public PythonCode torch() {
        return PythonCode.of(pythonSetup("""
                m = torch.rand(n, n, generator=torch.Generator().manual_seed(4)) * 2 - 1
                s = m @ m.T / n + torch.eye(n)
                a = (s + s.T) / 2
                """), "torch.linalg.cholesky(a)", PYTHON_CHECK);
    }

    @Override
    public TimedCase<NDArray> djl(NDManager m) throws PeerUnavailable {
        throw new PeerUnavailable("DJL's NDArray API has no Cholesky");
    }

    private static final String PYTHON_CHECK = """
            L = npy(r).astype(np.float64)
            A = npy(a)
            if L.shape != (n, n):
                return "FAIL shape %s" % (L.shape,)
            res = [close_to(L[0, n - 1], 0, 0, 0, "L[0,%d] (upper)" % (n - 1))]
            for i, j in ((0, 0), (n - 1, n - 1), (n - 1, 0), (n // 2, n // 3)):
                scale = np.sqrt(float(A[i, i]) * float(A[j, j]))
                res.append(close_to(L[i, :] @ L[j, :], A[i, j], scale, 2e-4, "(L·Lᵀ)[%d,%d]" % (i, j)))
            return summarize(res)
            """;

    /** Entries of {@code L·Lᵀ} against {@code A} (within 2e-4 of {@code sqrt(A_ii A_jj)}), and one upper entry = 0. */
    static String check(float[] a, float[] l, int n) {
        String verdict = Checks.closeTo(l[n - 1], 0, 0, 0, "L[0," + (n - 1) + "] (upper)");
        for (int[] p : new int[][] {{0, 0}, {n - 1, n - 1}, {n - 1, 0}, {n / 2, n / 3}}) { // as in PYTHON_CHECK
            int i = p[0], j = p[1];
            double got = 0;
            for (int k = 0; k < n; k++) got += (double) l[i * n + k] * l[j * n + k];
            double scale = Math.sqrt((double) a[i * n + i] * a[j * n + j]);
            verdict = Checks.first(verdict, Checks.closeTo(got, a[i * n + j], scale, 2e-4, "(L·Lᵀ)[" + i + "," + j + "]"));
        }
        return verdict;
    }
}
