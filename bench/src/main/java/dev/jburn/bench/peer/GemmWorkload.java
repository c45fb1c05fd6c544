package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/** f32 matrix product {@code [n,n]·[n,n]}, inputs uniform in [-1, 1); checks three entries against an f64 dot. */
public record GemmWorkload(int n) implements PeerWorkload {
    @Override public String group() { return "gemm"; }

    @Override public String name() { return "gemm " + n; }

    @Override public String shape() { return "f32 [" + n + "," + n + "]·[" + n + "," + n + "]"; }

    @Override public double flops() { return 2.0 * n * n * n; }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) {
        Tensor a, b;
        try (var scope = Tensor.scope()) { // frees the keys
            Tensor key = Prng.key(1);
            a = scope.keep(Checks.onCpu(Prng.uniformSplit(key, Shape.of(n, n), DType.F32, -1, 1), cpu));
            b = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(n, n), DType.F32, -1, 1), cpu));
        }
        return TimedCase.of(() -> a.dot(b),
                c -> Checks.first(Checks.shape(c.shape().dims(), n, n),
                        check(a.toFloatArray(), b.toFloatArray(), c.toFloatArray(), n)),
                Checks::close, a, b);
    }

    @Override
    public PythonCode numpy() {
        return PythonCode.of("""
                n = %d
                rng = np.random.default_rng(1)
                a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
                b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
                """.formatted(n), "a @ b", PYTHON_CHECK);
    }

    @Override
    public PythonCode torch() {
        return PythonCode.of("""
                n = %d
                g = torch.Generator().manual_seed(1)
                a = torch.rand(n, n, generator=g) * 2 - 1
                b = torch.rand(n, n, generator=g) * 2 - 1
                """.formatted(n), "torch.mm(a, b)", PYTHON_CHECK);
    }

    @Override
    public TimedCase<NDArray> djl(NDManager m) {
        NDArray a = m.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(n, n), DataType.FLOAT32);
        NDArray b = m.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(n, n), DataType.FLOAT32);
        return TimedCase.of(() -> a.matMul(b),
                c -> Checks.first(Checks.shape(c.getShape().getShape(), n, n),
                        check(a.toFloatArray(), b.toFloatArray(), c.toFloatArray(), n)),
                Checks::close, a, b);
    }

    private static final String PYTHON_CHECK = """
            C = npy(r)
            if C.shape != (n, n):
                return "FAIL shape %s" % (C.shape,)
            res = []
            for i, j in ((0, 0), (n - 1, n - 1), (n // 2, n // 3)):
                ai = npy(a)[i, :].astype(np.float64)
                bj = npy(b)[:, j].astype(np.float64)
                res.append(close_to(C[i, j], ai @ bj, np.abs(ai) @ np.abs(bj), 1e-4, "C[%d,%d]" % (i, j)))
            return summarize(res)
            """;

    /** Three entries of {@code c = a·b} (row-major {@code n×n}) against f64 dots, within 1e-4 of {@code Σ|a||b|}. */
    static String check(float[] a, float[] b, float[] c, int n) {
        String verdict = "ok";
        for (int[] p : new int[][] {{0, 0}, {n - 1, n - 1}, {n / 2, n / 3}}) { // the same entries as PYTHON_CHECK
            int i = p[0], j = p[1];
            double want = 0, scale = 0;
            for (int k = 0; k < n; k++) {
                double t = (double) a[i * n + k] * b[k * n + j];
                want += t;
                scale += Math.abs(t);
            }
            verdict = Checks.first(verdict, Checks.closeTo(c[i * n + j], want, scale, 1e-4, "C[" + i + "," + j + "]"));
        }
        return verdict;
    }
}
