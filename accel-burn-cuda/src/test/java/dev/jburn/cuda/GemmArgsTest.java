package dev.jburn.cuda;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The row-major → cuBLAS argument mapping, checked by running a plain column-major GEMM with the
 * mapped arguments (what cuBLAS would compute) against a row-major product.
 */
class GemmArgsTest {
    /** cuBLAS strided-batched semantics, column-major, on host arrays. */
    static void columnMajorGemm(GemmArgs g, double[] first, double[] second, double[] c) {
        for (int b = 0; b < g.batch(); b++) {
            for (int i = 0; i < g.m(); i++) {
                for (int j = 0; j < g.n(); j++) {
                    double s = 0;
                    for (int l = 0; l < g.k(); l++) {
                        double x = g.transFirst() == Cublas.OP_N ? first[(int) (b * g.strideFirst()) + i + l * g.ldFirst()]
                                : first[(int) (b * g.strideFirst()) + l + i * g.ldFirst()];
                        double y = g.transSecond() == Cublas.OP_N ? second[(int) (b * g.strideSecond()) + l + j * g.ldSecond()]
                                : second[(int) (b * g.strideSecond()) + j + l * g.ldSecond()];
                        s += x * y;
                    }
                    c[(int) (b * g.strideC()) + i + j * g.ldc()] = s;
                }
            }
        }
    }

    @Test
    void rowMajorProductsForEveryStorageOrder() {
        Random r = new Random(7);
        int batch = 3, m = 4, n = 5, k = 6;
        double[] a = new double[batch * m * k], b = new double[batch * k * n];
        for (int i = 0; i < a.length; i++) a[i] = r.nextInt(9) - 4;
        for (int i = 0; i < b.length; i++) b[i] = r.nextInt(9) - 4;
        double[] expected = new double[batch * m * n];
        for (int x = 0; x < batch; x++)
            for (int i = 0; i < m; i++)
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int l = 0; l < k; l++) s += a[x * m * k + i * k + l] * b[x * k * n + l * n + j];
                    expected[x * m * n + i * n + j] = s;
                }
        for (boolean aT : new boolean[] {false, true}) {
            for (boolean bT : new boolean[] {false, true}) {
                double[] as = aT ? transposeEach(a, batch, m, k) : a;
                double[] bs = bT ? transposeEach(b, batch, k, n) : b;
                GemmArgs g = GemmArgs.rowMajor(batch, m, n, k, aT, bT);
                double[] c = new double[batch * m * n];
                columnMajorGemm(g, bs, as, c);
                assertArrayEquals(expected, c, "aT=" + aT + " bT=" + bT + " " + g);
            }
        }
    }

    private static double[] transposeEach(double[] x, int batch, int rows, int cols) {
        double[] t = new double[x.length];
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++) t[b * rows * cols + j * rows + i] = x[b * rows * cols + i * cols + j];
        return t;
    }

    @Test
    void swapsMAndNAndRefusesSizesBeyondInt() {
        GemmArgs g = GemmArgs.rowMajor(1, 2, 3, 4, false, false);
        assertEquals(3, g.m());
        assertEquals(2, g.n());
        assertEquals(3, g.ldFirst());
        assertEquals(4, g.ldSecond());
        assertEquals(3, g.ldc());
        assertThrows(IllegalArgumentException.class, () -> GemmArgs.rowMajor(1, 1L << 31, 2, 2, false, false));
        assertThrows(IllegalArgumentException.class, () -> GemmArgs.rowMajor(1, 0, 2, 2, false, false));
    }
}
