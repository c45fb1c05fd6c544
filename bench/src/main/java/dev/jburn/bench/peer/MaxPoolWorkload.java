package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.pooling.Pool;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.function.UnaryOperator;

/**
 * ResNet's stem max-pool: 3×3 windows, stride 2, on f32 NCHW {@code [8,64,112,112]}, output {@code [8,64,56,56]}.
 * "Same" padding here is 1 on each side (padding with -inf) in every runtime: PyTorch can only pad symmetrically,
 * and it gives the same 56×56 output as XLA's "same" (which would pad 0 before, 1 after). Checks three outputs
 * exactly. numpy has no pooling: its side is {@code sliding_window_view} + {@code max}.
 */
public record MaxPoolWorkload() implements PeerWorkload {
    static final int N = 8, C = 64, H = 112, W = 112, OH = 56, OW = 56;
    /** {n, c, i, j} outputs to check: top-left corner (padding), bottom-right corner, interior. */
    private static final int[][] PROBES = {{0, 0, 0, 0}, {7, 63, 55, 55}, {3, 5, 20, 31}};

    @Override public String group() { return "pool"; }

    @Override public String name() { return "max-pool 3x3/2"; }

    @Override public String shape() { return "f32 [8,64,112,112], window 3x3, stride 2, pad 1"; }

    @Override public double flops() { return 0; }

    @Override
    public TimedCase<Tensor> jburn(Engine cpu) throws PeerUnavailable {
        dev.jburn.WindowOptions opts = dev.jburn.WindowOptions.defaults().withStrides(new int[] {1, 1, 2, 2})
                .withPadding(dev.jburn.Padding.explicit(new int[][] {{0, 0}, {0, 0}, {1, 1}, {1, 1}}));
        UnaryOperator<Tensor> pool = in -> in.windowMax(new int[] {1, 1, 3, 3}, opts);
        Tensor x;
        try (var scope = Tensor.scope()) { // frees the key
            x = scope.keep(Checks.onCpu(Prng.uniformSplit(Prng.key(3), Shape.of(N, C, H, W), DType.F32, -1, 1), cpu));
        }
        return TimedCase.of(() -> pool.apply(x),
                y -> Checks.first(Checks.shape(y.shape().dims(), N, C, OH, OW), check(x.toFloatArray(), y.toFloatArray())),
                Checks::close, x);
    }

    @Override
    public PythonCode numpy() {
        return PythonCode.of("""
                rng = np.random.default_rng(3)
                x = rng.uniform(-1, 1, (8, 64, 112, 112)).astype(np.float32)
                def maxpool(x):
                    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
                    return sliding_window_view(xp, (3, 3), axis=(2, 3))[:, :, ::2, ::2].max(axis=(4, 5))
                """, "maxpool(x)", PYTHON_CHECK);
    }

    @Override
    public PythonCode torch() {
        return PythonCode.of("""
                g = torch.Generator().manual_seed(3)
                x = torch.rand(8, 64, 112, 112, generator=g) * 2 - 1
                """, "F.max_pool2d(x, 3, 2, 1)", PYTHON_CHECK);
    }

    @Override
    public TimedCase<NDArray> djl(NDManager m) {
        NDArray x = m.randomUniform(-1, 1, new ai.djl.ndarray.types.Shape(N, C, H, W), DataType.FLOAT32);
        ai.djl.ndarray.types.Shape window = new ai.djl.ndarray.types.Shape(3, 3);
        ai.djl.ndarray.types.Shape stride = new ai.djl.ndarray.types.Shape(2, 2);
        ai.djl.ndarray.types.Shape pad = new ai.djl.ndarray.types.Shape(1, 1);
        return TimedCase.of(() -> Pool.maxPool2d(x, window, stride, pad, false),
                y -> Checks.first(Checks.shape(y.getShape().getShape(), N, C, OH, OW),
                        check(x.toFloatArray(), y.toFloatArray())),
                Checks::close, x);
    }

    private static final String PYTHON_CHECK = """
            Y = npy(r)
            if Y.shape != (8, 64, 56, 56):
                return "FAIL shape %s" % (Y.shape,)
            X = npy(x)
            res = []
            for n, c, i, j in ((0, 0, 0, 0), (7, 63, 55, 55), (3, 5, 20, 31)):
                want = X[n, c, max(0, 2 * i - 1):2 * i + 2, max(0, 2 * j - 1):2 * j + 2].max()
                res.append(close_to(Y[n, c, i, j], want, 0, 0, "y[%d,%d,%d,%d]" % (n, c, i, j)))
            return summarize(res)
            """;

    /** The probed outputs against the max of their (clipped) windows, exactly. */
    static String check(float[] x, float[] y) {
        String verdict = "ok";
        for (int[] p : PROBES) {
            int n = p[0], c = p[1], i = p[2], j = p[3];
            float want = Float.NEGATIVE_INFINITY;
            for (int h = Math.max(0, 2 * i - 1); h <= Math.min(H - 1, 2 * i + 1); h++) {
                for (int v = Math.max(0, 2 * j - 1); v <= Math.min(W - 1, 2 * j + 1); v++) {
                    want = Math.max(want, x[((n * C + c) * H + h) * W + v]);
                }
            }
            verdict = Checks.first(verdict, Checks.closeTo(y[((n * C + c) * OH + i) * OW + j], want, 0, 0,
                    "y[" + n + "," + c + "," + i + "," + j + "]"));
        }
        return verdict;
    }
}
