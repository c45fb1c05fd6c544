package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The blocked F64 GEMM behind {@link Gemm#dgemm}: {@code C (+)= A·B}, all F64. It mirrors
 * {@link GemmF32} line for line (same loop nest, packing, tile store and matrix·vector path;
 * see there) with double panels and no narrow-float sources: change the two together.
 */
final class GemmF64 {
    private GemmF64() {}

    private static final VectorSpecies<Double> D = GemmKernels.D;
    private static final int L = D.length();
    private static final int MR = GemmKernels.F64_MR, NR = GemmKernels.F64_NR;
    private static final ValueLayout.OfDouble DL = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** {@code C[m×n] (+)= A[m×k]·B[k×n]}. */
    static void gemm(int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate, Parallel parallel) {
        if (m == 0 || n == 0) return;
        if (k == 0) {
            if (!accumulate) fill(c, m, n);
            return;
        }
        if (c.colStride() != 1 && c.rowStride() == 1) {
            // Cᵀ = Bᵀ·Aᵀ: the tile store then writes contiguous rows.
            gemm(n, m, k, b.transposed(), a.transposed(), c.transposed(), accumulate, parallel);
            return;
        }
        if ((long) m * n * k <= Gemm.SMALL) {
            small(m, n, k, a, b, c, accumulate);
            return;
        }
        if (n == 1) {
            gemv(m, k, a, b, c, accumulate, parallel);
            return;
        }
        if (m == 1) {
            gemv(n, k, b.transposed(), a.transposed(), c.transposed(), accumulate, parallel);
            return;
        }
        blocked(m, n, k, a, b, c, accumulate, parallel);
    }

    /** Tiny problems (batched small matrices): both operands staged once, then a plain fma loop. */
    private static void small(int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate) {
        double[] av = new double[m * k], bv = new double[k * n];
        for (int i = 0; i < m; i++) strip(a.segment(), a.offset() + i * a.rowStride(), a.colStride(), k, av, i * k);
        for (int p = 0; p < k; p++) strip(b.segment(), b.offset() + p * b.rowStride(), b.colStride(), n, bv, p * n);
        MemorySegment seg = c.segment();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double acc = 0;
                for (int p = 0; p < k; p++) acc = Math.fma(av[i * k + p], bv[p * n + j], acc);
                long at = c.offset() + i * c.rowStride() + j * c.colStride();
                seg.setAtIndex(DL, at, accumulate ? seg.getAtIndex(DL, at) + acc : acc);
            }
        }
    }

    private static void blocked(int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c,
                                boolean accumulate, Parallel parallel) {
        Gemm.Blocking blk = Gemm.blocking(m, n, k, MR, NR, Gemm.F64_KC, Gemm.F64_MC, Gemm.F64_NC);
        double[] aPack = WORKSPACE.get().aPack(blk.mc() * blk.kc());
        GemmPhases phases = new GemmPhases(blk.phases(m, n, k));
        phases.runWith(parallel, (long) m * n * k,
                () -> participate(m, n, k, a, b, c, accumulate, blk, aPack, phases, parallel.threads()));
    }

    /**
     * One thread's part of a blocked GEMM. Every participant walks the same sequence of
     * phases and claims items from each; a phase ends when all its items are done (see
     * {@link GemmPhases}), so the packed A blocks are complete before they are read and no
     * longer read before they are overwritten. B blocks are the participant's own, as in {@code GemmF32} (a block
     * shared between two threads streamed half its panels from the other core's L2).
     */
    private static void participate(int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate,
                                    Gemm.Blocking blk, double[] aPack, GemmPhases phases, int threads) {
        Workspace w = WORKSPACE.get();
        double[] tile = w.tile;
        MemorySegment bPack = w.bPack(blk.nc() * blk.kc());
        int phase = 0;
        for (int ic = 0; ic < m; ic += blk.mc()) {
            int i0 = ic, mcur = Math.min(blk.mc(), m - ic), mPanels = Gemm.ceilDiv(mcur, MR);
            for (int pc = 0; pc < k; pc += blk.kc()) {
                int p0 = pc, kc = Math.min(blk.kc(), k - pc);
                boolean add = accumulate || pc > 0;
                Scratch s = w.scratch(kc, blk.nc());
                for (int jc = 0; jc < n; jc += blk.nc()) {
                    int j0 = jc, ncur = Math.min(blk.nc(), n - jc), nPanels = Gemm.ceilDiv(ncur, NR);
                    int nSplits = Gemm.nSplits(mPanels, nPanels, threads), items = mPanels * nSplits;
                    // Each A panel is packed by the item that first uses it (in the first column
                    // block); when several items share a panel, all panels are packed first.
                    boolean packInItem = nSplits == 1 && jc == 0, packAFirst = nSplits > 1 && jc == 0;
                    if (phases.unclaimed(phase + (packAFirst ? 1 : 0), items)) packB(b, p0, kc, j0, ncur, bPack, s);
                    if (packAFirst) {
                        phases.run(phase++, mPanels, ip -> packA(a, i0 + ip * MR, Math.min(MR, mcur - ip * MR), p0, kc, aPack, ip * MR * kc, s));
                    }
                    phases.run(phase++, items, item -> {
                        int ip = item / nSplits, split = item % nSplits;
                        int rows = Math.min(MR, mcur - ip * MR);
                        if (packInItem) packA(a, i0 + ip * MR, rows, p0, kc, aPack, ip * MR * kc, s);
                        int jpHi = (int) ((long) nPanels * (split + 1) / nSplits);
                        // one A panel (L1) against a run of B panels (L2): C tiles advance along rows
                        for (int jp = (int) ((long) nPanels * split / nSplits); jp < jpHi; jp++) {
                            GemmKernels.f64(kc, aPack, ip * MR * kc, bPack, (long) jp * NR * kc * Double.BYTES, tile);
                            store(tile, rows, Math.min(NR, ncur - jp * NR), c, i0 + ip * MR, j0 + jp * NR, add);
                        }
                    });
                }
            }
        }
    }

    /**
     * Per-thread buffers, kept between calls so that GEMMs allocate (and zero) nothing: the
     * caller's packed A block (at most {@code MC×KC} on the heap), every participant's packed B
     * block (at most {@code KC×NC} of automatically freed native memory), tile and scratch.
     */
    private static final ThreadLocal<Workspace> WORKSPACE = ThreadLocal.withInitial(Workspace::new);

    private static final class Workspace {
        final double[] tile = new double[MR * NR];
        private double[] aPack = new double[0];
        private MemorySegment bPack = MemorySegment.NULL;
        private Scratch scratch = new Scratch(0, 0);

        double[] aPack(int size) {
            if (aPack.length < size) aPack = new double[size];
            return aPack;
        }

        MemorySegment bPack(int size) {
            if (bPack.byteSize() < (long) size * Double.BYTES) bPack = Arena.ofAuto().allocate((long) size * Double.BYTES, 64);
            return bPack;
        }

        Scratch scratch(int kc, int rowLen) {
            if (!scratch.fits(kc, rowLen)) scratch = new Scratch(Math.max(kc, scratch.kc), Math.max(rowLen, scratch.rowLen));
            return scratch;
        }
    }

    /** Per-task buffers for transposing strips. */
    static final class Scratch {
        /** Up to max(MR, NR) strips of kc, or one row of the B block. */
        final double[] f;
        /** Gather offsets: {@code j·kc} for the lanes of a vector. */
        final int[] lanes = new int[L];
        final int kc, rowLen;

        Scratch(int kc, int rowLen) {
            this.kc = kc;
            this.rowLen = rowLen;
            f = new double[Math.max(Math.max(MR, NR) * kc, rowLen)];
        }

        boolean fits(int kc, int rowLen) { return kc <= this.kc && rowLen <= this.rowLen; }
    }

    /** Rows {@code [pLo, pHi)} of B's {@code kc×ncur} block at {@code (p0, j0)} → the NR panels of {@code dst}. */
    /** B's {@code kc×ncur} block at {@code (p0, j0)} → the NR panels of {@code dst}, read along B's contiguous direction. */
    private static void packB(Gemm.View b, int p0, int kc, int j0, int ncur, MemorySegment dst, Scratch s) {
        if (Gemm.alongFirst(b.colStride(), b.rowStride(), ncur, kc)) {
            packBRows(b, p0, 0, kc, kc, j0, ncur, dst, s);
        } else {
            for (int jp = 0; jp * NR < ncur; jp++) packBColumns(b, p0, kc, j0 + jp * NR, Math.min(NR, ncur - jp * NR), dst, (long) jp * NR * kc, s);
        }
    }

    static void packBRows(Gemm.View b, int p0, int pLo, int pHi, int kc, long j0, int ncur, MemorySegment dst, Scratch s) {
        MemorySegment seg = b.segment();
        int full = ncur / NR, tail = ncur - full * NR;
        for (int p = pLo; p < pHi; p++) {
            long start = b.offset() + (p0 + p) * b.rowStride() + j0 * b.colStride();
            long at = (long) p * NR;
            if (b.colStride() == 1) {
                long off = start * Double.BYTES;
                for (int jp = 0; jp < full; jp++, off += NR * Double.BYTES) {
                    long d = ((long) jp * NR * kc + at) * Double.BYTES;
                    for (int q = 0; q < NR; q += L) DoubleVector.fromMemorySegment(D, seg, off + (long) q * Double.BYTES, ORDER).intoMemorySegment(dst, d + (long) q * Double.BYTES, ORDER);
                }
                if (tail > 0) MemorySegment.copy(seg, off, dst, ((long) full * NR * kc + at) * Double.BYTES, (long) tail * Double.BYTES);
            } else {
                strip(seg, start, b.colStride(), ncur, s.f, 0);
                for (int jp = 0; jp * NR < ncur; jp++) MemorySegment.copy(s.f, jp * NR, dst, DL, ((long) jp * NR * kc + at) * Double.BYTES, Math.min(NR, ncur - jp * NR));
            }
            if (tail > 0) dst.asSlice(((long) full * NR * kc + at + tail) * Double.BYTES, (long) (NR - tail) * Double.BYTES).fill((byte) 0);
        }
    }

    /** B columns {@code [j0, j0+cols)}, rows {@code [p0, p0+kc)}, read column-wise → {@code dst[at + p·NR + j]}, zero-padded. */
    static void packBColumns(Gemm.View b, int p0, int kc, long j0, int cols, MemorySegment dst, long at, Scratch s) {
        long base = b.offset() + p0 * b.rowStride() + j0 * b.colStride();
        double[] f = s.f;
        for (int j = 0; j < cols; j++) strip(b.segment(), base + j * b.colStride(), b.rowStride(), kc, f, j * kc);
        if (cols < NR) Arrays.fill(f, cols * kc, NR * kc, 0.0);
        // transpose with gathers: lane j of step p reads f[j·kc + p]
        int[] lanes = s.lanes;
        for (int j = 0; j < L; j++) lanes[j] = j * kc;
        for (int p = 0; p < kc; p++) {
            long d = (at + (long) p * NR) * Double.BYTES;
            for (int q = 0; q < NR; q += L) DoubleVector.fromArray(D, f, q * kc + p, lanes, 0).intoMemorySegment(dst, d + (long) q * Double.BYTES, ORDER);
        }
    }

    /** A rows {@code [i0, i0+rows)}, columns {@code [p0, p0+kc)} → {@code dst[at + p·MR + r]}, zero-padded to MR. */
    static void packA(Gemm.View a, long i0, int rows, int p0, int kc, double[] dst, int at, Scratch s) {
        long base = a.offset() + i0 * a.rowStride() + p0 * a.colStride();
        if (Gemm.alongFirst(a.rowStride(), a.colStride(), rows, kc)) {
            for (int p = 0; p < kc; p++) {
                strip(a.segment(), base + p * a.colStride(), a.rowStride(), rows, dst, at + p * MR);
                if (rows < MR) Arrays.fill(dst, at + p * MR + rows, at + (p + 1) * MR, 0.0);
            }
            return;
        }
        // rows are the contiguous direction: stage MR rows, then transpose into the panel
        double[] f = s.f;
        for (int r = 0; r < rows; r++) strip(a.segment(), base + r * a.rowStride(), a.colStride(), kc, f, r * kc);
        // transpose into the panel: lane r of step p is f[r·kc + p]; the rows past {@code rows} are zero
        // (plain loops: masked gathers are not intrinsified everywhere and fall back to per-lane lambdas)
        for (int r = 0; r < rows; r++) {
            int from = r * kc, to = at + r;
            for (int p = 0; p < kc; p++) dst[to + p * MR] = f[from + p];
        }
        for (int r = rows; r < MR; r++) {
            for (int p = 0; p < kc; p++) dst[at + r + p * MR] = 0.0;
        }
    }

    /** {@code len} elements from element {@code start} step {@code stride} into {@code dst[at, at+len)}. */
    private static void strip(MemorySegment seg, long start, long stride, int len, double[] dst, int at) {
        if (stride == 1) MemorySegment.copy(seg, DL, start * Double.BYTES, dst, at, len);
        else for (int q = 0; q < len; q++) dst[at + q] = seg.getAtIndex(DL, start + q * stride);
    }

    /** Writes (or adds) the valid {@code rows×cols} corner of a tile to C at {@code (i0, j0)}. */
    private static void store(double[] tile, int rows, int cols, Gemm.View c, long i0, long j0, boolean add) {
        MemorySegment seg = c.segment();
        long base = c.offset() + i0 * c.rowStride() + j0 * c.colStride();
        if (cols == NR && c.colStride() == 1) {
            for (int r = 0; r < rows; r++) {
                long off = (base + r * c.rowStride()) * Double.BYTES;
                for (int q = 0; q < NR; q += L) {
                    DoubleVector t = DoubleVector.fromArray(D, tile, r * NR + q);
                    long at = off + (long) q * Double.BYTES;
                    if (add) t = t.add(DoubleVector.fromMemorySegment(D, seg, at, ORDER));
                    t.intoMemorySegment(seg, at, ORDER);
                }
            }
            return;
        }
        for (int r = 0; r < rows; r++) {
            long row = base + r * c.rowStride();
            for (int j = 0; j < cols; j++) {
                long at = row + j * c.colStride();
                double v = tile[r * NR + j];
                seg.setAtIndex(DL, at, add ? seg.getAtIndex(DL, at) + v : v);
            }
        }
    }

    /** Matrix·vector: {@code y[m] (+)= A[m×k]·x[k]} ({@code x}, {@code y} as k×1 and m×1 views). */
    private static void gemv(int m, int k, Gemm.View a, Gemm.View x, Gemm.View y, boolean accumulate, Parallel parallel) {
        boolean rowStrips = Gemm.alongFirst(a.colStride(), a.rowStride(), k, m);
        // row strips: a dot product per row; column strips: long contiguous column pieces, axpy'd
        int rowsPer = rowStrips ? Gemm.GEMV_ROWS : Gemm.GEMV_CHUNK, chunk = Gemm.GEMV_CHUNK;
        parallel.forRange(Gemm.ceilDiv(m, rowsPer), (long) rowsPer * k, (lo, hi) -> {
            double[] buf = new double[Math.max(rowsPer, chunk)], xs = new double[chunk];
            double[] sums = new double[rowsPer];
            for (long blk = lo; blk < hi; blk++) {
                long i0 = blk * rowsPer;
                int rows = (int) Math.min(rowsPer, m - i0);
                Arrays.fill(sums, 0.0);
                for (int p0 = 0; p0 < k; p0 += chunk) {
                    int len = Math.min(chunk, k - p0);
                    strip(x.segment(), x.offset() + p0 * x.rowStride(), x.rowStride(), len, xs, 0);
                    long base = a.offset() + i0 * a.rowStride() + p0 * a.colStride();
                    if (rowStrips) {
                        for (int r = 0; r < rows; r++) {
                            strip(a.segment(), base + r * a.rowStride(), a.colStride(), len, buf, 0);
                            sums[r] += dot(buf, xs, len);
                        }
                    } else {
                        for (int q = 0; q < len; q++) {
                            strip(a.segment(), base + q * a.colStride(), a.rowStride(), rows, buf, 0);
                            axpy(xs[q], buf, sums, rows);
                        }
                    }
                }
                MemorySegment seg = y.segment();
                for (int r = 0; r < rows; r++) {
                    long at = y.offset() + (i0 + r) * y.rowStride();
                    seg.setAtIndex(DL, at, accumulate ? seg.getAtIndex(DL, at) + sums[r] : sums[r]);
                }
            }
        });
    }

    /** {@code Σ u[q]·x[q]} for {@code q < len}, four vector chains. */
    private static double dot(double[] u, double[] x, int len) {
        DoubleVector s0 = DoubleVector.zero(D), s1 = s0, s2 = s0, s3 = s0;
        int q = 0;
        for (; q + 4 * L <= len; q += 4 * L) {
            s0 = DoubleVector.fromArray(D, u, q).fma(DoubleVector.fromArray(D, x, q), s0);
            s1 = DoubleVector.fromArray(D, u, q + L).fma(DoubleVector.fromArray(D, x, q + L), s1);
            s2 = DoubleVector.fromArray(D, u, q + 2 * L).fma(DoubleVector.fromArray(D, x, q + 2 * L), s2);
            s3 = DoubleVector.fromArray(D, u, q + 3 * L).fma(DoubleVector.fromArray(D, x, q + 3 * L), s3);
        }
        for (; q + L <= len; q += L) s0 = DoubleVector.fromArray(D, u, q).fma(DoubleVector.fromArray(D, x, q), s0);
        double sum = LaneSums.inOrder(s0.add(s1).add(s2.add(s3)));
        for (; q < len; q++) sum = Math.fma(u[q], x[q], sum);
        return sum;
    }

    /** {@code sums[r] += xv·col[r]} for {@code r < rows}. */
    private static void axpy(double xv, double[] col, double[] sums, int rows) {
        DoubleVector xb = DoubleVector.broadcast(D, xv);
        int r = 0;
        for (; r + L <= rows; r += L) xb.fma(DoubleVector.fromArray(D, col, r), DoubleVector.fromArray(D, sums, r)).intoArray(sums, r);
        for (; r < rows; r++) sums[r] = Math.fma(xv, col[r], sums[r]);
    }

    private static void fill(Gemm.View c, int m, int n) {
        for (long i = 0; i < m; i++) for (long j = 0; j < n; j++) c.segment().setAtIndex(DL, c.offset() + i * c.rowStride() + j * c.colStride(), 0.0);
    }
}
