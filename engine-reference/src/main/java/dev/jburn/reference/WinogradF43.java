package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The transforms of Winograd F(4×4, 3×3), whatever the layout: {@code Bᵀ d B} of a 6×6 input patch, {@code Aᵀ m A} of
 * the 6×6 point sums, {@code G g Gᵀ} of a 3×3 kernel (in double). The vector forms work on {@code L} independent
 * patches a vector, read and written at given strides, so the channels-last form ({@link ChannelsLastWinograd4x4F32}: a
 * channel a lane) and the NCHW one ({@link WinogradConvF32}: a tile a lane, the input rows split by column
 * phase) share them. Points are numbered {@code 6·j + k}: row {@code j} of the transform over the patch rows, column
 * {@code k} over its columns.
 */
final class WinogradF43 {
    private WinogradF43() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    static final int POINTS = 36;

    /**
     * {@code Bᵀ d B} of the 6×6 patches {@code d} at {@code a[p]} (rows {@code rowPitch}, columns {@code colPitch} floats
     * apart; {@code L} patches a vector) into {@code a[v + point·pointStride]}: {@code Bᵀ} over each patch row into
     * {@code a[tmp ..]} ({@code [row][k]}, 36 vectors), then over each of its columns.
     */
    static void transformInput(float[] a, int p, int rowPitch, int colPitch, int v, int pointStride, int tmp) {
        for (int r = 0; r < 6; r++) inputRow(a, p + r * rowPitch, colPitch, a, tmp + 6 * r * L, L, 1f);
        for (int kk = 0; kk < 6; kk++) inputRow(a, tmp + kk * L, 6 * L, a, v + kk * pointStride, 6 * pointStride, 1f);
    }

    /**
     * {@code scale · Bᵀ (x₀ .. x₅)} of F(4, 3), {@code xᵢ} at {@code a[in + i·inStride]}, into {@code out[to + j·toStride]}.
     * {@code scale} is 1, or 4 where the other patch rows (columns) are padding (a power of two: exact).
     */
    static void inputRow(float[] a, int in, int inStride, float[] out, int to, int toStride, float scale) {
        FloatVector x0 = FloatVector.fromArray(S, a, in), x1 = FloatVector.fromArray(S, a, in + inStride);
        FloatVector x2 = FloatVector.fromArray(S, a, in + 2 * inStride), x3 = FloatVector.fromArray(S, a, in + 3 * inStride);
        FloatVector x4 = FloatVector.fromArray(S, a, in + 4 * inStride), x5 = FloatVector.fromArray(S, a, in + 5 * inStride);
        if (scale != 1f) {
            x0 = x0.mul(scale); x1 = x1.mul(scale); x2 = x2.mul(scale); x3 = x3.mul(scale); x4 = x4.mul(scale); x5 = x5.mul(scale);
        }
        FloatVector four = FloatVector.broadcast(S, 4f), two = FloatVector.broadcast(S, 2f);
        // Bᵀ rows: (4 0 -5 0 1 0), (0 -4 -4 1 1 0), (0 4 -4 -1 1 0), (0 -2 -1 2 1 0), (0 2 -1 -2 1 0), (0 4 0 -5 0 1)
        x0.fma(four, x4).sub(x2.mul(5f)).intoArray(out, to);
        FloatVector s12 = x1.add(x2), d12 = x1.sub(x2), d31 = x3.sub(x1), d42 = x4.sub(x2);
        s12.fma(four.neg(), x3.add(x4)).intoArray(out, to + toStride);
        d12.fma(four, x4.sub(x3)).intoArray(out, to + 2 * toStride);
        d31.fma(two, d42).intoArray(out, to + 3 * toStride);
        d31.fma(two.neg(), d42).intoArray(out, to + 4 * toStride);
        x1.fma(four, x5).sub(x3.mul(5f)).intoArray(out, to + 5 * toStride);
    }

    /** {@code Aᵀ (m₀ .. m₅)} of F(4, 3) ({@code a[in + j·inStride]}) into {@code a[to + i·toStride]}, i = 0..3. */
    static void outputColumn(float[] a, int in, int inStride, int to, int toStride) {
        FloatVector m0 = FloatVector.fromArray(S, a, in), m1 = FloatVector.fromArray(S, a, in + inStride);
        FloatVector m2 = FloatVector.fromArray(S, a, in + 2 * inStride), m3 = FloatVector.fromArray(S, a, in + 3 * inStride);
        FloatVector m4 = FloatVector.fromArray(S, a, in + 4 * inStride), m5 = FloatVector.fromArray(S, a, in + 5 * inStride);
        FloatVector two = FloatVector.broadcast(S, 2f), four = FloatVector.broadcast(S, 4f), eight = FloatVector.broadcast(S, 8f);
        // Aᵀ rows: (1 1 1 1 1 0), (0 1 -1 2 -2 0), (0 1 1 4 4 0), (0 1 -1 8 -8 1)
        FloatVector s12 = m1.add(m2), d12 = m1.sub(m2), s34 = m3.add(m4), d34 = m3.sub(m4);
        m0.add(s12).add(s34).intoArray(a, to);
        d34.fma(two, d12).intoArray(a, to + toStride);
        s34.fma(four, s12).intoArray(a, to + 2 * toStride);
        d34.fma(eight, d12).add(m5).intoArray(a, to + 3 * toStride);
    }

    /**
     * {@code U = G g Gᵀ} of the 3×3 kernel at {@code k[at ..]} (row-major) in double, point {@code 6·j + k} into
     * {@code u[6·j + k]}; {@code gg} is 18 doubles of scratch.
     */
    static void transformKernel(float[] k, int at, double[] gg, double[] u) {
        for (int col = 0; col < 3; col++) gOf(k[at + col], k[at + 3 + col], k[at + 6 + col], gg, col, 3); // G g: each column
        for (int j = 0; j < 6; j++) gOf(gg[3 * j], gg[3 * j + 1], gg[3 * j + 2], u, 6 * j, 1); // (G g) Gᵀ: each of its rows
    }

    /** {@code G (k0, k1, k2)ᵀ} of F(4, 3) into {@code out[at + i·stride]}, i = 0..5. */
    private static void gOf(double k0, double k1, double k2, double[] out, int at, int stride) {
        double a = k0 / 24, b = k1 / 12, c = k2 / 6; // rows 3 and 4 share their quotients (the same values, fewer divisions)
        out[at] = k0 / 4;
        out[at + stride] = -(k0 + k1 + k2) / 6;
        out[at + 2 * stride] = -(k0 - k1 + k2) / 6;
        out[at + 3 * stride] = a + b + c;
        out[at + 4 * stride] = a - b + c;
        out[at + 5 * stride] = k2;
    }
}
