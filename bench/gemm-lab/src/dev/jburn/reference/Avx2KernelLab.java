package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import java.lang.foreign.*;
import java.nio.ByteOrder;
import java.util.Random;

/**
 * The AVX2 (8-lane) F32 kernel variants of the eighteenth session, kernel alone: one A panel against a run of B panels
 * (GemmF32's order; {@code onegoto}: one B panel against a run of A panels). Args: variant kc mc nc threads seconds;
 * variants one (the one-step float6 of before), two (GemmKernels.float6), four, into, addinto (GemmKernels' C-writing
 * forms), interleaved (A by step, one step), onegoto, k4x3 (4 rows × 3 vectors, one step). Prints each thread's
 * median GFLOP/s of the last six rounds. Results: bench/README.md, "CPU: f32 GEMM on AVX2".
 */
public final class Avx2KernelLab {
    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    static final int AS = GemmKernels.AS;
    static final ByteOrder ORDER = ByteOrder.nativeOrder();

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[4]);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) { ts[t] = new Thread(() -> run(args)); ts[t].start(); }
        for (Thread t : ts) t.join();
    }

    static void run(String[] args) {
        String v = args[0];
        int kc = Integer.parseInt(args[1]), mc = Integer.parseInt(args[2]), nc = Integer.parseInt(args[3]);
        double secs = Double.parseDouble(args[5]);
        int L = F.length();
        int mr = v.equals("k4x3") ? 4 : 6, nr = v.equals("k4x3") ? 3 * L : 2 * L;
        int mP = mc / mr, nP = nc / nr;
        float[] a = new float[mP * mr * AS + 64];
        Random r = new Random(1);
        for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        MemorySegment b = Arena.ofAuto().allocate((long) nP * nr * kc * 4, 64);
        for (long i = 0; i < (long) nP * nr * kc; i++) b.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat());
        int ldc = nc + 8;
        MemorySegment c = Arena.ofAuto().allocate((long) mc * ldc * 4, 64);
        float[] tile = new float[mr * nr];
        double flops = 2.0 * mP * mr * nP * nr * kc;
        double[] g = new double[10];
        for (int round = 0; round < 10; round++) {
            long t0 = System.nanoTime(); long reps = 0;
            while (System.nanoTime() - t0 < secs * 1e9) { rep(v, kc, mP, nP, mr, nr, a, b, tile, c, ldc); reps++; }
            g[round] = flops * reps / (System.nanoTime() - t0);
        }
        double[] last = java.util.Arrays.copyOfRange(g, 4, 10); java.util.Arrays.sort(last);
        System.out.printf("%s kc=%d mc=%d nc=%d: %.1f (%.1f-%.1f) GFLOP/s per thread%n", v, kc, mc, nc, (last[2]+last[3])/2, last[0], last[5]);
    }

    static void rep(String v, int kc, int mP, int nP, int mr, int nr, float[] a, MemorySegment b, float[] tile, MemorySegment c, int ldc) {
        switch (v) {
            case "one" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) float6One(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, tile); }
            case "two" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) GemmKernels.float6(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, tile); }
            case "four" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) float6u4(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, tile); }
            case "into" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) GemmKernels.float6Into(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, c, (ip * 6L * ldc + jp * nr) * 4, ldc * 4L); }
            case "addinto" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) GemmKernels.float6AddInto(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, c, (ip * 6L * ldc + jp * nr) * 4, ldc * 4L); }
            case "interleaved" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) float6i(kc, a, ip * 6 * kc, b, (long) jp * nr * kc * 4, tile); }
            case "onegoto" -> { for (int jp = 0; jp < nP; jp++) for (int ip = 0; ip < mP; ip++) float6One(kc, a, ip * 6 * AS, b, (long) jp * nr * kc * 4, tile); }
            case "k4x3" -> { for (int ip = 0; ip < mP; ip++) for (int jp = 0; jp < nP; jp++) float4x3(kc, a, ip * 4 * AS, b, (long) jp * nr * kc * 4, tile); }
            default -> throw new IllegalArgumentException(v);
        }
    }

    /** GemmKernels.float6 as it was before this session: one step per iteration. */
    static void float6One(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l);
        c1_0.intoArray(tile, 2 * l); c1_1.intoArray(tile, 3 * l);
        c2_0.intoArray(tile, 4 * l); c2_1.intoArray(tile, 5 * l);
        c3_0.intoArray(tile, 6 * l); c3_1.intoArray(tile, 7 * l);
        c4_0.intoArray(tile, 8 * l); c4_1.intoArray(tile, 9 * l);
        c5_0.intoArray(tile, 10 * l); c5_1.intoArray(tile, 11 * l);
    }

    /** float6 with four steps per iteration. */
    static void float6u4(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        int p = 0;
        for (; p + 3 < kc; p += 4) {
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            bi += 2L * l * Float.BYTES; ai++;
            b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            bi += 2L * l * Float.BYTES; ai++;
            b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            bi += 2L * l * Float.BYTES; ai++;
            b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        for (; p < kc; p++) {
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        int L = l;
        c0_0.intoArray(tile, 0 * L); c0_1.intoArray(tile, 1 * L);
        c1_0.intoArray(tile, 2 * L); c1_1.intoArray(tile, 3 * L);
        c2_0.intoArray(tile, 4 * L); c2_1.intoArray(tile, 5 * L);
        c3_0.intoArray(tile, 6 * L); c3_1.intoArray(tile, 7 * L);
        c4_0.intoArray(tile, 8 * L); c4_1.intoArray(tile, 9 * L);
        c5_0.intoArray(tile, 10 * L); c5_1.intoArray(tile, 11 * L);
    }

    /** A interleaved by step: a[ao + p*6 + r]. */
    static void float6i(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p * 6;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l);
        c1_0.intoArray(tile, 2 * l); c1_1.intoArray(tile, 3 * l);
        c2_0.intoArray(tile, 4 * l); c2_1.intoArray(tile, 5 * l);
        c3_0.intoArray(tile, 6 * l); c3_1.intoArray(tile, 7 * l);
        c4_0.intoArray(tile, 8 * l); c4_1.intoArray(tile, 9 * l);
        c5_0.intoArray(tile, 10 * l); c5_1.intoArray(tile, 11 * l);
    }

    static void float4x3(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0, c0_2 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0, c1_2 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0, c2_2 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0, c3_2 = c3_0;
        int l = F.length();
        long lb = (long) l * Float.BYTES;
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) p * 3 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER), b2 = FloatVector.fromMemorySegment(F, b, bi + 2 * lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1); c0_2 = x0.fma(b2, c0_2);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1); c1_2 = x1.fma(b2, c1_2);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1); c2_2 = x2.fma(b2, c2_2);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1); c3_2 = x3.fma(b2, c3_2);
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l); c0_2.intoArray(tile, 2 * l);
        c1_0.intoArray(tile, 3 * l); c1_1.intoArray(tile, 4 * l); c1_2.intoArray(tile, 5 * l);
        c2_0.intoArray(tile, 6 * l); c2_1.intoArray(tile, 7 * l); c2_2.intoArray(tile, 8 * l);
        c3_0.intoArray(tile, 9 * l); c3_1.intoArray(tile, 10 * l); c3_2.intoArray(tile, 11 * l);
    }
}
