package dev.jburn.cuda;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void splitKPartialsAddUpToTheProductForEveryStorageOrder() {
        Random r = new Random(11);
        int m = 5, n = 3, k = 12;
        double[] a = new double[m * k], b = new double[k * n];
        for (int i = 0; i < a.length; i++) a[i] = r.nextInt(9) - 4;
        for (int i = 0; i < b.length; i++) b[i] = r.nextInt(9) - 4;
        double[] expected = new double[m * n];
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                for (int l = 0; l < k; l++) expected[i * n + j] += a[i * k + l] * b[l * n + j];
        for (boolean aT : new boolean[] {false, true}) {
            for (boolean bT : new boolean[] {false, true}) {
                double[] as = aT ? transposeEach(a, 1, m, k) : a;
                double[] bs = bT ? transposeEach(b, 1, k, n) : b;
                for (int slices : new int[] {1, 2, 3, 4, 6, 12}) {
                    GemmArgs g = GemmArgs.splitK(m, n, k, aT, bT, slices);
                    assertEquals(slices, g.batch());
                    assertEquals(k / slices, g.k());
                    double[] partial = new double[slices * m * n], c = new double[m * n];
                    columnMajorGemm(g, bs, as, partial);
                    for (int s = 0; s < slices; s++) for (int i = 0; i < m * n; i++) c[i] += partial[s * m * n + i];
                    assertArrayEquals(expected, c, "aT=" + aT + " bT=" + bT + " slices=" + slices + " " + g);
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> GemmArgs.splitK(m, n, k, false, false, 5));
    }

    @Test
    void splitKSlicesOnlyWhereTheOutputHasFewTiles() {
        // the small CNN's dense layer on an H100 (132 multiprocessors): 8 tiles, k = 1600 -> 10 slices of 160 (a divisor)
        assertEquals(10, SplitK.slices(1024, 128, 1600, 132));
        // its input cotangent has 104 tiles but a short contraction; a large square GEMM has tiles enough
        assertEquals(1, SplitK.slices(1024, 1600, 128, 132));
        assertEquals(1, SplitK.slices(4096, 4096, 4096, 132));
        // a kernel cotangent's GEMM: one tile, a contraction of 123,904 -> the most slices
        assertEquals(SplitK.MAX_SLICES, SplitK.slices(288, 64, 123_904, 132));
        // a prime contraction has no divisor to split by
        assertEquals(1, SplitK.slices(64, 64, 1031, 132));
        for (long k : new long[] {256, 1000, 1600, 4096, 99_991, 692_224}) {
            int s = SplitK.slices(128, 32, k, 132);
            assertTrue(s >= 1 && s <= SplitK.MAX_SLICES && k % s == 0 && (s == 1 || k / s >= SplitK.MIN_SLICE), k + " -> " + s);
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
