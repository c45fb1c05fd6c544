package dev.jburn.reference;

import dev.jburn.DType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The F32 A-panel packers, bit for bit: {@link GemmF32#packA} of rows (bulk copies per panel row) against the
 * elements of A, and {@link GemmF32#packAColumns} (a transposing pass in place) against its twin
 * {@link GemmF32#packAStrips}. Edge sizes of rows and steps, NaN, infinities, signed zeros and subnormals among
 * the values, strided views, panels that end at the end of their segment, and nothing written outside a panel's
 * MR strips of kc floats (the next panel may belong to another thread).
 */
class GemmPackTest {
    private static final int MR = GemmKernels.F32_MR, AS = GemmKernels.AS;
    private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f,
            Float.MIN_VALUE, -Float.MIN_NORMAL / 3, Float.MAX_VALUE, Float.intBitsToFloat(0x7fc00123)};
    private static final float SENTINEL = Float.intBitsToFloat(0x7f80dead);

    /** An A of {@code rows×kc} F32 values at the given strides, exactly as large as its last element needs. */
    private static Gemm.View matrix(Arena arena, Random rnd, int rows, int kc, long offset, long rowStride, long colStride) {
        long last = offset + (rows - 1) * rowStride + (kc - 1) * colStride;
        MemorySegment seg = arena.allocate((last + 1) * Float.BYTES, 4);
        for (long e = 0; e <= last; e++) seg.setAtIndex(ValueLayout.JAVA_FLOAT, e, Float.NaN);
        for (int r = 0; r < rows; r++) {
            for (int p = 0; p < kc; p++) {
                float v = rnd.nextInt(8) == 0 ? SPECIAL[rnd.nextInt(SPECIAL.length)] : (float) rnd.nextGaussian();
                seg.setAtIndex(ValueLayout.JAVA_FLOAT, offset + r * rowStride + p * colStride, v);
            }
        }
        return new Gemm.View(seg, offset, rowStride, colStride);
    }

    private static float[] panel(int kc) {
        float[] dst = new float[3 + MR * AS + 40];
        java.util.Arrays.fill(dst, SENTINEL);
        return dst;
    }

    /** What packing A's {@code rows×kc} corner at (i0, p0) into {@link #panel} at 3 must give: its values, zero rows, sentinels elsewhere. */
    private static float[] expected(Gemm.View a, long i0, int rows, int p0, int kc) {
        float[] want = panel(kc);
        for (int r = 0; r < MR; r++) {
            for (int p = 0; p < kc; p++) {
                want[3 + r * AS + p] = r < rows ? a.segment().getAtIndex(ValueLayout.JAVA_FLOAT, a.offset() + (i0 + r) * a.rowStride() + (p0 + p) * a.colStride()) : 0f;
            }
        }
        return want;
    }

    private static void assertSameBits(float[] expected, float[] actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            int e = Float.floatToRawIntBits(expected[i]), g = Float.floatToRawIntBits(actual[i]);
            if (e != g) fail(what + ": element " + i + " is " + actual[i] + " (0x" + Integer.toHexString(g) + "), expected " + expected[i]);
        }
    }

    @Test
    void rowsCopiedInPlaceHoldA() {
        Random rnd = new Random(1);
        int[] rowsList = {1, 2, MR - 1, MR};
        int[] kcs = {1, 2, 15, 16, 17, 33, 256};
        long[][] strides = {{0, 1}, {5, 1}, {3, 2}}; // extra row padding, column step
        try (Arena arena = Arena.ofConfined()) {
            for (int rows : rowsList) for (int kc : kcs) for (long[] st : strides) {
                long colStride = st[1], rowStride = kc * colStride + st[0];
                Gemm.View a = matrix(arena, rnd, rows, kc, 7, rowStride, colStride);
                if (kc > 1) assertFalse(Gemm.alongFirst(a.rowStride(), a.colStride(), rows, kc), "rows are the contiguous direction");
                GemmF32.Scratch s = new GemmF32.Scratch(kc, kc);
                float[] got = panel(kc);
                GemmF32.packA(DType.F32, a, 0, rows, 0, kc, got, 3, s);
                assertSameBits(expected(a, 0, rows, 0, kc), got, "rows=" + rows + " kc=" + kc + " strides " + rowStride + "," + colStride);
            }
        }
    }

    @Test
    void columnsReadInPlaceMatchTheStrips() {
        Random rnd = new Random(2);
        int[] rowsList = {1, 2, MR - 1, MR};
        int[] kcs = {1, 2, 15, 16, 17, 33, 256};
        try (Arena arena = Arena.ofConfined()) {
            for (int rows : rowsList) for (int kc : kcs) for (int pad : new int[] {0, 3, 40}) {
                // A stored transposed: each column's rows are contiguous; pad 0 ends the last column at the segment's end
                long colStride = rows + pad;
                Gemm.View a = matrix(arena, rnd, rows, kc, 5, 1, colStride);
                GemmF32.Scratch s = new GemmF32.Scratch(kc, kc);
                float[] got = panel(kc), twin = panel(kc);
                GemmF32.packA(DType.F32, a, 0, rows, 0, kc, got, 3, s);
                GemmF32.packAStrips(DType.F32, a, a.offset(), rows, kc, twin, 3, s);
                for (int r = rows; r < MR; r++) java.util.Arrays.fill(twin, 3 + r * AS, 3 + r * AS + kc, 0f); // packA's zero rows
                String what = "rows=" + rows + " kc=" + kc + " column stride " + colStride;
                assertSameBits(twin, got, what);
                assertSameBits(expected(a, 0, rows, 0, kc), got, what);
            }
        }
    }

    @Test
    void partOfALargerMatrixReadsOnlyItsRowsAndSteps() {
        // a panel from the middle of A (row i0, step p0), as the blocked loop asks for it
        Random rnd = new Random(3);
        try (Arena arena = Arena.ofConfined()) {
            int m = 3 * MR + 5, k = 70, i0 = MR, p0 = 19, kc = 33;
            for (boolean transposed : new boolean[] {false, true}) {
                Gemm.View a = transposed ? matrix(arena, rnd, m, k, 2, 1, m + 1) : matrix(arena, rnd, m, k, 2, k + 1, 1);
                for (int rows : new int[] {MR, 5}) {
                    GemmF32.Scratch s = new GemmF32.Scratch(kc, kc);
                    float[] got = panel(kc);
                    GemmF32.packA(DType.F32, a, i0, rows, p0, kc, got, 3, s);
                    assertSameBits(expected(a, i0, rows, p0, kc), got, "transposed=" + transposed + " rows=" + rows);
                }
            }
        }
    }
}
