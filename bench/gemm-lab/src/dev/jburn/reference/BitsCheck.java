package dev.jburn.reference;

import dev.jburn.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * Prints a CRC of every result's bits (NaN canonical) for many shapes, layouts (A, B transposed; C = or +=), types
 * and thread counts: run it on two builds and diff the outputs to see that a change keeps the GEMM's bits.
 */
public final class BitsCheck {
    public static void main(String[] args) {
        int[][] shapes = {{256, 256, 256}, {130, 200, 77}, {128, 784, 256}, {784, 128, 256}, {128, 256, 784}, {128, 1600, 128},
                {13, 1000, 45}, {200, 800, 1000}, {64, 900, 1600}, {1000, 9, 70}, {37, 53, 900}, {128, 256, 10}, {300, 5, 300}, {2, 500, 600}, {700, 800, 20}};
        float[] special = {Float.NaN, Float.POSITIVE_INFINITY, -0f, 0f, Float.MIN_VALUE};
        for (Parallel par : new Parallel[] {new Parallel(1, Long.MAX_VALUE), new Parallel(2, 1L << 18)}) {
            for (int[] s : shapes) {
                int m = s[0], k = s[1], n = s[2];
                for (DType t : new DType[] {DType.F32, DType.BF16, DType.F16}) {
                    for (int layout = 0; layout < 8; layout++) {
                        boolean at = (layout & 1) != 0, bt = (layout & 2) != 0, acc = (layout & 4) != 0;
                        int es = t == DType.F32 ? 4 : 2;
                        Random r = new Random(m * 31 + k * 7 + n + layout);
                        MemorySegment a = Arena.global().allocate((long) m * k * es, 64), b = Arena.global().allocate((long) k * n * es, 64), c = Arena.global().allocate((long) m * n * es, 64);
                        fill(a, t, r, special); fill(b, t, r, special); fill(c, t, r, special);
                        Gemm.View av = at ? new Gemm.View(a, 0, 1, m) : Gemm.View.rowMajor(a, 0, k);
                        Gemm.View bv = bt ? new Gemm.View(b, 0, 1, k) : Gemm.View.rowMajor(b, 0, n);
                        Gemm.View cv = Gemm.View.rowMajor(c, 0, n);
                        if (t == DType.F32) Gemm.sgemm(m, n, k, av, bv, cv, acc, par);
                        else Gemm.hgemm(t, m, n, k, av, bv, cv, acc, par);
                        CRC32 crc = new CRC32();
                        for (long i = 0; i < (long) m * n; i++) {
                            int bits = t == DType.F32 ? Float.floatToIntBits(c.getAtIndex(ValueLayout.JAVA_FLOAT, i)) : c.getAtIndex(ValueLayout.JAVA_SHORT, i);
                            if (t == DType.F32 && Float.isNaN(c.getAtIndex(ValueLayout.JAVA_FLOAT, i))) bits = 1;
                            if (t != DType.F32 && Float.isNaN(Gemm.widenHalf(t, (short) bits))) bits = 1;
                            crc.update(bits);
                        }
                        System.out.printf("%d %dx%dx%d %s layout=%d crc=%08x%n", par.threads(), m, k, n, t, layout, crc.getValue());
                    }
                }
            }
        }
    }

    static void fill(MemorySegment s, DType t, Random r, float[] special) {
        long n = s.byteSize() / (t == DType.F32 ? 4 : 2);
        for (long i = 0; i < n; i++) {
            float v = r.nextInt(200) == 0 ? special[r.nextInt(special.length)] : (float) r.nextGaussian();
            if (t == DType.F32) s.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
            else s.setAtIndex(ValueLayout.JAVA_SHORT, i, Gemm.narrowHalf(t, v));
        }
    }
}
