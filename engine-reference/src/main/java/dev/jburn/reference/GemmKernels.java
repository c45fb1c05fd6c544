package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * GEMM micro-kernels: {@code tile = Apanel·Bpanel} for one MR×NR tile, every accumulator in
 * a register.
 *
 * <p>The A panel is a heap array: for F32 its MR rows at the constant stride {@link #AS}
 * ({@code a[ao + r·AS + p]}), for F64 MR values per step ({@code a[ao + p·MR + r]}); the
 * B panel holds NR = 2 vectors per step at byte offset {@code bo + p·NR·size} of a 64-byte
 * aligned native segment. Each step broadcasts the MR values of A against the two B vectors:
 * 2·MR independent fma chains, each one output element per lane summed over ascending
 * {@code p}.
 *
 * <p>Why these choices, all measured with C2 on this machine (AVX-512):
 * <ul>
 *   <li>12 rows × 2 vectors: 24 accumulators + 2 B vectors + 1 broadcast fit the 32 vector
 *       registers; it beat 8×3, 6×4, 14×2 and 4×4 (8×3 and 14×2 spill), and a manual 2×
 *       unroll (spills). Narrower vectors (AVX2 has 16 registers) use 6 rows, two steps per loop iteration
 *       ({@link #float6}: measured on an AVX2 machine).</li>
 *   <li>A from a heap array: the broadcasts compile to {@code vbroadcastss} from memory with
 *       the bounds checks hoisted out of the loop.</li>
 *   <li>F32 A rows at a constant stride rather than interleaved by step: row-major A packs with
 *       a bulk copy per row instead of a scalar transpose, and the kernel is no slower (one A
 *       panel against 24 B panels, one thread: 187-195 GFLOP/s against 184-186 interleaved).
 *       The stride must be a constant ({@code static final}) so that each row's broadcast keeps
 *       a constant displacement; a variable stride would cost an address computation per row
 *       and step.</li>
 *   <li>B from aligned native memory: heap arrays are only 8-byte aligned, and 64-byte loads
 *       that straddle cache lines made the kernel 15-20% slower (133 vs 160 GFLOP/s with
 *       panels streaming from L2); the two bounds checks per step that a segment costs are
 *       cheaper.</li>
 *   <li>The tile goes to the caller's heap array, or straight into C ({@link #float12Into}):
 *       passing 24 vectors to a store helper would box them. No kernel adds into C: such a
 *       method (1,785 bytecodes) made C1 give up ("out of virtual registers"), and in half of
 *       fresh JVMs C2 never compiled it either (the MLP's GEMMs ran ~7x slower for the whole run).</li>
 * </ul>
 */
final class GemmKernels {
    private GemmKernels() {}

    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Rows per tile: 12 where there are 32 vector registers (512-bit species), else 6. */
    static final int F32_MR = F.vectorBitSize() >= 512 ? 12 : 6;
    static final int F64_MR = D.vectorBitSize() >= 512 ? 12 : 6;
    /**
     * F32 A panels hold their rows at this constant stride ({@code a[ao + r·AS + p]}): a constant, so each row's
     * broadcast is one {@code vbroadcastss} from {@code [a + p·4 + r·AS·4]}. At least any kc (kc ≤ {@link Gemm#F32_KC})
     * and one cache line more than a multiple of 16 floats, so that a panel's rows do not all fall into the same L1 sets
     * (as they would 4 KiB apart; a precaution, not measured).
     */
    static final int AS = Gemm.roundUp(Gemm.F32_KC, 16) + 16;
    /** Columns per tile: two vectors. */
    static final int F32_NR = 2 * F.length();
    static final int F64_NR = 2 * D.length();

    /** The F32 kernel for {@link #F32_MR}: {@code tile[F32_MR × F32_NR]} row-major. */
    static void f32(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        if (F32_MR == 12) float12(kc, a, ao, b, bo, tile);
        else float6(kc, a, ao, b, bo, tile);
    }

    /** The F64 kernel for {@link #F64_MR}: {@code tile[F64_MR × F64_NR]} row-major. */
    static void f64(int kc, double[] a, int ao, MemorySegment b, long bo, double[] tile) {
        if (F64_MR == 12) double12(kc, a, ao, b, bo, tile);
        else double6(kc, a, ao, b, bo, tile);
    }

    /** 12 rows × 2 vectors,: {@code tile[MR×NR] = Apanel·Bpanel} over {@code kc} steps. */
    static void float12(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
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
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            FloatVector x6 = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x6.fma(b0, c6_0); c6_1 = x6.fma(b1, c6_1);
            FloatVector x7 = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x7.fma(b0, c7_0); c7_1 = x7.fma(b1, c7_1);
            FloatVector x8 = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x8.fma(b0, c8_0); c8_1 = x8.fma(b1, c8_1);
            FloatVector x9 = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x9.fma(b0, c9_0); c9_1 = x9.fma(b1, c9_1);
            FloatVector x10 = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x10.fma(b0, c10_0); c10_1 = x10.fma(b1, c10_1);
            FloatVector x11 = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x11.fma(b0, c11_0); c11_1 = x11.fma(b1, c11_1);
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

    /**
     * {@link #float12}'s sums stored straight into a full 12×NR tile of C instead of the heap tile: C's element
     * (r, j) at byte {@code co + r·cRow + j·4}. The same fma chains, so the same bits as the tile and
     * {@code GemmF32.store}; saves the tile's 24 vector stores and loads per call (about 5% of a 256² GEMM).
     */
    static void float12Into(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
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
            long bi = bo + (long) p * 2 * l * Float.BYTES;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + (long) l * Float.BYTES, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            FloatVector x6 = FloatVector.broadcast(F, a[ai + 6 * AS]); c6_0 = x6.fma(b0, c6_0); c6_1 = x6.fma(b1, c6_1);
            FloatVector x7 = FloatVector.broadcast(F, a[ai + 7 * AS]); c7_0 = x7.fma(b0, c7_0); c7_1 = x7.fma(b1, c7_1);
            FloatVector x8 = FloatVector.broadcast(F, a[ai + 8 * AS]); c8_0 = x8.fma(b0, c8_0); c8_1 = x8.fma(b1, c8_1);
            FloatVector x9 = FloatVector.broadcast(F, a[ai + 9 * AS]); c9_0 = x9.fma(b0, c9_0); c9_1 = x9.fma(b1, c9_1);
            FloatVector x10 = FloatVector.broadcast(F, a[ai + 10 * AS]); c10_0 = x10.fma(b0, c10_0); c10_1 = x10.fma(b1, c10_1);
            FloatVector x11 = FloatVector.broadcast(F, a[ai + 11 * AS]); c11_0 = x11.fma(b0, c11_0); c11_1 = x11.fma(b1, c11_1);
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

    /**
     * 6 rows × 2 vectors: {@code tile[MR×NR] = Apanel·Bpanel} over {@code kc} steps. Two steps per loop iteration,
     * each accumulator's fmas still in ascending {@code p}: with 15 of the 16 registers in use, the one-step loop's
     * overhead (counter, bounds checks, addresses) left the AVX2 machine's FP pipes idle a fifth of the time. One A
     * panel against 12 B panels (Avx2KernelLab, kc 384, Zen 1, 2026-12-07): one step 36-37 GFLOP/s per thread, two steps 45-46 (one
     * thread) and 43-44 (each of two), four steps no better (45 and 41-42).
     */
    static void float6(int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        long lb = (long) l * Float.BYTES;
        int p = 0;
        // two steps per iteration (a step at a time: 36-37 GFLOP/s, 80% of a core's fma peak), then the odd last one
        for (; p + 1 < kc; p += 2) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            b0 = FloatVector.fromMemorySegment(F, b, bi + 2 * lb, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + 3 * lb, ORDER);
            x0 = FloatVector.broadcast(F, a[ai + 1]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 1 + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 1 + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 1 + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 1 + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        if (p < kc) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
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

    /**
     * {@link #float6}'s sums stored straight into a full 6×NR tile of C instead of the heap tile, as {@link #float12Into}
     * does for 12 rows: C's element (r, j) at byte {@code co + r·cRow + j·4}. The same fma chains, so the same bits.
     */
    static void float6Into(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        long lb = (long) l * Float.BYTES;
        int p = 0;
        // two steps per iteration (a step at a time: 36-37 GFLOP/s, 80% of a core's fma peak), then the odd last one
        for (; p + 1 < kc; p += 2) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            b0 = FloatVector.fromMemorySegment(F, b, bi + 2 * lb, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + 3 * lb, ORDER);
            x0 = FloatVector.broadcast(F, a[ai + 1]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 1 + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 1 + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 1 + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 1 + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        if (p < kc) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        c0_0.intoMemorySegment(c, co + 0 * cRow, ORDER); c0_1.intoMemorySegment(c, co + 0 * cRow + lb, ORDER);
        c1_0.intoMemorySegment(c, co + 1 * cRow, ORDER); c1_1.intoMemorySegment(c, co + 1 * cRow + lb, ORDER);
        c2_0.intoMemorySegment(c, co + 2 * cRow, ORDER); c2_1.intoMemorySegment(c, co + 2 * cRow + lb, ORDER);
        c3_0.intoMemorySegment(c, co + 3 * cRow, ORDER); c3_1.intoMemorySegment(c, co + 3 * cRow + lb, ORDER);
        c4_0.intoMemorySegment(c, co + 4 * cRow, ORDER); c4_1.intoMemorySegment(c, co + 4 * cRow + lb, ORDER);
        c5_0.intoMemorySegment(c, co + 5 * cRow, ORDER); c5_1.intoMemorySegment(c, co + 5 * cRow + lb, ORDER);
    }

    /**
     * {@link #float6Into} adding its sums to C ({@code sum + C}, as {@code GemmF32.store} adds the tile) for the kc
     * blocks after the first. Measured 6-row only: 12 rows' adding kernel made C1 give up (see the class comment).
     */
    static void float6AddInto(int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow) {
        FloatVector c0_0 = FloatVector.zero(F), c0_1 = c0_0;
        FloatVector c1_0 = FloatVector.zero(F), c1_1 = c1_0;
        FloatVector c2_0 = FloatVector.zero(F), c2_1 = c2_0;
        FloatVector c3_0 = FloatVector.zero(F), c3_1 = c3_0;
        FloatVector c4_0 = FloatVector.zero(F), c4_1 = c4_0;
        FloatVector c5_0 = FloatVector.zero(F), c5_1 = c5_0;
        int l = F.length();
        long lb = (long) l * Float.BYTES;
        int p = 0;
        // two steps per iteration (a step at a time: 36-37 GFLOP/s, 80% of a core's fma peak), then the odd last one
        for (; p + 1 < kc; p += 2) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            b0 = FloatVector.fromMemorySegment(F, b, bi + 2 * lb, ORDER); b1 = FloatVector.fromMemorySegment(F, b, bi + 3 * lb, ORDER);
            x0 = FloatVector.broadcast(F, a[ai + 1]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            x1 = FloatVector.broadcast(F, a[ai + 1 + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            x2 = FloatVector.broadcast(F, a[ai + 1 + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            x3 = FloatVector.broadcast(F, a[ai + 1 + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            x4 = FloatVector.broadcast(F, a[ai + 1 + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            x5 = FloatVector.broadcast(F, a[ai + 1 + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        if (p < kc) {
            long bi = bo + p * 2 * lb;
            int ai = ao + p;
            FloatVector b0 = FloatVector.fromMemorySegment(F, b, bi, ORDER), b1 = FloatVector.fromMemorySegment(F, b, bi + lb, ORDER);
            FloatVector x0 = FloatVector.broadcast(F, a[ai]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            FloatVector x1 = FloatVector.broadcast(F, a[ai + 1 * AS]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            FloatVector x2 = FloatVector.broadcast(F, a[ai + 2 * AS]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            FloatVector x3 = FloatVector.broadcast(F, a[ai + 3 * AS]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            FloatVector x4 = FloatVector.broadcast(F, a[ai + 4 * AS]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            FloatVector x5 = FloatVector.broadcast(F, a[ai + 5 * AS]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
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
    }

    /** 12 rows × 2 vectors,: {@code tile[MR×NR] = Apanel·Bpanel} over {@code kc} steps. */
    static void double12(int kc, double[] a, int ao, MemorySegment b, long bo, double[] tile) {
        DoubleVector c0_0 = DoubleVector.zero(D), c0_1 = c0_0;
        DoubleVector c1_0 = DoubleVector.zero(D), c1_1 = c1_0;
        DoubleVector c2_0 = DoubleVector.zero(D), c2_1 = c2_0;
        DoubleVector c3_0 = DoubleVector.zero(D), c3_1 = c3_0;
        DoubleVector c4_0 = DoubleVector.zero(D), c4_1 = c4_0;
        DoubleVector c5_0 = DoubleVector.zero(D), c5_1 = c5_0;
        DoubleVector c6_0 = DoubleVector.zero(D), c6_1 = c6_0;
        DoubleVector c7_0 = DoubleVector.zero(D), c7_1 = c7_0;
        DoubleVector c8_0 = DoubleVector.zero(D), c8_1 = c8_0;
        DoubleVector c9_0 = DoubleVector.zero(D), c9_1 = c9_0;
        DoubleVector c10_0 = DoubleVector.zero(D), c10_1 = c10_0;
        DoubleVector c11_0 = DoubleVector.zero(D), c11_1 = c11_0;
        int l = D.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) p * 2 * l * Double.BYTES;
            int ai = ao + p * 12;
            DoubleVector b0 = DoubleVector.fromMemorySegment(D, b, bi, ORDER), b1 = DoubleVector.fromMemorySegment(D, b, bi + (long) l * Double.BYTES, ORDER);
            DoubleVector x0 = DoubleVector.broadcast(D, a[ai + 0]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            DoubleVector x1 = DoubleVector.broadcast(D, a[ai + 1]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            DoubleVector x2 = DoubleVector.broadcast(D, a[ai + 2]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            DoubleVector x3 = DoubleVector.broadcast(D, a[ai + 3]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            DoubleVector x4 = DoubleVector.broadcast(D, a[ai + 4]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            DoubleVector x5 = DoubleVector.broadcast(D, a[ai + 5]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
            DoubleVector x6 = DoubleVector.broadcast(D, a[ai + 6]); c6_0 = x6.fma(b0, c6_0); c6_1 = x6.fma(b1, c6_1);
            DoubleVector x7 = DoubleVector.broadcast(D, a[ai + 7]); c7_0 = x7.fma(b0, c7_0); c7_1 = x7.fma(b1, c7_1);
            DoubleVector x8 = DoubleVector.broadcast(D, a[ai + 8]); c8_0 = x8.fma(b0, c8_0); c8_1 = x8.fma(b1, c8_1);
            DoubleVector x9 = DoubleVector.broadcast(D, a[ai + 9]); c9_0 = x9.fma(b0, c9_0); c9_1 = x9.fma(b1, c9_1);
            DoubleVector x10 = DoubleVector.broadcast(D, a[ai + 10]); c10_0 = x10.fma(b0, c10_0); c10_1 = x10.fma(b1, c10_1);
            DoubleVector x11 = DoubleVector.broadcast(D, a[ai + 11]); c11_0 = x11.fma(b0, c11_0); c11_1 = x11.fma(b1, c11_1);
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

    /** 6 rows × 2 vectors,: {@code tile[MR×NR] = Apanel·Bpanel} over {@code kc} steps. */
    static void double6(int kc, double[] a, int ao, MemorySegment b, long bo, double[] tile) {
        DoubleVector c0_0 = DoubleVector.zero(D), c0_1 = c0_0;
        DoubleVector c1_0 = DoubleVector.zero(D), c1_1 = c1_0;
        DoubleVector c2_0 = DoubleVector.zero(D), c2_1 = c2_0;
        DoubleVector c3_0 = DoubleVector.zero(D), c3_1 = c3_0;
        DoubleVector c4_0 = DoubleVector.zero(D), c4_1 = c4_0;
        DoubleVector c5_0 = DoubleVector.zero(D), c5_1 = c5_0;
        int l = D.length();
        for (int p = 0; p < kc; p++) {
            long bi = bo + (long) p * 2 * l * Double.BYTES;
            int ai = ao + p * 6;
            DoubleVector b0 = DoubleVector.fromMemorySegment(D, b, bi, ORDER), b1 = DoubleVector.fromMemorySegment(D, b, bi + (long) l * Double.BYTES, ORDER);
            DoubleVector x0 = DoubleVector.broadcast(D, a[ai + 0]); c0_0 = x0.fma(b0, c0_0); c0_1 = x0.fma(b1, c0_1);
            DoubleVector x1 = DoubleVector.broadcast(D, a[ai + 1]); c1_0 = x1.fma(b0, c1_0); c1_1 = x1.fma(b1, c1_1);
            DoubleVector x2 = DoubleVector.broadcast(D, a[ai + 2]); c2_0 = x2.fma(b0, c2_0); c2_1 = x2.fma(b1, c2_1);
            DoubleVector x3 = DoubleVector.broadcast(D, a[ai + 3]); c3_0 = x3.fma(b0, c3_0); c3_1 = x3.fma(b1, c3_1);
            DoubleVector x4 = DoubleVector.broadcast(D, a[ai + 4]); c4_0 = x4.fma(b0, c4_0); c4_1 = x4.fma(b1, c4_1);
            DoubleVector x5 = DoubleVector.broadcast(D, a[ai + 5]); c5_0 = x5.fma(b0, c5_0); c5_1 = x5.fma(b1, c5_1);
        }
        c0_0.intoArray(tile, 0 * l); c0_1.intoArray(tile, 1 * l);
        c1_0.intoArray(tile, 2 * l); c1_1.intoArray(tile, 3 * l);
        c2_0.intoArray(tile, 4 * l); c2_1.intoArray(tile, 5 * l);
        c3_0.intoArray(tile, 6 * l); c3_1.intoArray(tile, 7 * l);
        c4_0.intoArray(tile, 8 * l); c4_1.intoArray(tile, 9 * l);
        c5_0.intoArray(tile, 10 * l); c5_1.intoArray(tile, 11 * l);
    }
}
