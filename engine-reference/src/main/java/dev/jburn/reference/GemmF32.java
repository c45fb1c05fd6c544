package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The blocked F32 GEMM behind {@link Gemm#sgemm} and {@link Gemm#hgemm}: {@code C (+)= A·B}
 * with A and B of F32, F16 or BF16 elements (widened to F32 while packing; exact) and C of F32.
 *
 * <p>Loop nest: for each {@code MC}-row block of A and each {@code KC}-deep slice, the block
 * of A is packed once into MR-row panels, shared by all threads; for each {@code NC}-column
 * block of B, every participant packs B's whole {@code KC×NC} block into NR-column panels of
 * its own. Then the threads split the A panels (and, when there are few, the B panels) and
 * run the micro-kernel for each A panel (in L1) against a run of B panels (streaming from
 * L2), so the C tiles it updates advance along C's rows, which the hardware prefetcher
 * follows. Packing reads any strides, so transposed operands cost no copy. Partial panels are
 * padded with zeros; the tile store writes only the valid part. Packed A panels live in a heap
 * array, each row of a panel at {@link GemmKernels#AS} from the previous one (row-major A packs
 * with a bulk copy per row), packed B panels in 64-byte aligned native memory (see
 * {@link GemmKernels} for why). Full tiles of row-major C in the first kc block are stored by
 * the kernel itself; later blocks add to C through the tile, except with 6-row tiles (AVX2), whose kernel adds into C
 * itself too.
 *
 * <p>Why not the classic Goto order (one B panel resident in L1, A panels streaming from L2):
 * the kernel loads 2 B vectors (128 bytes) per step from L2 for 24 fmas here, 2.7x the traffic
 * of streaming A, but L2 keeps up. Kernel alone (KernelLab, one thread, GFLOP/s): A resident and
 * 24 B panels streaming 185-205 (kc 384) and 185-194 (kc 256); one B panel resident and 64 A
 * panels streaming from an MC×KC block 184-194 (kc 256), 175-183 (kc 384), and 166 when C's rows
 * are 8 KiB apart (2048 columns: the column of tiles it then walks falls into the same L1
 * sets); two threads at once, 170-187 per thread either way. The order stays.
 *
 * <p>Why each participant packs all of B: with one shared B block packed half by each of two
 * threads, every kernel streamed half its B panels out of the other core's L2, and the items
 * of a two-thread GEMM ran ~1.5x as long as single-threaded ones. Packing B twice costs a few
 * µs; a private copy made two-thread GEMMs 12-17% faster (256²: 145 -> 124 µs,
 * [128,784]·[784,256]: 275 -> 241, [128,1600]·[1600,128]: 333 -> 277). A participant that
 * arrives after every item of a block has been claimed skips its pack.
 */
final class GemmF32 {
    private GemmF32() {}

    private static final VectorSpecies<Float> F = GemmKernels.F;
    private static final int L = F.length();
    private static final int MR = GemmKernels.F32_MR, NR = GemmKernels.F32_NR, AS = GemmKernels.AS;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort SL = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** {@code C[m×n] (+)= A[m×k]·B[k×n]}; A and B hold {@code src} elements, C holds F32. */
    static void gemm(DType src, int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate, Parallel parallel) {
        if (m == 0 || n == 0) return;
        if (k == 0) {
            if (!accumulate) fill(c, m, n);
            return;
        }
        if (c.colStride() != 1 && c.rowStride() == 1) {
            // Cᵀ = Bᵀ·Aᵀ: the tile store then writes contiguous rows.
            gemm(src, n, m, k, b.transposed(), a.transposed(), c.transposed(), accumulate, parallel);
            return;
        }
        if (src == DType.F32 && (long) m * n * k <= Gemm.SMALL) {
            small(DType.F32, m, n, k, a, b, c, accumulate);
            return;
        }
        if (n == 1) {
            gemv(src, m, k, a, b, c, accumulate, parallel);
            return;
        }
        if (m == 1) {
            gemv(src, n, k, b.transposed(), a.transposed(), c.transposed(), accumulate, parallel);
            return;
        }
        if (transposeFills(m, n, MR, NR)) {
            // Cᵀ = Bᵀ·Aᵀ fills the tiles better (e.g. a [128,256]·[256,10] classifier layer: 10 of 12 tile
            // rows used instead of 10 of 32 tile columns); its tiles are stored element by element
            blocked(src, n, m, k, b.transposed(), a.transposed(), c.transposed(), accumulate, parallel);
            return;
        }
        blocked(src, m, n, k, a, b, c, accumulate, parallel);
    }

    /**
     * Whether an m×n output padded to mr×nr tiles needs at most half the padded area as its
     * transpose (n×m). Only then: the transposed tiles are stored element by element, which costs
     * about a quarter of a tile's fmas at kc = 144 (an im2col GEMM with 16 output channels would lose).
     */
    static boolean transposeFills(int m, int n, int mr, int nr) {
        long straight = (long) Gemm.roundUp(m, mr) * Gemm.roundUp(n, nr);
        long flipped = (long) Gemm.roundUp(n, mr) * Gemm.roundUp(m, nr);
        return 2 * flipped <= straight;
    }

    /**
     * Tiny problems (batched small matrices): both operands staged once, then a plain fma
     * loop. A, B and C all hold {@code t} elements (F32, or F16/BF16 rounded once at the end).
     */
    static void small(DType t, int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate) {
        float[] av = new float[m * k], bv = new float[k * n];
        Scratch s = WORKSPACE.get().scratch(k, n);
        for (int i = 0; i < m; i++) strip(t, a.segment(), a.offset() + i * a.rowStride(), a.colStride(), k, av, i * k, s);
        for (int p = 0; p < k; p++) strip(t, b.segment(), b.offset() + p * b.rowStride(), b.colStride(), n, bv, p * n, s);
        MemorySegment seg = c.segment();
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                float acc = 0;
                for (int p = 0; p < k; p++) acc = Math.fma(av[i * k + p], bv[p * n + j], acc);
                long at = c.offset() + i * c.rowStride() + j * c.colStride();
                if (t == DType.F32) {
                    seg.setAtIndex(FL, at, accumulate ? seg.getAtIndex(FL, at) + acc : acc);
                } else {
                    float v = accumulate ? Gemm.widenHalf(t, seg.getAtIndex(SL, at)) + acc : acc;
                    seg.setAtIndex(SL, at, Gemm.narrowHalf(t, v));
                }
            }
        }
    }

    private static void blocked(DType src, int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c,
                                boolean accumulate, Parallel parallel) {
        Gemm.Blocking blk = Gemm.blocking(m, n, k, MR, NR, Gemm.F32_KC, Gemm.F32_MC, Gemm.F32_NC);
        float[] aPack = WORKSPACE.get().aPack(blk.mc() * AS);
        GemmPhases phases = new GemmPhases(blk.phases(m, n, k));
        phases.runWith(parallel, (long) m * n * k,
                () -> participate(src, m, n, k, a, b, c, accumulate, blk, aPack, phases, parallel.threads()));
    }

    /**
     * One thread's part of a blocked GEMM. Every participant walks the same sequence of
     * phases and claims items from each; a phase ends when all its items are done (see
     * {@link GemmPhases}), so the packed A blocks are complete before they are read and no
     * longer read before they are overwritten. B blocks are the participant's own.
     */
    private static void participate(DType src, int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean accumulate,
                                    Gemm.Blocking blk, float[] aPack, GemmPhases phases, int threads) {
        Workspace w = WORKSPACE.get();
        float[] tile = w.tile;
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
                    if (phases.unclaimed(phase + (packAFirst ? 1 : 0), items)) packB(src, b, p0, kc, j0, ncur, bPack, s);
                    if (packAFirst) {
                        phases.run(phase++, mPanels, ip -> packA(src, a, i0 + ip * MR, Math.min(MR, mcur - ip * MR), p0, kc, aPack, ip * MR * AS, s));
                    }
                    phases.run(phase++, items, item -> {
                        int ip = item / nSplits, split = item % nSplits;
                        int rows = Math.min(MR, mcur - ip * MR);
                        if (packInItem) packA(src, a, i0 + ip * MR, rows, p0, kc, aPack, ip * MR * AS, s);
                        int jpHi = (int) ((long) nPanels * (split + 1) / nSplits);
                        // one A panel (L1) against a run of B panels (L2): C tiles advance along rows
                        for (int jp = (int) ((long) nPanels * split / nSplits); jp < jpHi; jp++) {
                            int cols = Math.min(NR, ncur - jp * NR);
                            long bAt = (long) jp * NR * kc * Float.BYTES;
                            if (!add && rows == MR && cols == NR && c.colStride() == 1) {
                                // a full tile of row-major C: the kernel stores it itself. Adding to C (kc blocks after the
                                // first) goes through the tile for 12 rows: a 12-row kernel that adds into C is too large for
                                // C1 ("out of virtual registers"), and in half of fresh JVMs C2 then never compiled it (jburn
                                // train's MLP at 7k samples/s instead of 50k for the whole run). The 6-row one (below) compiled
                                // at tiers 3 and 4 in each of three fresh JVMs (-XX:+PrintCompilation) and makes the AVX2
                                // machine's 1024² and 2048² GEMMs 2-5% faster than the tile
                                long at = c.offset() + (i0 + (long) ip * MR) * c.rowStride() + j0 + (long) jp * NR;
                                if (MR == 12) GemmKernels.float12Into(kc, aPack, ip * MR * AS, bPack, bAt, c.segment(), at * Float.BYTES, c.rowStride() * Float.BYTES);
                                else GemmKernels.float6Into(kc, aPack, ip * MR * AS, bPack, bAt, c.segment(), at * Float.BYTES, c.rowStride() * Float.BYTES);
                            } else if (MR == 6 && rows == MR && cols == NR && c.colStride() == 1) {
                                long at = c.offset() + (i0 + (long) ip * MR) * c.rowStride() + j0 + (long) jp * NR;
                                GemmKernels.float6AddInto(kc, aPack, ip * MR * AS, bPack, bAt, c.segment(), at * Float.BYTES, c.rowStride() * Float.BYTES);
                            } else {
                                GemmKernels.f32(kc, aPack, ip * MR * AS, bPack, bAt, tile);
                                store(tile, rows, cols, c, i0 + ip * MR, j0 + jp * NR, add);
                            }
                        }
                    });
                }
            }
        }
    }

    /**
     * Per-thread buffers, kept between calls so that GEMMs allocate (and zero) nothing: the
     * caller's packed A block (at most {@code MC×AS}: 6.3 MiB on the heap), every participant's
     * packed B block (at most {@code KC×NC}: 1.1 MiB, 1.5 MiB with 8-lane vectors, of automatically freed native memory),
     * tile and scratch.
     */
    private static final ThreadLocal<Workspace> WORKSPACE = ThreadLocal.withInitial(Workspace::new);

    private static final class Workspace {
        final float[] tile = new float[MR * NR];
        private float[] aPack = new float[0];
        private MemorySegment bPack = MemorySegment.NULL;
        private Scratch scratch = new Scratch(0, 0);

        float[] aPack(int size) {
            if (aPack.length < size) aPack = new float[size];
            return aPack;
        }

        MemorySegment bPack(int size) {
            if (bPack.byteSize() < (long) size * Float.BYTES) bPack = Arena.ofAuto().allocate((long) size * Float.BYTES, 64);
            return bPack;
        }

        Scratch scratch(int kc, int rowLen) {
            if (!scratch.fits(kc, rowLen)) scratch = new Scratch(Math.max(kc, scratch.kc), Math.max(rowLen, scratch.rowLen));
            return scratch;
        }
    }

    /** Per-task buffers for widening and transposing strips. */
    static final class Scratch {
        /** Up to max(MR, NR) strips of kc, or one row of the B block. */
        final float[] f;
        /** Gather offsets: {@code j·kc} for the lanes of a vector. */
        final int[] lanes = new int[L];
        /** {@link #packAColumns}' L×L block of L steps' rows, and its gather offsets {@code q·L} (step q of a row). */
        final float[] block = new float[L * L];
        final int[] steps = new int[L];
        /** One strip of narrow floats before widening. */
        final short[] h;
        final int kc, rowLen;

        Scratch(int kc, int rowLen) {
            this.kc = kc;
            this.rowLen = rowLen;
            for (int q = 0; q < L; q++) steps[q] = q * L;
            f = new float[Math.max(Math.max(MR, NR) * kc, rowLen)];
            h = new short[Math.max(Math.max(MR, NR), Math.max(kc, rowLen))];
        }

        boolean fits(int kc, int rowLen) { return kc <= this.kc && rowLen <= this.rowLen; }
    }

    /** B's {@code kc×ncur} block at {@code (p0, j0)} → the NR panels of {@code dst}, read along B's contiguous direction. */
    private static void packB(DType src, Gemm.View b, int p0, int kc, int j0, int ncur, MemorySegment dst, Scratch s) {
        if (Gemm.alongFirst(b.colStride(), b.rowStride(), ncur, kc)) {
            packBRows(src, b, p0, 0, kc, kc, j0, ncur, dst, s);
        } else {
            for (int jp = 0; jp * NR < ncur; jp++) packBColumns(src, b, p0, kc, j0 + jp * NR, Math.min(NR, ncur - jp * NR), dst, (long) jp * NR * kc, s);
        }
    }

    /** Rows {@code [pLo, pHi)} of B's {@code kc×ncur} block at {@code (p0, j0)} → the NR panels of {@code dst}. */
    static void packBRows(DType src, Gemm.View b, int p0, int pLo, int pHi, int kc, long j0, int ncur, MemorySegment dst, Scratch s) {
        MemorySegment seg = b.segment();
        int full = ncur / NR, tail = ncur - full * NR;
        for (int p = pLo; p < pHi; p++) {
            long start = b.offset() + (p0 + p) * b.rowStride() + j0 * b.colStride();
            long at = (long) p * NR;
            if (src == DType.F32 && b.colStride() == 1) {
                long off = start * Float.BYTES;
                for (int jp = 0; jp < full; jp++, off += NR * Float.BYTES) {
                    long d = ((long) jp * NR * kc + at) * Float.BYTES;
                    for (int q = 0; q < NR; q += L) FloatVector.fromMemorySegment(F, seg, off + (long) q * Float.BYTES, ORDER).intoMemorySegment(dst, d + (long) q * Float.BYTES, ORDER);
                }
                if (tail > 0) MemorySegment.copy(seg, off, dst, ((long) full * NR * kc + at) * Float.BYTES, (long) tail * Float.BYTES);
            } else {
                strip(src, seg, start, b.colStride(), ncur, s.f, 0, s);
                for (int jp = 0; jp * NR < ncur; jp++) MemorySegment.copy(s.f, jp * NR, dst, FL, ((long) jp * NR * kc + at) * Float.BYTES, Math.min(NR, ncur - jp * NR));
            }
            if (tail > 0) dst.asSlice(((long) full * NR * kc + at + tail) * Float.BYTES, (long) (NR - tail) * Float.BYTES).fill((byte) 0);
        }
    }

    /** B columns {@code [j0, j0+cols)}, rows {@code [p0, p0+kc)}, read column-wise → {@code dst[at + p·NR + j]}, zero-padded. */
    static void packBColumns(DType src, Gemm.View b, int p0, int kc, long j0, int cols, MemorySegment dst, long at, Scratch s) {
        long base = b.offset() + p0 * b.rowStride() + j0 * b.colStride();
        float[] f = s.f;
        for (int j = 0; j < cols; j++) strip(src, b.segment(), base + j * b.colStride(), b.rowStride(), kc, f, j * kc, s);
        if (cols < NR) Arrays.fill(f, cols * kc, NR * kc, 0f);
        // transpose with gathers: lane j of step p reads f[j·kc + p]
        int[] lanes = s.lanes;
        for (int j = 0; j < L; j++) lanes[j] = j * kc;
        for (int p = 0; p < kc; p++) {
            long d = (at + (long) p * NR) * Float.BYTES;
            for (int q = 0; q < NR; q += L) FloatVector.fromArray(F, f, q * kc + p, lanes, 0).intoMemorySegment(dst, d + (long) q * Float.BYTES, ORDER);
        }
    }

    /**
     * A rows {@code [i0, i0+rows)}, columns {@code [p0, p0+kc)} → {@code dst[at + r·AS + p]} (row r of the panel at
     * {@link GemmKernels#AS}), rows {@code [rows, MR)} zero. Writes only those MR strips of kc floats.
     */
    static void packA(DType src, Gemm.View a, long i0, int rows, int p0, int kc, float[] dst, int at, Scratch s) {
        long base = a.offset() + i0 * a.rowStride() + p0 * a.colStride();
        if (Gemm.alongFirst(a.rowStride(), a.colStride(), rows, kc)) {
            if (src == DType.F32) packAColumns(a.segment(), base, a.rowStride(), a.colStride(), rows, kc, dst, at, s);
            else packAStrips(src, a, base, rows, kc, dst, at, s);
        } else {
            packARows(src, a, base, rows, kc, dst, at, s);
        }
        for (int r = rows; r < MR; r++) Arrays.fill(dst, at + r * AS, at + r * AS + kc, 0f);
    }

    /**
     * The rows of A (any type, any strides), each one strip straight into its panel row: for row-major F32 a bulk
     * copy per row. This is why panels hold rows: the former step-interleaved layout ({@code p·MR + r}) needed a
     * scalar transposing pass, ~5% of a 1024² or 2048² GEMM.
     */
    static void packARows(DType src, Gemm.View a, long base, int rows, int kc, float[] dst, int at, Scratch s) {
        for (int r = 0; r < rows; r++) strip(src, a.segment(), base + r * a.rowStride(), a.colStride(), kc, dst, at + r * AS, s);
    }

    /** The columns of A (any type, any strides) one strip of {@code rows} at a time, then spread over the panel's rows: {@link #packAColumns}' twin. */
    static void packAStrips(DType src, Gemm.View a, long base, int rows, int kc, float[] dst, int at, Scratch s) {
        float[] f = s.f;
        for (int p = 0; p < kc; p++) {
            strip(src, a.segment(), base + p * a.colStride(), a.rowStride(), rows, f, 0, s);
            for (int r = 0; r < rows; r++) dst[at + r * AS + p] = f[r];
        }
    }

    /**
     * An F32 panel whose rows are contiguous (or closest) in each column (A stored transposed, as in a weight
     * gradient Xᵀ·dY, or the Bᵀ of a narrow output run as Cᵀ = Bᵀ·Aᵀ), transposed L steps at a time where one
     * vector holds a step's rows: each step's rows with one vector load into an L×L block of the scratch (masked
     * only where a whole vector would pass the end of the segment), then each row's L steps with one gather from
     * it. The remaining steps, other strides and panels wider than a vector (128-bit vectors: 4 lanes, 6 rows),
     * one element at a time. A 12-row panel of 128 steps from a [128,784] activation (PackLab, one
     * thread): 1.33 µs element by element, 0.41-0.44 µs with masked loads, 0.35-0.37 µs so. Element by element,
     * the [784,128]ᵀ·[128,256] weight gradient ran 16% slower than with the former layout's pack.
     */
    static void packAColumns(MemorySegment seg, long base, long rowStride, long colStride, int rows, int kc, float[] dst, int at, Scratch s) {
        int p = 0;
        if (rowStride == 1 && rows <= L) {
            VectorMask<Float> valid = F.indexInRange(0, rows);
            float[] block = s.block;
            long lastVector = seg.byteSize() / Float.BYTES - L; // the last element a whole vector may start at
            for (; p + L <= kc; p += L) {
                long e = base + p * colStride;
                if (Math.max(e, e + (L - 1) * colStride) <= lastVector) {
                    // every load in bounds: whole vectors (lanes past the panel's rows are read and never used)
                    for (int q = 0; q < L; q++) FloatVector.fromMemorySegment(F, seg, (e + q * colStride) * Float.BYTES, ORDER).intoArray(block, q * L);
                } else {
                    for (int q = 0; q < L; q++) FloatVector.fromMemorySegment(F, seg, (e + q * colStride) * Float.BYTES, ORDER, valid).intoArray(block, q * L);
                }
                for (int r = 0; r < rows; r++) FloatVector.fromArray(F, block, r, s.steps, 0).intoArray(dst, at + r * AS + p);
            }
        }
        for (; p < kc; p++) {
            long e = base + p * colStride;
            for (int r = 0; r < rows; r++) dst[at + r * AS + p] = seg.getAtIndex(FL, e + r * rowStride);
        }
    }

    /** {@code len} elements from element {@code start} step {@code stride}, widened to F32, into {@code dst[at, at+len)}. */
    private static void strip(DType src, MemorySegment seg, long start, long stride, int len, float[] dst, int at, Scratch s) {
        if (src == DType.F32) {
            if (stride == 1) MemorySegment.copy(seg, FL, start * Float.BYTES, dst, at, len);
            else for (int q = 0; q < len; q++) dst[at + q] = seg.getAtIndex(FL, start + q * stride);
            return;
        }
        boolean bf16 = src == DType.BF16;
        if (stride == 1) {
            MemorySegment.copy(seg, SL, start * Short.BYTES, s.h, 0, len);
            short[] h = s.h;
            if (bf16) for (int q = 0; q < len; q++) dst[at + q] = HostElements.bf16ToFloat(h[q]);
            else for (int q = 0; q < len; q++) dst[at + q] = Float.float16ToFloat(h[q]);
        } else {
            for (int q = 0; q < len; q++) {
                short v = seg.getAtIndex(SL, start + q * stride);
                dst[at + q] = bf16 ? HostElements.bf16ToFloat(v) : Float.float16ToFloat(v);
            }
        }
    }

    /** Writes (or adds) the valid {@code rows×cols} corner of a tile to C at {@code (i0, j0)}. */
    private static void store(float[] tile, int rows, int cols, Gemm.View c, long i0, long j0, boolean add) {
        MemorySegment seg = c.segment();
        long base = c.offset() + i0 * c.rowStride() + j0 * c.colStride();
        if (cols == NR && c.colStride() == 1) {
            for (int r = 0; r < rows; r++) {
                long off = (base + r * c.rowStride()) * Float.BYTES;
                for (int q = 0; q < NR; q += L) {
                    FloatVector t = FloatVector.fromArray(F, tile, r * NR + q);
                    long at = off + (long) q * Float.BYTES;
                    if (add) t = t.add(FloatVector.fromMemorySegment(F, seg, at, ORDER));
                    t.intoMemorySegment(seg, at, ORDER);
                }
            }
            return;
        }
        for (int r = 0; r < rows; r++) {
            long row = base + r * c.rowStride();
            for (int j = 0; j < cols; j++) {
                long at = row + j * c.colStride();
                float v = tile[r * NR + j];
                seg.setAtIndex(FL, at, add ? seg.getAtIndex(FL, at) + v : v);
            }
        }
    }

    /** Matrix·vector: {@code y[m] (+)= A[m×k]·x[k]} ({@code x}, {@code y} as k×1 and m×1 views). */
    private static void gemv(DType src, int m, int k, Gemm.View a, Gemm.View x, Gemm.View y, boolean accumulate, Parallel parallel) {
        boolean rowStrips = Gemm.alongFirst(a.colStride(), a.rowStride(), k, m);
        // row strips: a dot product per row; column strips: long contiguous column pieces, axpy'd
        int rowsPer = rowStrips ? Gemm.GEMV_ROWS : Gemm.GEMV_CHUNK, chunk = Gemm.GEMV_CHUNK;
        parallel.forRange(Gemm.ceilDiv(m, rowsPer), (long) rowsPer * k, (lo, hi) -> {
            float[] buf = new float[Math.max(rowsPer, chunk)], xs = new float[chunk];
            float[] sums = new float[rowsPer];
            Scratch s = new Scratch(0, Math.max(rowsPer, chunk));
            for (long blk = lo; blk < hi; blk++) {
                long i0 = blk * rowsPer;
                int rows = (int) Math.min(rowsPer, m - i0);
                Arrays.fill(sums, 0f);
                for (int p0 = 0; p0 < k; p0 += chunk) {
                    int len = Math.min(chunk, k - p0);
                    strip(src, x.segment(), x.offset() + p0 * x.rowStride(), x.rowStride(), len, xs, 0, s);
                    long base = a.offset() + i0 * a.rowStride() + p0 * a.colStride();
                    if (rowStrips) {
                        for (int r = 0; r < rows; r++) {
                            strip(src, a.segment(), base + r * a.rowStride(), a.colStride(), len, buf, 0, s);
                            sums[r] += dot(buf, xs, len);
                        }
                    } else {
                        for (int q = 0; q < len; q++) {
                            strip(src, a.segment(), base + q * a.colStride(), a.rowStride(), rows, buf, 0, s);
                            axpy(xs[q], buf, sums, rows);
                        }
                    }
                }
                MemorySegment seg = y.segment();
                for (int r = 0; r < rows; r++) {
                    long at = y.offset() + (i0 + r) * y.rowStride();
                    seg.setAtIndex(FL, at, accumulate ? seg.getAtIndex(FL, at) + sums[r] : sums[r]);
                }
            }
        });
    }

    /** {@code Σ u[q]·x[q]} for {@code q < len}, four vector chains. */
    private static float dot(float[] u, float[] x, int len) {
        FloatVector s0 = FloatVector.zero(F), s1 = s0, s2 = s0, s3 = s0;
        int q = 0;
        for (; q + 4 * L <= len; q += 4 * L) {
            s0 = FloatVector.fromArray(F, u, q).fma(FloatVector.fromArray(F, x, q), s0);
            s1 = FloatVector.fromArray(F, u, q + L).fma(FloatVector.fromArray(F, x, q + L), s1);
            s2 = FloatVector.fromArray(F, u, q + 2 * L).fma(FloatVector.fromArray(F, x, q + 2 * L), s2);
            s3 = FloatVector.fromArray(F, u, q + 3 * L).fma(FloatVector.fromArray(F, x, q + 3 * L), s3);
        }
        for (; q + L <= len; q += L) s0 = FloatVector.fromArray(F, u, q).fma(FloatVector.fromArray(F, x, q), s0);
        float sum = LaneSums.inOrder(s0.add(s1).add(s2.add(s3)));
        for (; q < len; q++) sum = Math.fma(u[q], x[q], sum);
        return sum;
    }

    /** {@code sums[r] += xv·col[r]} for {@code r < rows}. */
    private static void axpy(float xv, float[] col, float[] sums, int rows) {
        FloatVector xb = FloatVector.broadcast(F, xv);
        int r = 0;
        for (; r + L <= rows; r += L) xb.fma(FloatVector.fromArray(F, col, r), FloatVector.fromArray(F, sums, r)).intoArray(sums, r);
        for (; r < rows; r++) sums[r] = Math.fma(xv, col[r], sums[r]);
    }

    private static void fill(Gemm.View c, int m, int n) {
        for (long i = 0; i < m; i++) for (long j = 0; j < n; j++) c.segment().setAtIndex(FL, c.offset() + i * c.rowStride() + j * c.colStride(), 0f);
    }
}
