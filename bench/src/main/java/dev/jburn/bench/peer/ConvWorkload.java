package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.function.UnaryOperator;

/**
 * A ResNet-like 3×3 convolution: input f32 NCHW {@code [8,64,56,56]}, kernel OIHW {@code [64,64,3,3]}, stride 1,
 * same padding (1 on each side), no bias; output {@code [8,64,56,56]}. Checks three outputs (one on the border)
 * against f64 sums. numpy has no convolution: its side is the usual im2col ({@code sliding_window_view}) + one sgemm
 * ({@code tensordot}).
 */
public record ConvWorkload() implements PeerWorkload {
    static final int N = 8, C = 64, H = 56, W = 56, O = 64, K = 3;
    /** {n, o, i, j} outputs to check: interior, right border, bottom-left corner area. */
    private static final int[][] PROBES = {{0, 0, 10, 10}, {7, 63, 0, 55}, {3, 17, 55, 0}};

    @Override public String group() { return "conv"; }

    @Override public String name() { return "conv 3x3"; }

    @Override public String shape() { return "f32 [8,64,56,56] * [64,64,3,3], stride 1, pad 1"; }

    @Override public double flops() { return 2.0 * N * O * H * W * C * K * K; }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) throws PeerUnavailable {
        Tensor x, w;
        try (var scope = Tensor.scope()) { // frees the keys
            Tensor key = Prng.key(2);
            x = scope.keep(Checks.onCpu(Prng.uniformSplit(key, Shape.of(N, C, H, W), DType.F32, -1, 1), cpu));
            w = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(O, C, K, K), DType.F32, -1, 1), cpu));
        }
        dev.jburn.ConvOptions same = dev.jburn.ConvOptions.defaults().withPadding(dev.jburn.Padding.SAME);
        UnaryOperator<Tensor> conv = in -> in.conv(w, same);
        return TimedCase.of(() -> conv.apply(x),
                y -> Checks.first(Checks.shape(y.shape().dims(), N, O, H, W),
                        check(x.toFloatArray(), w.toFloatArray(), y.toFloatArray())),
                Checks::close, x, w);
    }

    @Override
    public PythonCode numpy() {
        return PythonCode.of("""
                rng = np.random.default_rng(2)
                x = rng.uniform(-1, 1, (8, 64, 56, 56)).astype(np.float32)
                w = rng.uniform(-1, 1, (64, 64, 3, 3)).astype(np.float32)
                def conv2d(x, w):
                    cols = sliding_window_view(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), axis=(2, 3))
                    y = np.tensordot(cols, w, axes=([1, 4, 5], [1, 2, 3]))  # im2col copy + one sgemm: N, H, W, O
                    return np.ascontiguousarray(y.transpose(0, 3, 1, 2))
                """, "conv2d(x, w)", PYTHON_CHECK);
    }

    @Override
    public PythonCode torch() {
        return PythonCode.of("""
                g = torch.Generator().manual_seed(2)
                x = torch.rand(8, 64, 56, 56, generator=g) * 2 - 1
                w = torch.rand(64, 64, 3, 3, generator=g) * 2 - 1
                """, "F.conv2d(x, w, padding=1)", PYTHON_CHECK);
    }

    @Override
    public TimedCase<NDArray> djl(NDManager m) {
        NDArray x = m.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(N, C, H, W), DataType.FLOAT32);
        NDArray w = m.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(O, C, K, K), DataType.FLOAT32);
        ai.djl.ndarray.types.Shape one = new ai.djl.ndarray.types.Shape(1, 1);
        // Convolution.convolution(...) is package-private in DJL; this is the call it makes.
        return TimedCase.of(() -> x.getNDArrayInternal().convolution(x, w, null, one, one, one, 1).singletonOrThrow(),
                y -> Checks.first(Checks.shape(y.getShape().getShape(), N, O, H, W),
                        check(x.toFloatArray(), w.toFloatArray(), y.toFloatArray())),
                Checks::close, x, w);
    }

    private static final String PYTHON_CHECK = """
            Y = npy(r)
            if Y.shape != (8, 64, 56, 56):
                return "FAIL shape %s" % (Y.shape,)
            X = npy(x)
            Wt = npy(w).astype(np.float64)
            res = []
            for n, o, i, j in ((0, 0, 10, 10), (7, 63, 0, 55), (3, 17, 55, 0)):
                patch = np.pad(X[n].astype(np.float64), ((0, 0), (1, 1), (1, 1)))[:, i:i + 3, j:j + 3]
                terms = patch * Wt[o]
                res.append(close_to(Y[n, o, i, j], terms.sum(), np.abs(terms).sum(), 1e-4, "y[%d,%d,%d,%d]" % (n, o, i, j)))
            return summarize(res)
            """;

    /** The probed outputs of {@code y = conv(x, w)} (NCHW, OIHW, pad 1) against f64 sums. */
    static String check(float[] x, float[] w, float[] y) {
        String verdict = "ok";
        for (int[] p : PROBES) {
            int n = p[0], o = p[1], i = p[2], j = p[3];
            double want = 0, scale = 0;
            for (int c = 0; c < C; c++) {
                for (int kh = 0; kh < K; kh++) {
                    for (int kw = 0; kw < K; kw++) {
                        int h = i + kh - 1, v = j + kw - 1;
                        if (h < 0 || h >= H || v < 0 || v >= W) continue;
                        double t = (double) x[((n * C + c) * H + h) * W + v] * w[((o * C + c) * K + kh) * K + kw];
                        want += t;
                        scale += Math.abs(t);
                    }
                }
            }
            verdict = Checks.first(verdict, Checks.closeTo(y[((n * O + o) * H + i) * W + j], want, scale, 1e-4,
                    "y[" + n + "," + o + "," + i + "," + j + "]"));
        }
        return verdict;
    }
}
