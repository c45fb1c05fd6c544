package dev.jburn.reference;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

/**
 * The whole F32 GEMM against its kernel alone, alternating in short bursts in one JVM so that the machine's drift
 * (this host's clock moves between sittings) hits both alike. Each round: {@code calls} n×n×n {@code Gemm.sgemm} calls
 * on {@code threads} threads, then every participant runs {@code GemmKernels.float6Into} for one A panel against
 * {@code nc/16} B panels (kc 342, in L2) {@code reps} times. Args: n threads rounds [calls]. Prints per round the GEMM's
 * GFLOP/s, the kernel's GFLOP/s per thread and the GEMM's share of {@code threads ×} the kernel's speed.
 */
public final class GemmVsKernel {
    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]), threads = Integer.parseInt(args[1]), rounds = Integer.parseInt(args[2]);
        int calls = args.length > 3 ? Integer.parseInt(args[3]) : Math.max(2, (int) (1L << 31) / size / size / size * 4 + 2);
        Random r = new Random(7);
        int m = size, n = size, k = size;
        MemorySegment as = Arena.global().allocate((long) m * k * 4, 64), bs = Arena.global().allocate((long) k * n * 4, 64), cs = Arena.global().allocate((long) m * n * 4, 64);
        for (long i = 0; i < (long) m * k; i++) as.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        for (long i = 0; i < (long) k * n; i++) bs.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        Gemm.View a = Gemm.View.rowMajor(as, 0, k), b = Gemm.View.rowMajor(bs, 0, n), c = Gemm.View.rowMajor(cs, 0, n);
        Parallel par = new Parallel(threads, 1L << 18);
        int kc = 342, mP = 8, nP = 12, AS = GemmKernels.AS;
        double[] gemm = new double[rounds], kern = new double[rounds];
        for (int round = -2; round < rounds; round++) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < calls; i++) {
                long t = System.nanoTime();
                Gemm.sgemm(m, n, k, a, b, c, false, par);
                best = Math.min(best, System.nanoTime() - t);
            }
            double g = 2.0 * m * n * k / best;
            long[] ns = new long[threads];
            java.util.concurrent.atomic.AtomicInteger ids = new java.util.concurrent.atomic.AtomicInteger();
            int reps = 300;
            par.runParticipants(Long.MAX_VALUE, () -> {
                int id = ids.getAndIncrement();
                float[] ap = new float[mP * 6 * AS];
                MemorySegment bp = Arena.ofAuto().allocate((long) nP * 16 * kc * 4, 64), cp = Arena.ofAuto().allocate((long) mP * 6 * nP * 16 * 4, 64);
                for (int i = 0; i < ap.length; i++) ap[i] = 0.5f;
                long t = System.nanoTime();
                for (int rep = 0; rep < reps; rep++) loop(kc, mP, nP, ap, bp, cp);
                ns[id] = System.nanoTime() - t;
            });
            double kf = 0;
            for (long x : ns) kf += 2.0 * mP * 6 * nP * 16 * kc * reps / x;
            kf /= threads;
            if (round >= 0) { gemm[round] = g; kern[round] = kf; }
            System.out.printf("round %d: gemm %.1f GFLOP/s, kernel %.1f per thread, gemm / (threads x kernel) %.3f%n", round, g, kf, g / (threads * kf));
        }
        double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++) ratio[i] = gemm[i] / (threads * kern[i]);
        Arrays.sort(ratio); Arrays.sort(gemm); Arrays.sort(kern);
        System.out.printf("n %d threads %d: gemm median %.1f, kernel median %.1f per thread, share median %.3f (%.3f-%.3f)%n",
                size, threads, gemm[rounds / 2], kern[rounds / 2], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
        par.shutdown();
    }

    /** One A panel against a run of B panels, C tiles in a small array: GemmF32's order, every operand in L1/L2. */
    static void loop(int kc, int mP, int nP, float[] ap, MemorySegment bp, MemorySegment cp) {
        long cRow = (long) nP * 16 * 4;
        for (int ip = 0; ip < mP; ip++)
            for (int jp = 0; jp < nP; jp++)
                GemmKernels.float6Into(kc, ap, ip * 6 * GemmKernels.AS, bp, (long) jp * 16 * kc * 4, cp, ip * 6 * cRow + jp * 64L, cRow);
    }
}
