package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/** Lab variants of GemmKernels' 12-row F32 kernels, written by bench/gemm-lab/gen_kernel12_variants.py (see bench/README.md). */
final class Kernel12Variants {
    private Kernel12Variants() {}
    static final VectorSpecies<Float> F = GemmKernels.F;
    static final int AS = GemmKernels.AS;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Two steps per loop iteration, every accumulator's fmas still in ascending p (the bits of float12Into). */
    static void into2(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        int p = 0;
        for (; p + 1 < kc; p += 2) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
            long bi2 = bo + (long) (p + 1) * 2 * l * Float.BYTES;
            int ai2 = ao + p + 1;
            FloatVector b02 = FloatVector.fromMemorySegment(F, b, bi2, ORDER), b12 = FloatVector.fromMemorySegment(F, b, bi2 + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai2]); c0_0 = x.fma(b02, c0_0); c0_1 = x.fma(b12, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 1 * AS]); c1_0 = x.fma(b02, c1_0); c1_1 = x.fma(b12, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 2 * AS]); c2_0 = x.fma(b02, c2_0); c2_1 = x.fma(b12, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 3 * AS]); c3_0 = x.fma(b02, c3_0); c3_1 = x.fma(b12, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 4 * AS]); c4_0 = x.fma(b02, c4_0); c4_1 = x.fma(b12, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 5 * AS]); c5_0 = x.fma(b02, c5_0); c5_1 = x.fma(b12, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 6 * AS]); c6_0 = x.fma(b02, c6_0); c6_1 = x.fma(b12, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 7 * AS]); c7_0 = x.fma(b02, c7_0); c7_1 = x.fma(b12, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 8 * AS]); c8_0 = x.fma(b02, c8_0); c8_1 = x.fma(b12, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 9 * AS]); c9_0 = x.fma(b02, c9_0); c9_1 = x.fma(b12, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 10 * AS]); c10_0 = x.fma(b02, c10_0); c10_1 = x.fma(b12, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 11 * AS]); c11_0 = x.fma(b02, c11_0); c11_1 = x.fma(b12, c11_1); }
        }
        for (; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        long lb = (long) l * Float.BYTES;
        c0_0.intoMemorySegment(c, co + 0 * cRow, ORDER); c0_1.intoMemorySegment(c, co + 0 * cRow + lb, ORDER);
        c1_0.intoMemorySegment(c, co + 1 * cRow, ORDER); c1_1.intoMemorySegment(c, co + 1 * cRow + lb, ORDER);
        c2_0.intoMemorySegment(c, co + 2 * cRow, ORDER); c2_1.intoMemorySegment(c, co + 2 * cRow + lb, ORDER);
        c3_0.intoMemorySegment(c, co + 3 * cRow, ORDER); c3_1.intoMemorySegment(c, co + 3 * cRow + lb, ORDER);
        c4_0.intoMemorySegment(c, co + 4 * cRow, ORDER); c4_1.intoMemorySegment(c, co + 4 * cRow + lb, ORDER);
        c5_0.intoMemorySegment(c, co + 5 * cRow, ORDER); c5_1.intoMemorySegment(c, co + 5 * cRow + lb, ORDER);
        c6_0.intoMemorySegment(c, co + 6 * cRow, ORDER); c6_1.intoMemorySegment(c, co + 6 * cRow + lb, ORDER);
        c7_0.intoMemorySegment(c, co + 7 * cRow, ORDER); c7_1.intoMemorySegment(c, co + 7 * cRow + lb, ORDER);
        c8_0.intoMemorySegment(c, co + 8 * cRow, ORDER); c8_1.intoMemorySegment(c, co + 8 * cRow + lb, ORDER);
        c9_0.intoMemorySegment(c, co + 9 * cRow, ORDER); c9_1.intoMemorySegment(c, co + 9 * cRow + lb, ORDER);
        c10_0.intoMemorySegment(c, co + 10 * cRow, ORDER); c10_1.intoMemorySegment(c, co + 10 * cRow + lb, ORDER);
        c11_0.intoMemorySegment(c, co + 11 * cRow, ORDER); c11_1.intoMemorySegment(c, co + 11 * cRow + lb, ORDER);
    }

    /** Two steps per iteration, into the heap tile (the bits of float12). */
    static void tile2(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        int p = 0;
        for (; p + 1 < kc; p += 2) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
            long bi2 = bo + (long) (p + 1) * 2 * l * Float.BYTES;
            int ai2 = ao + p + 1;
            FloatVector b02 = FloatVector.fromMemorySegment(F, b, bi2, ORDER), b12 = FloatVector.fromMemorySegment(F, b, bi2 + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai2]); c0_0 = x.fma(b02, c0_0); c0_1 = x.fma(b12, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 1 * AS]); c1_0 = x.fma(b02, c1_0); c1_1 = x.fma(b12, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 2 * AS]); c2_0 = x.fma(b02, c2_0); c2_1 = x.fma(b12, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 3 * AS]); c3_0 = x.fma(b02, c3_0); c3_1 = x.fma(b12, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 4 * AS]); c4_0 = x.fma(b02, c4_0); c4_1 = x.fma(b12, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 5 * AS]); c5_0 = x.fma(b02, c5_0); c5_1 = x.fma(b12, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 6 * AS]); c6_0 = x.fma(b02, c6_0); c6_1 = x.fma(b12, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 7 * AS]); c7_0 = x.fma(b02, c7_0); c7_1 = x.fma(b12, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 8 * AS]); c8_0 = x.fma(b02, c8_0); c8_1 = x.fma(b12, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 9 * AS]); c9_0 = x.fma(b02, c9_0); c9_1 = x.fma(b12, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 10 * AS]); c10_0 = x.fma(b02, c10_0); c10_1 = x.fma(b12, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 11 * AS]); c11_0 = x.fma(b02, c11_0); c11_1 = x.fma(b12, c11_1); }
        }
        for (; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l);
        c1_0.intoArray(tile, 2 * l); c1_1.intoArray(tile, 3 * l);
        c2_0.intoArray(tile, 4 * l); c2_1.intoArray(tile, 5 * l);
        c3_0.intoArray(tile, 6 * l); c3_1.intoArray(tile, 7 * l);
        c4_0.intoArray(tile, 8 * l); c4_1.intoArray(tile, 9 * l);
        c5_0.intoArray(tile, 10 * l); c5_1.intoArray(tile, 11 * l);
        c6_0.intoArray(tile, 12 * l); c6_1.intoArray(tile, 13 * l);
        c7_0.intoArray(tile, 14 * l); c7_1.intoArray(tile, 15 * l);
        c8_0.intoArray(tile, 16 * l); c8_1.intoArray(tile, 17 * l);
        c9_0.intoArray(tile, 18 * l); c9_1.intoArray(tile, 19 * l);
        c10_0.intoArray(tile, 20 * l); c10_1.intoArray(tile, 21 * l);
        c11_0.intoArray(tile, 22 * l); c11_1.intoArray(tile, 23 * l);
    }

    /** One step per iteration, adding the tile into C at the end (C + chain: the bits of float12 + store). */
    static void addInto(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        long lb = (long) l * Float.BYTES;
        c0_0.add(FloatVector.fromMemorySegment(F, c, co + 0 * cRow, ORDER)).intoMemorySegment(c, co + 0 * cRow, ORDER);
        c0_1.add(FloatVector.fromMemorySegment(F, c, co + 0 * cRow + lb, ORDER)).intoMemorySegment(c, co + 0 * cRow + lb, ORDER);
        c1_0.add(FloatVector.fromMemorySegment(F, c, co + 1 * cRow, ORDER)).intoMemorySegment(c, co + 1 * cRow, ORDER);
        c1_1.add(FloatVector.fromMemorySegment(F, c, co + 1 * cRow + lb, ORDER)).intoMemorySegment(c, co + 1 * cRow + lb, ORDER);
        c2_0.add(FloatVector.fromMemorySegment(F, c, co + 2 * cRow, ORDER)).intoMemorySegment(c, co + 2 * cRow, ORDER);
        c2_1.add(FloatVector.fromMemorySegment(F, c, co + 2 * cRow + lb, ORDER)).intoMemorySegment(c, co + 2 * cRow + lb, ORDER);
        c3_0.add(FloatVector.fromMemorySegment(F, c, co + 3 * cRow, ORDER)).intoMemorySegment(c, co + 3 * cRow, ORDER);
        c3_1.add(FloatVector.fromMemorySegment(F, c, co + 3 * cRow + lb, ORDER)).intoMemorySegment(c, co + 3 * cRow + lb, ORDER);
        c4_0.add(FloatVector.fromMemorySegment(F, c, co + 4 * cRow, ORDER)).intoMemorySegment(c, co + 4 * cRow, ORDER);
        c4_1.add(FloatVector.fromMemorySegment(F, c, co + 4 * cRow + lb, ORDER)).intoMemorySegment(c, co + 4 * cRow + lb, ORDER);
        c5_0.add(FloatVector.fromMemorySegment(F, c, co + 5 * cRow, ORDER)).intoMemorySegment(c, co + 5 * cRow, ORDER);
        c5_1.add(FloatVector.fromMemorySegment(F, c, co + 5 * cRow + lb, ORDER)).intoMemorySegment(c, co + 5 * cRow + lb, ORDER);
        c6_0.add(FloatVector.fromMemorySegment(F, c, co + 6 * cRow, ORDER)).intoMemorySegment(c, co + 6 * cRow, ORDER);
        c6_1.add(FloatVector.fromMemorySegment(F, c, co + 6 * cRow + lb, ORDER)).intoMemorySegment(c, co + 6 * cRow + lb, ORDER);
        c7_0.add(FloatVector.fromMemorySegment(F, c, co + 7 * cRow, ORDER)).intoMemorySegment(c, co + 7 * cRow, ORDER);
        c7_1.add(FloatVector.fromMemorySegment(F, c, co + 7 * cRow + lb, ORDER)).intoMemorySegment(c, co + 7 * cRow + lb, ORDER);
        c8_0.add(FloatVector.fromMemorySegment(F, c, co + 8 * cRow, ORDER)).intoMemorySegment(c, co + 8 * cRow, ORDER);
        c8_1.add(FloatVector.fromMemorySegment(F, c, co + 8 * cRow + lb, ORDER)).intoMemorySegment(c, co + 8 * cRow + lb, ORDER);
        c9_0.add(FloatVector.fromMemorySegment(F, c, co + 9 * cRow, ORDER)).intoMemorySegment(c, co + 9 * cRow, ORDER);
        c9_1.add(FloatVector.fromMemorySegment(F, c, co + 9 * cRow + lb, ORDER)).intoMemorySegment(c, co + 9 * cRow + lb, ORDER);
        c10_0.add(FloatVector.fromMemorySegment(F, c, co + 10 * cRow, ORDER)).intoMemorySegment(c, co + 10 * cRow, ORDER);
        c10_1.add(FloatVector.fromMemorySegment(F, c, co + 10 * cRow + lb, ORDER)).intoMemorySegment(c, co + 10 * cRow + lb, ORDER);
        c11_0.add(FloatVector.fromMemorySegment(F, c, co + 11 * cRow, ORDER)).intoMemorySegment(c, co + 11 * cRow, ORDER);
        c11_1.add(FloatVector.fromMemorySegment(F, c, co + 11 * cRow + lb, ORDER)).intoMemorySegment(c, co + 11 * cRow + lb, ORDER);
    }

    /** The heap tile, then a loop adding it into C, in one method. */
    static void addLoop(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l);
        c1_0.intoArray(tile, 2 * l); c1_1.intoArray(tile, 3 * l);
        c2_0.intoArray(tile, 4 * l); c2_1.intoArray(tile, 5 * l);
        c3_0.intoArray(tile, 6 * l); c3_1.intoArray(tile, 7 * l);
        c4_0.intoArray(tile, 8 * l); c4_1.intoArray(tile, 9 * l);
        c5_0.intoArray(tile, 10 * l); c5_1.intoArray(tile, 11 * l);
        c6_0.intoArray(tile, 12 * l); c6_1.intoArray(tile, 13 * l);
        c7_0.intoArray(tile, 14 * l); c7_1.intoArray(tile, 15 * l);
        c8_0.intoArray(tile, 16 * l); c8_1.intoArray(tile, 17 * l);
        c9_0.intoArray(tile, 18 * l); c9_1.intoArray(tile, 19 * l);
        c10_0.intoArray(tile, 20 * l); c10_1.intoArray(tile, 21 * l);
        c11_0.intoArray(tile, 22 * l); c11_1.intoArray(tile, 23 * l);
        for (int r = 0; r < 12; r++) {
            long o = co + r * cRow;
            for (int q = 0; q < 2; q++) {
                FloatVector t = FloatVector.fromArray(F, tile, (2 * r + q) * l);
                long at = o + (long) q * l * Float.BYTES;
                t.add(FloatVector.fromMemorySegment(F, c, at, ORDER)).intoMemorySegment(c, at, ORDER);
            }
        }
    }

    /** addInto with the row address in a local (fewer bytecodes). */
    static void addIntoSmall(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        long lb = (long) l * Float.BYTES, o = co;
        c0_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c0_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c1_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c1_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c2_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c2_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c3_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c3_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c4_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c4_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c5_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c5_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c6_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c6_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c7_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c7_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c8_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c8_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c9_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c9_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c10_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c10_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
        c11_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c11_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;
    }

    /** Two steps, adding into C. */
    static void addInto2(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        FloatVector c6_0 = FloatVector.zero(F), c6_1 = c6_0;
        FloatVector c7_0 = FloatVector.zero(F), c7_1 = c7_0;
        FloatVector c8_0 = FloatVector.zero(F), c8_1 = c8_0;
        FloatVector c9_0 = FloatVector.zero(F), c9_1 = c9_0;
        FloatVector c10_0 = FloatVector.zero(F), c10_1 = c10_0;
        FloatVector c11_0 = FloatVector.zero(F), c11_1 = c11_0;
        int l = F.length();
        int p = 0;
        for (; p + 1 < kc; p += 2) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
            long bi2 = bo + (long) (p + 1) * 2 * l * Float.BYTES;
            int ai2 = ao + p + 1;
            FloatVector b02 = FloatVector.fromMemorySegment(F, b, bi2, ORDER), b12 = FloatVector.fromMemorySegment(F, b, bi2 + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai2]); c0_0 = x.fma(b02, c0_0); c0_1 = x.fma(b12, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 1 * AS]); c1_0 = x.fma(b02, c1_0); c1_1 = x.fma(b12, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 2 * AS]); c2_0 = x.fma(b02, c2_0); c2_1 = x.fma(b12, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 3 * AS]); c3_0 = x.fma(b02, c3_0); c3_1 = x.fma(b12, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 4 * AS]); c4_0 = x.fma(b02, c4_0); c4_1 = x.fma(b12, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 5 * AS]); c5_0 = x.fma(b02, c5_0); c5_1 = x.fma(b12, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 6 * AS]); c6_0 = x.fma(b02, c6_0); c6_1 = x.fma(b12, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 7 * AS]); c7_0 = x.fma(b02, c7_0); c7_1 = x.fma(b12, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 8 * AS]); c8_0 = x.fma(b02, c8_0); c8_1 = x.fma(b12, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 9 * AS]); c9_0 = x.fma(b02, c9_0); c9_1 = x.fma(b12, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 10 * AS]); c10_0 = x.fma(b02, c10_0); c10_1 = x.fma(b12, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai2 + 11 * AS]); c11_0 = x.fma(b02, c11_0); c11_1 = x.fma(b12, c11_1); }
        }
        for (; p < kc; p++) {
            long bi = bo + (long) (p) * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            { FloatVector x = FloatVector.broadcast(F, a[ai]); c0_0 = x.fma(b0, c0_0); c0_1 = x.fma(b1, c0_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x.fma(b0, c1_0); c1_1 = x.fma(b1, c1_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x.fma(b0, c2_0); c2_1 = x.fma(b1, c2_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x.fma(b0, c3_0); c3_1 = x.fma(b1, c3_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x.fma(b0, c4_0); c4_1 = x.fma(b1, c4_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x.fma(b0, c5_0); c5_1 = x.fma(b1, c5_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x.fma(b0, c6_0); c6_1 = x.fma(b1, c6_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x.fma(b0, c7_0); c7_1 = x.fma(b1, c7_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x.fma(b0, c8_0); c8_1 = x.fma(b1, c8_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x.fma(b0, c9_0); c9_1 = x.fma(b1, c9_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x.fma(b0, c10_0); c10_1 = x.fma(b1, c10_1); }
            { FloatVector x = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x.fma(b0, c11_0); c11_1 = x.fma(b1, c11_1); }
        }
        long lb = (long) l * Float.BYTES;
        c0_0.add(FloatVector.fromMemorySegment(F, c, co + 0 * cRow, ORDER)).intoMemorySegment(c, co + 0 * cRow, ORDER);
        c0_1.add(FloatVector.fromMemorySegment(F, c, co + 0 * cRow + lb, ORDER)).intoMemorySegment(c, co + 0 * cRow + lb, ORDER);
        c1_0.add(FloatVector.fromMemorySegment(F, c, co + 1 * cRow, ORDER)).intoMemorySegment(c, co + 1 * cRow, ORDER);
        c1_1.add(FloatVector.fromMemorySegment(F, c, co + 1 * cRow + lb, ORDER)).intoMemorySegment(c, co + 1 * cRow + lb, ORDER);
        c2_0.add(FloatVector.fromMemorySegment(F, c, co + 2 * cRow, ORDER)).intoMemorySegment(c, co + 2 * cRow, ORDER);
        c2_1.add(FloatVector.fromMemorySegment(F, c, co + 2 * cRow + lb, ORDER)).intoMemorySegment(c, co + 2 * cRow + lb, ORDER);
        c3_0.add(FloatVector.fromMemorySegment(F, c, co + 3 * cRow, ORDER)).intoMemorySegment(c, co + 3 * cRow, ORDER);
        c3_1.add(FloatVector.fromMemorySegment(F, c, co + 3 * cRow + lb, ORDER)).intoMemorySegment(c, co + 3 * cRow + lb, ORDER);
        c4_0.add(FloatVector.fromMemorySegment(F, c, co + 4 * cRow, ORDER)).intoMemorySegment(c, co + 4 * cRow, ORDER);
        c4_1.add(FloatVector.fromMemorySegment(F, c, co + 4 * cRow + lb, ORDER)).intoMemorySegment(c, co + 4 * cRow + lb, ORDER);
        c5_0.add(FloatVector.fromMemorySegment(F, c, co + 5 * cRow, ORDER)).intoMemorySegment(c, co + 5 * cRow, ORDER);
        c5_1.add(FloatVector.fromMemorySegment(F, c, co + 5 * cRow + lb, ORDER)).intoMemorySegment(c, co + 5 * cRow + lb, ORDER);
        c6_0.add(FloatVector.fromMemorySegment(F, c, co + 6 * cRow, ORDER)).intoMemorySegment(c, co + 6 * cRow, ORDER);
        c6_1.add(FloatVector.fromMemorySegment(F, c, co + 6 * cRow + lb, ORDER)).intoMemorySegment(c, co + 6 * cRow + lb, ORDER);
        c7_0.add(FloatVector.fromMemorySegment(F, c, co + 7 * cRow, ORDER)).intoMemorySegment(c, co + 7 * cRow, ORDER);
        c7_1.add(FloatVector.fromMemorySegment(F, c, co + 7 * cRow + lb, ORDER)).intoMemorySegment(c, co + 7 * cRow + lb, ORDER);
        c8_0.add(FloatVector.fromMemorySegment(F, c, co + 8 * cRow, ORDER)).intoMemorySegment(c, co + 8 * cRow, ORDER);
        c8_1.add(FloatVector.fromMemorySegment(F, c, co + 8 * cRow + lb, ORDER)).intoMemorySegment(c, co + 8 * cRow + lb, ORDER);
        c9_0.add(FloatVector.fromMemorySegment(F, c, co + 9 * cRow, ORDER)).intoMemorySegment(c, co + 9 * cRow, ORDER);
        c9_1.add(FloatVector.fromMemorySegment(F, c, co + 9 * cRow + lb, ORDER)).intoMemorySegment(c, co + 9 * cRow + lb, ORDER);
        c10_0.add(FloatVector.fromMemorySegment(F, c, co + 10 * cRow, ORDER)).intoMemorySegment(c, co + 10 * cRow, ORDER);
        c10_1.add(FloatVector.fromMemorySegment(F, c, co + 10 * cRow + lb, ORDER)).intoMemorySegment(c, co + 10 * cRow + lb, ORDER);
        c11_0.add(FloatVector.fromMemorySegment(F, c, co + 11 * cRow, ORDER)).intoMemorySegment(c, co + 11 * cRow, ORDER);
        c11_1.add(FloatVector.fromMemorySegment(F, c, co + 11 * cRow + lb, ORDER)).intoMemorySegment(c, co + 11 * cRow + lb, ORDER);
    }

}
