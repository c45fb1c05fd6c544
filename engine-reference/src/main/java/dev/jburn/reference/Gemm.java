package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The engine's one matrix-multiply entry point, shared by {@code dot} and convolution
 * (im2col): {@code C = A·B} (or {@code C += A·B}) on strided views, so transposed operands
 * need no copies.
 *
 * <p>A packed, cache-blocked, register-blocked GEMM ({@link GemmF32}, {@link GemmF64},
 * micro-kernels in {@link GemmKernels}); matrix·vector shapes take a streaming path instead.
 * Sums run in a blocked order, so results differ from a sequential fma loop by rounding
 * (bounded by about {@code k·eps·Σ|a||b|}).
 *
 * <p>Blocking (this machine: 48 KiB L1d, 2 MiB L2 per core): one packed A panel
 * ({@code KC×MR}: 18 KiB for F32, its rows 1.6 KiB apart) stays in L1 while it sweeps the packed B block
 * ({@code KC×NC}: 1.1 MiB, in each core's L2; 1.5 MiB with 8-lane vectors, partly in L3); the packed A block ({@code MC×KC}, up to
 * 6 MiB) sits in L3 and is packed once per {@code KC} slice; every element of A and B is
 * packed once when {@code m ≤ MC}. {@code -Djburn.gemm.kc/mc/nc} (and {@code kc64/mc64/nc64})
 * override them for tuning experiments.
 *
 * <p>Threads: one hand-off to the pool per GEMM; the caller and the pool threads then share
 * its phases (pack B, pack A, compute; see {@link GemmPhases}).
 */
final class Gemm {
    private Gemm() {}

    /**
     * 384. Measured 2026-12-06 (two threads, p25 GFLOP/s, alternating JVMs): 512 makes a 512² GEMM 7% faster (k of
     * 385-512 in one kc block instead of two), 1024² and 2048² within -2% to +4%, [128,784]·[784,256] and
     * [128,1600]·[1600,128] +2%; 640 like 512, 256 no better. Not taken: other kc blocks round differently, and the
     * results are to stay bit for bit those of kc 384.
     */
    static final int F32_KC = Integer.getInteger("jburn.gemm.kc", 384);
    static final int F32_MC = Integer.getInteger("jburn.gemm.mc", 4096);
    /**
     * 768 with 16-lane vectors; 1024 with 8 (AVX2: 6-row tiles). Measured 2026-12-07 on the 2-core AVX2 machine (Zen 1,
     * `bench/gemm-lab` `GemmProfile`, calls alternating between the two in one JVM, two threads, median time ratio):
     * 1024² 0.984, 2048² 0.992 (nc 2048, one block: 1.011), 896² 0.979, [128,256]·[256,784] 0.989; fewer column blocks
     * mean fewer phase waits and fewer reloads of each A panel. nc splits columns only: the bits stay those of nc 768.
     */
    static final int F32_NC = Integer.getInteger("jburn.gemm.nc", jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length() >= 16 ? 768 : 1024);
    static final int F64_KC = Integer.getInteger("jburn.gemm.kc64", 192);
    static final int F64_MC = Integer.getInteger("jburn.gemm.mc64", 4096);
    static final int F64_NC = Integer.getInteger("jburn.gemm.nc64", 768);
    /**
     * Matrix·vector: rows per parallel block when rows are read whole, and the length of the
     * strips staged in a heap array (a chunk of a row, or of a column when columns are read).
     */
    static final int GEMV_ROWS = 64, GEMV_CHUNK = 1024;

    /** Problems of at most this many fmas skip packing (batched small matrices). */
    static final long SMALL = 1024;

    /** B rows per packing item when B is packed row by row. */
    static final int PACK_ROWS = 32;

    /** Runs everything on the caller's thread (batched small problems parallelize outside). */
    static final Parallel SERIAL = new Parallel(1, Long.MAX_VALUE);

    /**
     * A strided matrix view: element {@code (i, j)} is at element index
     * {@code offset + i*rowStride + j*colStride} of {@code segment}.
     */
    record View(MemorySegment segment, long offset, long rowStride, long colStride) {
        static View rowMajor(MemorySegment s, long offset, long cols) { return new View(s, offset, cols, 1); }

        /** The transposed view: no data moves. */
        View transposed() { return new View(segment, offset, colStride, rowStride); }
    }

    /** F32: {@code C[m×n] (+)= A[m×k]·B[k×n]}. */
    static void sgemm(int m, int n, int k, View a, View b, View c, boolean accumulate, Parallel parallel) {
        GemmF32.gemm(DType.F32, m, n, k, a, b, c, accumulate, parallel);
    }

    /** F64: {@code C[m×n] (+)= A[m×k]·B[k×n]}. */
    static void dgemm(int m, int n, int k, View a, View b, View c, boolean accumulate, Parallel parallel) {
        GemmF64.gemm(m, n, k, a, b, c, accumulate, parallel);
    }

    /**
     * F16/BF16 ({@code type}): {@code C[m×n] (+)= A[m×k]·B[k×n]}, all three of {@code type}.
     * Products and sums run in F32 (the operands widen exactly while packing) and each result
     * rounds once to {@code type}.
     */
    static void hgemm(DType type, int m, int n, int k, View a, View b, View c, boolean accumulate, Parallel parallel) {
        if (type != DType.F16 && type != DType.BF16) throw new JBurnException("dot", "hgemm takes f16 or bf16, got " + type);
        if (m == 0 || n == 0) return;
        if ((long) m * n * k <= SMALL) {
            GemmF32.small(type, m, n, k, a, b, c, accumulate);
            return;
        }
        long cells = (long) m * n;
        // the F32 accumulator, native: a heap segment reaching the F32 kernels' vector loads beside native ones
        // would stop C2 intrinsifying them for every caller (see VectorElementwise.tile)
        HostBuffer big = HostBuffer.uninitialized(cells * Float.BYTES);
        try {
            MemorySegment f = big.segment();
            View fv = View.rowMajor(f, 0, n);
            if (accumulate) convertRows(m, n, c, type, fv, DType.F32, parallel);
            GemmF32.gemm(type, m, n, k, a, b, fv, accumulate, parallel);
            convertRows(m, n, fv, DType.F32, c, type, parallel);
        } finally {
            big.release();
        }
    }

    /** Copies an m×n view between float types (F32 ↔ F16/BF16, rounding to nearest even). */
    private static void convertRows(int m, int n, View from, DType fromType, View to, DType toType, Parallel parallel) {
        parallel.forRange(m, n, (lo, hi) -> {
            for (long i = lo; i < hi; i++) {
                for (long j = 0; j < n; j++) {
                    long src = from.offset() + i * from.rowStride() + j * from.colStride();
                    long dst = to.offset() + i * to.rowStride() + j * to.colStride();
                    float v = fromType == DType.F32 ? from.segment().getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, src)
                            : widenHalf(fromType, from.segment().getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, src));
                    if (toType == DType.F32) to.segment().setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, dst, v);
                    else to.segment().setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, dst, narrowHalf(toType, v));
                }
            }
        });
    }

    static float widenHalf(DType t, short bits) {
        return t == DType.BF16 ? HostElements.bf16ToFloat(bits) : Float.float16ToFloat(bits);
    }

    /** F32 → F16/BF16, rounding to nearest even (as HostElements writes them). */
    static short narrowHalf(DType t, float v) {
        return t == DType.BF16 ? HostElements.floatToBf16(v) : Float.floatToFloat16(v);
    }

    /**
     * Block sizes for one problem: {@code kc} and {@code nc} split k and n into near-equal
     * blocks (no sliver blocks), {@code mc} does the same for m; {@code mc} and {@code nc}
     * are whole panels.
     */
    record Blocking(int kc, int mc, int nc) {
        /** An upper bound on the phases of one GEMM: per (mc, kc, nc) block, pack B, pack A, compute. */
        int phases(int m, int n, int k) {
            return 3 * ceilDiv(m, mc) * ceilDiv(k, kc) * ceilDiv(n, nc);
        }
    }

    static Blocking blocking(int m, int n, int k, int mr, int nr, int kcMax, int mcMax, int ncMax) {
        int kc = ceilDiv(k, ceilDiv(k, kcMax));
        int mc = roundUp(ceilDiv(m, ceilDiv(m, mcMax)), mr);
        int nc = roundUp(ceilDiv(n, ceilDiv(n, ncMax)), nr);
        return new Blocking(kc, mc, nc);
    }

    /**
     * How many parts to split each A panel's run of B panels into, so that short-and-wide
     * problems (few A panels) still give every thread work.
     */
    static int nSplits(int mPanels, int nPanels, int threads) {
        if (mPanels >= 2 * threads) return 1;
        return Math.max(1, Math.min(nPanels, ceilDiv(2 * threads, mPanels)));
    }

    /**
     * Whether to pack strips along the direction of {@code stride} (length {@code len}) rather
     * than along {@code other} (length {@code otherLen}): the unit-stride direction wins, then
     * the smaller stride.
     */
    static boolean alongFirst(long stride, long other, int len, int otherLen) {
        if (len == 1) return false;
        if (otherLen == 1) return true;
        if (stride == 1) return true;
        if (other == 1) return false;
        return Math.abs(stride) <= Math.abs(other);
    }

    static int ceilDiv(int a, int b) { return (a + b - 1) / b; }

    static int roundUp(int a, int b) { return ceilDiv(a, b) * b; }
}
