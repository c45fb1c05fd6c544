package dev.jburn.reference;

import dev.jburn.DType;
import jdk.incubator.vector.FloatVector;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Where a row-major F32 GEMM's time goes: a copy of {@code GemmF32.participate} (row-major A, B and C) with System.nanoTime
 * around B packing, A packing, the kernels and the waits at each phase's end, per participant. Args: n threads calls
 * [mc nc]; prints the median and best wall time of the last half of the calls and, per participant, the ms of each
 * part per call. Options: -Dgm.mkn=m,k,n (instead of n³), -Dgm.c=scratch, -Dgm.sharedB=true, -Dgm.ab=true with or without
 * -Dgm.ncB=N (calls alternate between two variants; prints the median of the pairs' time ratios). Results: bench/README.md,
 * "CPU: where the AVX2 machine's large f32 GEMM spends its time".
 */
public final class GemmProfile {
    static final int MR = GemmKernels.F32_MR, NR = GemmKernels.F32_NR, AS = GemmKernels.AS;
    static final ByteOrder ORDER = ByteOrder.nativeOrder();
    static final int PACKB = 0, PACKA = 1, KERNEL = 2, WAIT = 3, TOTAL = 4, STORE = 5;

    public static void main(String[] args) {
        int size = Integer.parseInt(args[0]), threads = Integer.parseInt(args[1]), calls = Integer.parseInt(args[2]);
        int mcMax = args.length > 3 ? Integer.parseInt(args[3]) : Gemm.F32_MC, ncMax = args.length > 4 ? Integer.parseInt(args[4]) : Gemm.F32_NC;
        String mkn = System.getProperty("gm.mkn"); // m,k,n instead of size³
        int m = mkn == null ? size : Integer.parseInt(mkn.split(",")[0]), k = mkn == null ? size : Integer.parseInt(mkn.split(",")[1]), n = mkn == null ? size : Integer.parseInt(mkn.split(",")[2]);
        Random r = new Random(7);
        MemorySegment as = Arena.global().allocate((long) m * k * 4, 64), bs = Arena.global().allocate((long) k * n * 4, 64), cs = Arena.global().allocate((long) m * n * 4, 64);
        for (long i = 0; i < (long) m * k; i++) as.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        for (long i = 0; i < (long) k * n; i++) bs.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        Gemm.View a = Gemm.View.rowMajor(as, 0, k), b = Gemm.View.rowMajor(bs, 0, n), c = Gemm.View.rowMajor(cs, 0, n);
        Parallel par = new Parallel(threads, 1L << 18);
        Gemm.Blocking blk = Gemm.blocking(m, n, k, MR, NR, Gemm.F32_KC, mcMax, ncMax);
        System.out.printf("size %d threads %d blocking kc %d mc %d nc %d%n", size, threads, blk.kc(), blk.mc(), blk.nc());
        float[] aPack = new float[Math.max(mcMax, blk.mc()) * AS];
        long[][] acc = new long[threads][6];
        long[] walls = new long[calls];
        for (int call = 0; call < calls; call++) {
            Phases phases = new Phases(4 * blk.phases(m, n, k));
            long[][] t = new long[threads][6];
            java.util.concurrent.atomic.AtomicInteger ids = new java.util.concurrent.atomic.AtomicInteger();
            if (AB && !NC_AB && VARIANT.isEmpty()) SHARED_B = (call & 1) == 1;
            VAR_ON = AB && !VARIANT.isEmpty() && (call & 1) == 1;
            Gemm.Blocking blkNow = NC_AB && (call & 1) == 1 ? Gemm.blocking(m, n, k, MR, NR, Gemm.F32_KC, mcMax, Integer.getInteger("gm.ncB")) : blk;
            long t0 = System.nanoTime();
            par.runParticipants(Long.MAX_VALUE, () -> {
                long[] mine = t[ids.getAndIncrement()];
                long s = System.nanoTime();
                participate(m, n, k, a, b, c, blkNow, aPack, phases, threads, mine);
                mine[TOTAL] += System.nanoTime() - s;
            });
            walls[call] = System.nanoTime() - t0;
            if (call >= calls / 2) for (int i = 0; i < threads; i++) for (int j = 0; j < 6; j++) acc[i][j] += t[i][j];
        }
        if (AB) {
            double[] ratio = new double[calls / 4];
            long[] x0 = new long[calls / 4], x1 = new long[calls / 4];
            for (int i = 0; i < calls / 4; i++) {
                int c0 = calls / 2 + 2 * i; // even: SHARED_B false, odd: true
                x0[i] = walls[c0]; x1[i] = walls[c0 + 1];
                ratio[i] = (double) walls[c0 + 1] / walls[c0];
            }
            java.util.Arrays.sort(ratio); java.util.Arrays.sort(x0); java.util.Arrays.sort(x1);
            double flops = 2.0 * m * n * k;
            System.out.printf("A/B over %d pairs: A median %.2f ms (%.1f GFLOP/s), B %.2f ms (%.1f); B/A time ratio median %.3f (p25 %.3f, p75 %.3f)%n",
                    ratio.length, x0[x0.length / 2] / 1e6, flops / x0[x0.length / 2], x1[x1.length / 2] / 1e6, flops / x1[x1.length / 2], ratio[ratio.length / 2], ratio[ratio.length / 4], ratio[3 * ratio.length / 4]);
        }
        int counted = calls - calls / 2;
        long[] sorted = walls.clone();
        java.util.Arrays.sort(sorted, calls / 2, calls);
        double flops = 2.0 * m * n * k;
        System.out.printf("last %d calls: median %.2f ms (%.1f GFLOP/s), best %.2f ms (%.1f)%n", counted,
                sorted[calls / 2 + counted / 2] / 1e6, flops / sorted[calls / 2 + counted / 2], sorted[calls / 2] / 1e6, flops / sorted[calls / 2]);
        for (int i = 0; i < threads; i++) {
            long[] x = acc[i];
            System.out.printf("  participant %d per call: packB %.2f packA %.2f kernel %.2f (of which tile adds %.2f) wait %.2f other %.2f total %.2f ms%n", i,
                    x[PACKB] / 1e6 / counted, x[PACKA] / 1e6 / counted, x[KERNEL] / 1e6 / counted, x[STORE] / 1e6 / counted, x[WAIT] / 1e6 / counted,
                    (x[TOTAL] - x[PACKB] - x[PACKA] - x[KERNEL] - x[WAIT]) / 1e6 / counted, x[TOTAL] / 1e6 / counted);
        }
        double kernelSum = 0;
        for (long[] x : acc) kernelSum += x[KERNEL];
        System.out.printf("  kernel-only GFLOP/s per thread (flops / summed kernel time × threads): %.1f%n", flops * counted / kernelSum);
        par.shutdown();
    }

    /** -Dgm.c=scratch: full tiles go to 6 rows of a per-thread C (wrong results; isolates the cost of C's misses). */
    static final boolean SCRATCH_C = "scratch".equals(System.getProperty("gm.c"));
    static final ThreadLocal<MemorySegment> CS = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(12L * 8192 * 4, 64));
    /** -Dgm.sharedB=true: one B block for all participants, packed by all in chunks of rows (a phase of its own). */
    static boolean SHARED_B = Boolean.getBoolean("gm.sharedB");
    /**
     * -Dgm.variant=two|add|add2|addloop|addsmall with gm.ab: odd calls run that 12-row kernel variant (Kernel12Variants);
     * split: odd calls run float12 and then addTile, even ones Kernel12Variants.addLoop, neither timed; store: odd calls
     * run the product's path (f32, then GemmF32.store's loop), even ones addLoop. Without split or store, the A side of the
     * add variants times its tile add with two System.nanoTime calls a tile (~3.5% of a 1024² GEMM): compare with those.
     */
    static final String VARIANT = System.getProperty("gm.variant", "");
    static volatile boolean VAR_ON;
    /** -Dgm.ab=true: calls alternate SHARED_B false/true; the report then compares the two. */
    static final boolean AB = Boolean.getBoolean("gm.ab");
    /** -Dgm.ncB=N with gm.ab: the odd calls run nc N instead (SHARED_B stays as set). */
    static final boolean NC_AB = Integer.getInteger("gm.ncB") != null;
    static final MemorySegment SHARED_BPACK = Arena.global().allocate(2048L * 384 * 4, 64);
    static final ThreadLocal<float[]> TILE = ThreadLocal.withInitial(() -> new float[MR * NR]);
    static final ThreadLocal<MemorySegment[]> BPACK = ThreadLocal.withInitial(() -> new MemorySegment[1]);

    static void participate(int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, Gemm.Blocking blk, float[] aPack, Phases phases, int threads, long[] t) {
        float[] tile = TILE.get();
        MemorySegment[] bp = BPACK.get();
        if (bp[0] == null || bp[0].byteSize() < (long) blk.nc() * blk.kc() * 4) bp[0] = Arena.ofAuto().allocate((long) blk.nc() * blk.kc() * 4, 64);
        MemorySegment bPack0 = bp[0];
        int phase = 0;
        for (int ic = 0; ic < m; ic += blk.mc()) {
            int i0 = ic, mcur = Math.min(blk.mc(), m - ic), mPanels = Gemm.ceilDiv(mcur, MR);
            for (int pc = 0; pc < k; pc += blk.kc()) {
                int p0 = pc, kc = Math.min(blk.kc(), k - pc);
                boolean add = pc > 0;
                GemmF32.Scratch s = new GemmF32.Scratch(kc, blk.nc());
                for (int jc = 0; jc < n; jc += blk.nc()) {
                    int j0 = jc, ncur = Math.min(blk.nc(), n - jc), nPanels = Gemm.ceilDiv(ncur, NR);
                    int nSplits = Gemm.nSplits(mPanels, nPanels, threads), items = mPanels * nSplits;
                    boolean packInItem = nSplits == 1 && jc == 0, packAFirst = nSplits > 1 && jc == 0;
                    if (SHARED_B) {
                        int chunks = Gemm.ceilDiv(kc, Gemm.PACK_ROWS);
                        phases.run(phase++, chunks, q -> {
                            long s0 = System.nanoTime();
                            GemmF32.packBRows(DType.F32, b, p0, q * Gemm.PACK_ROWS, Math.min(kc, (q + 1) * Gemm.PACK_ROWS), kc, j0, ncur, SHARED_BPACK, s);
                            t[PACKB] += System.nanoTime() - s0;
                        }, t);
                    } else if (phases.unclaimed(phase + (packAFirst ? 1 : 0), items)) {
                        long s0 = System.nanoTime();
                        GemmF32.packBRows(DType.F32, b, p0, 0, kc, kc, j0, ncur, bPack0, s);
                        t[PACKB] += System.nanoTime() - s0;
                    }
                    MemorySegment bPack = SHARED_B ? SHARED_BPACK : bPack0;
                    if (packAFirst) {
                        phases.run(phase++, mPanels, ip -> {
                            long s0 = System.nanoTime();
                            GemmF32.packA(DType.F32, a, i0 + ip * MR, Math.min(MR, mcur - ip * MR), p0, kc, aPack, ip * MR * AS, s);
                            t[PACKA] += System.nanoTime() - s0;
                        }, t);
                    }
                    phases.run(phase++, items, item -> {
                        int ip = item / nSplits, split = item % nSplits;
                        int rows = Math.min(MR, mcur - ip * MR);
                        long s0 = System.nanoTime();
                        if (packInItem) GemmF32.packA(DType.F32, a, i0 + ip * MR, rows, p0, kc, aPack, ip * MR * AS, s);
                        long s1 = System.nanoTime();
                        MemorySegment cseg = SCRATCH_C ? CS.get() : c.segment();
                        long cRow = SCRATCH_C ? (long) n * 4 : c.rowStride() * Float.BYTES;
                        int jpHi = (int) ((long) nPanels * (split + 1) / nSplits);
                        for (int jp = (int) ((long) nPanels * split / nSplits); jp < jpHi; jp++) {
                            int cols = Math.min(NR, ncur - jp * NR);
                            long bAt = (long) jp * NR * kc * Float.BYTES;
                            long at = SCRATCH_C ? j0 + (long) jp * NR : c.offset() + (i0 + (long) ip * MR) * c.rowStride() + j0 + (long) jp * NR;
                            boolean v = VAR_ON;
                            if (MR == 12 && v && rows == MR && cols == NR && !add && (VARIANT.equals("two") || VARIANT.equals("add2"))) {
                                Kernel12Variants.into2(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("two")) {
                                Kernel12Variants.tile2(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                long s3 = System.nanoTime();
                                addTile(tile, cseg, at * Float.BYTES, cRow);
                                t[STORE] += System.nanoTime() - s3;
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("add")) {
                                Kernel12Variants.addInto(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("addloop")) {
                                Kernel12Variants.addLoop(kc, aPack, ip * MR * AS, bPack, bAt, tile, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("split")) {
                                GemmKernels.float12(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                addTile(tile, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("store")) {
                                GemmKernels.f32(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                productStore(tile, rows, cols, c, i0 + ip * MR, j0 + jp * NR, true);
                            } else if (MR == 12 && rows == MR && cols == NR && add && (VARIANT.equals("split") || VARIANT.equals("store"))) {
                                Kernel12Variants.addLoop(kc, aPack, ip * MR * AS, bPack, bAt, tile, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("addsmall")) {
                                Kernel12Variants.addIntoSmall(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && v && rows == MR && cols == NR && add && VARIANT.equals("add2")) {
                                Kernel12Variants.addInto2(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else if (rows == MR && cols == NR && !add) {
                                if (MR == 12) GemmKernels.float12Into(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                                else GemmKernels.float6Into(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else if (MR == 12 && rows == MR && cols == NR) {
                                GemmKernels.f32(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                long s3 = System.nanoTime();
                                addTile(tile, cseg, at * Float.BYTES, cRow);
                                t[STORE] += System.nanoTime() - s3;
                            } else if (rows == MR && cols == NR) {
                                GemmKernels.float6AddInto(kc, aPack, ip * MR * AS, bPack, bAt, cseg, at * Float.BYTES, cRow);
                            } else {
                                GemmKernels.f32(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                store(tile, rows, cols, c, i0 + ip * MR, j0 + jp * NR, add);
                            }
                        }
                        long s2 = System.nanoTime();
                        t[PACKA] += s1 - s0;
                        t[KERNEL] += s2 - s1;
                    }, t);
                }
            }
        }
    }

    static final jdk.incubator.vector.VectorSpecies<Float> F = GemmKernels.F;

    /** GemmF32.store's full-tile add: tile rows added into C, vector by vector. */
    static void addTile(float[] tile, MemorySegment seg, long at, long rowBytes) {
        for (int r = 0; r < MR; r++) {
            long off = at + r * rowBytes;
            for (int q = 0; q < NR; q += F.length()) {
                FloatVector v = FloatVector.fromArray(F, tile, r * NR + q);
                long o = off + (long) q * Float.BYTES;
                v.add(FloatVector.fromMemorySegment(F, seg, o, ORDER)).intoMemorySegment(seg, o, ORDER);
            }
        }
    }

    /** GemmF32.store as the product had it before float12AddInto (its full-tile branch for row-major C). */
    static void productStore(float[] tile, int rows, int cols, Gemm.View c, long i0, long j0, boolean add) {
        MemorySegment seg = c.segment();
        long base = c.offset() + i0 * c.rowStride() + j0 * c.colStride();
        if (cols == NR && c.colStride() == 1) {
            for (int r = 0; r < rows; r++) {
                long off = (base + r * c.rowStride()) * Float.BYTES;
                for (int q = 0; q < NR; q += F.length()) {
                    FloatVector t = FloatVector.fromArray(F, tile, r * NR + q);
                    long at = off + (long) q * Float.BYTES;
                    if (add) t = t.add(FloatVector.fromMemorySegment(F, seg, at, ORDER));
                    t.intoMemorySegment(seg, at, ORDER);
                }
            }
            return;
        }
        store(tile, rows, cols, c, i0, j0, add);
    }

    static void store(float[] tile, int rows, int cols, Gemm.View c, long i0, long j0, boolean add) {
        MemorySegment seg = c.segment();
        for (int r = 0; r < rows; r++) for (int j = 0; j < cols; j++) {
            long at = c.offset() + (i0 + r) * c.rowStride() + j0 + j;
            float v = tile[r * NR + j];
            seg.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at, add ? seg.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at) + v : v);
        }
    }

    /** GemmPhases with the wait after each phase's items timed. */
    static final class Phases {
        final AtomicIntegerArray counters;

        Phases(int phases) { counters = new AtomicIntegerArray(2 * phases); }

        boolean unclaimed(int phase, int count) { return counters.get(2 * phase) < count; }

        void run(int phase, int count, GemmPhases.Item body, long[] t) {
            int next = 2 * phase, done = next + 1;
            for (int i; (i = counters.getAndIncrement(next)) < count; ) {
                body.run(i);
                counters.incrementAndGet(done);
            }
            long s = System.nanoTime();
            for (int spins = 0; counters.get(done) < count; spins++) {
                if (spins < 1 << 9) Thread.onSpinWait();
                else if (spins < 1 << 10) Thread.yield();
                else LockSupport.parkNanos(50_000);
            }
            t[WAIT] += System.nanoTime() - s;
        }
    }
}
