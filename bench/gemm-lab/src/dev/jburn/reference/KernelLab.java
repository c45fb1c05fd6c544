package dev.jburn.reference;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * The F32 kernel alone in two loop orders, A panels at {@link GemmKernels#AS}: {@code rowrun} = one A panel against a
 * run of B panels (GemmF32's order), {@code colrun} = one B panel against a run of A panels (the Goto order). Args:
 * order kc mc nc ldc seconds [threads]; prints the median of the last six rounds' GFLOP/s (per thread).
 * The loop nest is a method of its own: run from main's loop, compiled on-stack, the kernel stayed at ~1 GFLOP/s.
 */
public final class KernelLab {
    private static final int MR = GemmKernels.F32_MR, NR = GemmKernels.F32_NR;

    public static void main(String[] args) throws Exception {
        int threads = args.length > 6 ? Integer.parseInt(args[6]) : 1;
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) { ts[t] = new Thread(() -> run(args)); ts[t].start(); }
        for (Thread t : ts) t.join();
    }

    static void run(String[] args) {
        String order = args[0];
        int kc = Integer.parseInt(args[1]), mc = Integer.parseInt(args[2]), nc = Integer.parseInt(args[3]);
        int ldc = Integer.parseInt(args[4]);
        double secs = Double.parseDouble(args[5]);
        int mP = mc / MR, nP = nc / NR;
        if (kc > GemmKernels.AS) throw new IllegalArgumentException("kc > AS = " + GemmKernels.AS);
        float[] a = new float[mP * MR * GemmKernels.AS];
        Random r = new Random(1);
        for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        MemorySegment b = Arena.ofAuto().allocate((long) nc * kc * 4, 64);
        for (long i = 0; i < (long) nc * kc; i++) b.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat());
        MemorySegment c = Arena.ofAuto().allocate((long) mc * ldc * 4, 64);
        long row = (long) ldc * 4;
        double flopsPerRep = 2.0 * mc * nc * kc;
        double[] means = new double[10];
        for (int round = 0; round < 10; round++) {
            long t0 = System.nanoTime();
            long reps = 0;
            long best = Long.MAX_VALUE;
            while (System.nanoTime() - t0 < secs * 1e9) {
                long t = System.nanoTime();
                rep(order.equals("rowrun"), kc, mP, nP, a, b, c, ldc, row);
                best = Math.min(best, System.nanoTime() - t);
                reps++;
            }
            double el = System.nanoTime() - t0;
            means[round] = flopsPerRep * reps / el;
        }
        double[] last = java.util.Arrays.copyOfRange(means, 4, 10);
        java.util.Arrays.sort(last);
        System.out.printf("%s kc=%d mc=%d nc=%d ldc=%d: median of round means %.1f (%.1f-%.1f) GFLOP/s%n", order, kc, mc, nc, ldc, (last[2] + last[3]) / 2, last[0], last[5]);
    }

    static void rep(boolean rowrun, int kc, int mP, int nP, float[] a, MemorySegment b, MemorySegment c, int ldc, long row) {
        if (rowrun) {
            for (int ip = 0; ip < mP; ip++)
                for (int jp = 0; jp < nP; jp++) kernel(kc, a, ip, b, jp, c, ldc, row);
        } else {
            for (int jp = 0; jp < nP; jp++)
                for (int ip = 0; ip < mP; ip++) kernel(kc, a, ip, b, jp, c, ldc, row);
        }
    }

    /** The kernel GemmF32 runs for a full first-block tile at this machine's width: 12 rows (16 lanes) or 6 (8 lanes). */
    private static void kernel(int kc, float[] a, int ip, MemorySegment b, int jp, MemorySegment c, int ldc, long row) {
        int ao = ip * MR * GemmKernels.AS;
        long bo = (long) jp * NR * kc * 4, co = ((long) ip * MR * ldc + (long) jp * NR) * 4;
        if (MR == 12) GemmKernels.float12Into(kc, a, ao, b, bo, c, co, row);
        else GemmKernels.float6Into(kc, a, ao, b, bo, c, co, row);
    }
}
