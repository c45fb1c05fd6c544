package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The vector kernels (sequential and split over threads) against the scalar oracle, on random
 * data of awkward sizes and on every layout the fast path takes: everything, innermost run,
 * outer run, middle run, and a non-contiguous axis set (which falls back to the oracle).
 *
 * <p>Integer results and maxima/minima must match exactly. Float sums may differ in rounding:
 * the oracle adds in double, the vector path in F32 lanes (blocks then combined in double) or
 * F64 lanes in another order; the allowed gap is {@code 1e-5 * sqrt(n) * sum(|x|)} (plus the
 * result's own rounding), with {@code n} the number of summed elements.
 */
class ReductionVectorTest {
    private static final int[] SIZES = {1, 15, 16, 17, 1000, 1_000_000};
    private static final DType[] TYPES = {DType.F32, DType.F64, DType.S32, DType.S64};
    private static final Engine[] FAST = {ReductionEngines.VECTOR, ReductionEngines.PARALLEL};

    private static Tensor random(DType t, int n, long seed) {
        Random r = new Random(seed);
        Tensor x = switch (t) {
            case F32 -> {
                float[] v = new float[n];
                for (int i = 0; i < n; i++) v[i] = (float) (r.nextGaussian() * 100);
                yield Tensor.of(v);
            }
            case F64 -> Tensor.of(r.doubles(n).map(d -> (d - 0.5) * 200).toArray());
            case S32 -> {
                int[] v = r.ints(n, -1_000_000, 1_000_001).toArray();
                if (n > 2) v[n / 2] = Integer.MAX_VALUE; // forces wrapping sums
                yield Tensor.of(v);
            }
            case S64 -> Tensor.of(r.longs(n).toArray());
            default -> throw new IllegalArgumentException(t.toString());
        };
        return x;
    }

    private static void compare(String what, Tensor x, int[] axes) {
        long n = 1;
        for (int a : (axes == null ? x.shape().allAxes() : axes)) n *= x.shape().dim(a);
        Tensor onOracle = x.to(ReductionEngines.ORACLE);
        for (int op = 0; op < 3; op++) {
            Tensor want = reduce(op, onOracle, axes);
            double[] mass = op == 0 && x.dtype().isFloat() ? absoluteSums(x, axes, (int) want.size()) : null;
            for (Engine fast : FAST) {
                Tensor got = reduce(op, x.to(fast), axes);
                String msg = what + " op " + op + " on " + fast + " " + x.dtype() + x.shape();
                assertEquals(want.shape(), got.shape(), msg);
                assertEquals(want.dtype(), got.dtype(), msg);
                if (mass != null) {
                    double[] w = want.toDoubleArray(), g = got.toDoubleArray();
                    for (int i = 0; i < w.length; i++) {
                        double tol = 1e-5 * Math.sqrt(n) * mass[i] + Math.ulp((float) w[i]);
                        assertEquals(w[i], g[i], tol, msg + " at " + i);
                    }
                } else {
                    assertArrayEquals(want.toLongArray(), got.toLongArray(), msg);
                }
            }
        }
    }

    /** sum(|x|) per output element, on the host. */
    private static double[] absoluteSums(Tensor x, int[] axes, int outputs) {
        double[] v = x.toDoubleArray();
        int[] dims = x.shape().dims();
        boolean[] reduced = new boolean[dims.length];
        for (int a : (axes == null ? x.shape().allAxes() : axes)) reduced[a] = true;
        double[] mass = new double[outputs];
        int[] idx = new int[dims.length];
        for (double value : v) {
            long out = 0;
            for (int d = 0; d < dims.length; d++) if (!reduced[d]) out = out * dims[d] + idx[d];
            mass[(int) out] += Math.abs(value);
            for (int d = dims.length - 1; d >= 0 && ++idx[d] == dims[d]; d--) idx[d] = 0;
        }
        return mass;
    }

    private static Tensor reduce(int op, Tensor x, int[] axes) {
        return switch (op) {
            case 0 -> axes == null ? x.sum() : x.sum(axes);
            case 1 -> axes == null ? x.max() : x.max(axes);
            default -> axes == null ? x.min() : x.min(axes);
        };
    }

    @Test
    void fullReductionsOfEverySize() {
        for (DType t : TYPES) {
            for (int n : SIZES) compare("full", random(t, n, n), null);
        }
    }

    @Test
    void innerOuterAndMiddleRuns() {
        for (DType t : TYPES) {
            for (int n : SIZES) {
                for (int cols : new int[] {1, 3, 16, 17, 1000}) {
                    if ((n % cols != 0 && n > 17) || (n > 1000 && cols != 1000)) continue;
                    int rows = n / cols;
                    if (rows == 0) continue;
                    Tensor x = random(t, rows * cols, 31L * n + cols).reshape(rows, cols);
                    compare("inner", x, new int[] {1});
                    compare("outer", x, new int[] {0});
                }
            }
            Tensor cube = random(t, 6 * 70 * 33, 5).reshape(6, 70, 33);
            compare("middle", cube, new int[] {1});
            compare("last two", cube, new int[] {1, 2});
            compare("first two", cube, new int[] {0, 1});
            compare("non-contiguous", cube, new int[] {0, 2});
            compare("size-1 gap", random(t, 4 * 5, 9).reshape(4, 1, 5), new int[] {0, 2});
        }
    }

    @Test
    void nanAndInfinityInTheVectorBody() {
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            for (int at : new int[] {0, 5, 63, 64, 999}) {
                double[] v = new double[1000];
                for (int i = 0; i < v.length; i++) v[i] = i % 7 - 3;
                v[at] = Double.NaN;
                Tensor x = Tensor.fromArray(v, t);
                for (Engine e : ReductionEngines.ALL) {
                    assertTrue(Double.isNaN(x.to(e).max().toDoubleArray()[0]), t + " NaN at " + at + " on " + e);
                    assertTrue(Double.isNaN(x.to(e).min().toDoubleArray()[0]));
                    assertTrue(Double.isNaN(x.to(e).sum().toDoubleArray()[0]));
                    assertTrue(Double.isNaN(x.to(e).reshape(10, 100).max(new int[] {0}).toDoubleArray()[at % 100]));
                }
                v[at] = Double.NEGATIVE_INFINITY;
                assertEquals(Double.NEGATIVE_INFINITY, Tensor.fromArray(v, t).to(ReductionEngines.PARALLEL).min().toDoubleArray()[0]);
                assertEquals(3.0, Tensor.fromArray(v, t).to(ReductionEngines.PARALLEL).max().toDoubleArray()[0]);
            }
        }
    }

    @Test
    void tenMillionF32ElementsSumCorrectly() {
        int n = 10_000_000;
        float[] v = new float[n];
        Random r = new Random(11);
        double exact = 0;
        for (int i = 0; i < n; i++) {
            v[i] = r.nextFloat();
            exact += v[i];
        }
        Tensor x = Tensor.of(v);
        for (Engine e : ReductionEngines.ALL) {
            if (e == ReductionEngines.ORACLE_PARALLEL) continue;
            double got = (Double) x.to(e).sum().item();
            // far inside the documented bound: blocks of f32 lanes combined in double stay within 2 ulps
            assertEquals(exact, got, 2 * Math.ulp((float) exact), e.toString());
        }
    }
}
