package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register tile of {@link WinogradKernelCotangentF32}'s products: 6 rows × {@link #VECTORS} vectors,
 * {@code acc[i][v] += a[aBase + i·aRow + p] · b[bBase + p·COLS + v·L]} for {@code p = 0 .. steps-1} in that order,
 * continued from and stored back to the {@code acc} rows ({@code accBase + i·accPitch}). With 512-bit vectors (32
 * registers) 4 vectors: 24 accumulators, 4 vector loads and 6 broadcasts per 24 fma (the kernel-gradient panel tile,
 * {@link ChannelsLastTile#panel12}, has 2 loads and 12 broadcasts per 24), 64 filters, a whole row of the ResNet-like
 * conv's transformed cotangent. With AVX2's 16 registers of 8 lanes, 2 vectors (12 accumulators, 2 loads, 6 broadcasts
 * per 12 fma: 15 registers; 24 accumulators would spill). The rows of {@code a} and the steps of {@code b} are unit and constant strides of the loop
 * counter, so C2 takes the range checks out of the loop. Heap arrays only (the callers' transformed operands are
 * per-thread arrays).
 */
final class WinogradGemmTile {
    private WinogradGemmTile() {}

    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /** Rows of a tile. */
    static final int ROWS = 6;
    /** Vectors a tile row: 4 on 32 registers (512-bit), 2 on AVX2's 16. */
    static final int VECTORS = L >= 16 ? 4 : 2;
    /** Columns of a tile. */
    static final int COLS = VECTORS * L;

    static void run(float[] a, int aBase, int aRow, float[] b, int bBase, int steps, float[] acc, int accBase, int accPitch) {
        if (VECTORS == 4) run4(a, aBase, aRow, b, bBase, steps, acc, accBase, accPitch);
        else run2(a, aBase, aRow, b, bBase, steps, acc, accBase, accPitch);
    }

    /** {@link #run} with two vectors a row (AVX2). */
    private static void run2(float[] a, int aBase, int aRow, float[] b, int bBase, int steps, float[] acc, int accBase, int accPitch) {
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        FloatVector c00 = FloatVector.fromArray(S, acc, p0), c01 = FloatVector.fromArray(S, acc, p0 + L);
        FloatVector c10 = FloatVector.fromArray(S, acc, p1), c11 = FloatVector.fromArray(S, acc, p1 + L);
        FloatVector c20 = FloatVector.fromArray(S, acc, p2), c21 = FloatVector.fromArray(S, acc, p2 + L);
        FloatVector c30 = FloatVector.fromArray(S, acc, p3), c31 = FloatVector.fromArray(S, acc, p3 + L);
        FloatVector c40 = FloatVector.fromArray(S, acc, p4), c41 = FloatVector.fromArray(S, acc, p4 + L);
        FloatVector c50 = FloatVector.fromArray(S, acc, p5), c51 = FloatVector.fromArray(S, acc, p5 + L);
        int a0 = aBase, a1 = a0 + aRow, a2 = a1 + aRow, a3 = a2 + aRow, a4 = a3 + aRow, a5 = a4 + aRow;
        for (int p = 0; p < steps; p++) {
            int bi = bBase + p * COLS;
            FloatVector w0 = FloatVector.fromArray(S, b, bi), w1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
            c00 = x.fma(w0, c00); c01 = x.fma(w1, c01);
            x = FloatVector.broadcast(S, a[a1 + p]);
            c10 = x.fma(w0, c10); c11 = x.fma(w1, c11);
            x = FloatVector.broadcast(S, a[a2 + p]);
            c20 = x.fma(w0, c20); c21 = x.fma(w1, c21);
            x = FloatVector.broadcast(S, a[a3 + p]);
            c30 = x.fma(w0, c30); c31 = x.fma(w1, c31);
            x = FloatVector.broadcast(S, a[a4 + p]);
            c40 = x.fma(w0, c40); c41 = x.fma(w1, c41);
            x = FloatVector.broadcast(S, a[a5 + p]);
            c50 = x.fma(w0, c50); c51 = x.fma(w1, c51);
        }
        c00.intoArray(acc, p0); c01.intoArray(acc, p0 + L);
        c10.intoArray(acc, p1); c11.intoArray(acc, p1 + L);
        c20.intoArray(acc, p2); c21.intoArray(acc, p2 + L);
        c30.intoArray(acc, p3); c31.intoArray(acc, p3 + L);
        c40.intoArray(acc, p4); c41.intoArray(acc, p4 + L);
        c50.intoArray(acc, p5); c51.intoArray(acc, p5 + L);
    }

    /** {@link #run} with four vectors a row (512-bit vectors). */
    private static void run4(float[] a, int aBase, int aRow, float[] b, int bBase, int steps, float[] acc, int accBase, int accPitch) {
        int p0 = accBase, p1 = p0 + accPitch, p2 = p1 + accPitch, p3 = p2 + accPitch, p4 = p3 + accPitch, p5 = p4 + accPitch;
        FloatVector c00 = FloatVector.fromArray(S, acc, p0), c01 = FloatVector.fromArray(S, acc, p0 + L);
        FloatVector c02 = FloatVector.fromArray(S, acc, p0 + 2 * L), c03 = FloatVector.fromArray(S, acc, p0 + 3 * L);
        FloatVector c10 = FloatVector.fromArray(S, acc, p1), c11 = FloatVector.fromArray(S, acc, p1 + L);
        FloatVector c12 = FloatVector.fromArray(S, acc, p1 + 2 * L), c13 = FloatVector.fromArray(S, acc, p1 + 3 * L);
        FloatVector c20 = FloatVector.fromArray(S, acc, p2), c21 = FloatVector.fromArray(S, acc, p2 + L);
        FloatVector c22 = FloatVector.fromArray(S, acc, p2 + 2 * L), c23 = FloatVector.fromArray(S, acc, p2 + 3 * L);
        FloatVector c30 = FloatVector.fromArray(S, acc, p3), c31 = FloatVector.fromArray(S, acc, p3 + L);
        FloatVector c32 = FloatVector.fromArray(S, acc, p3 + 2 * L), c33 = FloatVector.fromArray(S, acc, p3 + 3 * L);
        FloatVector c40 = FloatVector.fromArray(S, acc, p4), c41 = FloatVector.fromArray(S, acc, p4 + L);
        FloatVector c42 = FloatVector.fromArray(S, acc, p4 + 2 * L), c43 = FloatVector.fromArray(S, acc, p4 + 3 * L);
        FloatVector c50 = FloatVector.fromArray(S, acc, p5), c51 = FloatVector.fromArray(S, acc, p5 + L);
        FloatVector c52 = FloatVector.fromArray(S, acc, p5 + 2 * L), c53 = FloatVector.fromArray(S, acc, p5 + 3 * L);
        int a0 = aBase, a1 = a0 + aRow, a2 = a1 + aRow, a3 = a2 + aRow, a4 = a3 + aRow, a5 = a4 + aRow;
        for (int p = 0; p < steps; p++) {
            int bi = bBase + p * COLS;
            FloatVector w0 = FloatVector.fromArray(S, b, bi), w1 = FloatVector.fromArray(S, b, bi + L);
            FloatVector w2 = FloatVector.fromArray(S, b, bi + 2 * L), w3 = FloatVector.fromArray(S, b, bi + 3 * L);
            FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
            c00 = x.fma(w0, c00); c01 = x.fma(w1, c01); c02 = x.fma(w2, c02); c03 = x.fma(w3, c03);
            x = FloatVector.broadcast(S, a[a1 + p]);
            c10 = x.fma(w0, c10); c11 = x.fma(w1, c11); c12 = x.fma(w2, c12); c13 = x.fma(w3, c13);
            x = FloatVector.broadcast(S, a[a2 + p]);
            c20 = x.fma(w0, c20); c21 = x.fma(w1, c21); c22 = x.fma(w2, c22); c23 = x.fma(w3, c23);
            x = FloatVector.broadcast(S, a[a3 + p]);
            c30 = x.fma(w0, c30); c31 = x.fma(w1, c31); c32 = x.fma(w2, c32); c33 = x.fma(w3, c33);
            x = FloatVector.broadcast(S, a[a4 + p]);
            c40 = x.fma(w0, c40); c41 = x.fma(w1, c41); c42 = x.fma(w2, c42); c43 = x.fma(w3, c43);
            x = FloatVector.broadcast(S, a[a5 + p]);
            c50 = x.fma(w0, c50); c51 = x.fma(w1, c51); c52 = x.fma(w2, c52); c53 = x.fma(w3, c53);
        }
        c00.intoArray(acc, p0); c01.intoArray(acc, p0 + L); c02.intoArray(acc, p0 + 2 * L); c03.intoArray(acc, p0 + 3 * L);
        c10.intoArray(acc, p1); c11.intoArray(acc, p1 + L); c12.intoArray(acc, p1 + 2 * L); c13.intoArray(acc, p1 + 3 * L);
        c20.intoArray(acc, p2); c21.intoArray(acc, p2 + L); c22.intoArray(acc, p2 + 2 * L); c23.intoArray(acc, p2 + 3 * L);
        c30.intoArray(acc, p3); c31.intoArray(acc, p3 + L); c32.intoArray(acc, p3 + 2 * L); c33.intoArray(acc, p3 + 3 * L);
        c40.intoArray(acc, p4); c41.intoArray(acc, p4 + L); c42.intoArray(acc, p4 + 2 * L); c43.intoArray(acc, p4 + 3 * L);
        c50.intoArray(acc, p5); c51.intoArray(acc, p5 + L); c52.intoArray(acc, p5 + 2 * L); c53.intoArray(acc, p5 + 3 * L);
    }
}
