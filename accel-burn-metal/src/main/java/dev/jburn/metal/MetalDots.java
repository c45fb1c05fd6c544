package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DotPlan;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The dots MPS does not run here, as one batched GEMM on simdgroup matrices ({@link MslGemm}): batched
 * dots, operands stored transposed or with their axes in another order ({@link DotPlan}: used in place
 * when they are {@code [batch, m, k]} or {@code [batch, k, m]}, permuted first otherwise), and BF16 (F16
 * and BF16 operands are widened exactly to F32, the f32 result rounded once back, as the cpu engine
 * accumulates them in f32): floats need GPU family Apple7 ({@link MetalFeatures#simdgroupMatrix()}).
 * Integer dots (every integer dtype, any GPU) run {@link MslGemm#integer}, exact. Returns {@code null}
 * (the cpu engine runs it, counted) for PRED and F64, floats without Apple7, or past 32-bit indices.
 */
final class MetalDots {
    private static final long LIMIT = Integer.MAX_VALUE;

    private final MetalBackend backend;
    private final MetalKernels kernels;

    MetalDots(MetalBackend backend, MetalKernels kernels) {
        this.backend = backend;
        this.kernels = kernels;
    }

    /** Whether dots of {@code t} can run here: integers on any GPU, floats on simdgroup matrices. */
    static boolean supports(DType t, MetalFeatures f) {
        return (t.isInteger() && t != DType.PRED) || f.simdgroupMatrix() && (t == DType.F32 || t == DType.F16 || t == DType.BF16);
    }

    MetalBuffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        if (!supports(out, backend.features()) || a.dtype() != out || b.dtype() != out) return null;
        DotPlan plan = DotPlan.of(a.shape(), contractA, batchA, b.shape(), contractB, batchB);
        long cells = plan.batch() * plan.m() * plan.n();
        long tilesM = (plan.m() + MslGemm.TILE - 1) / MslGemm.TILE, tilesN = (plan.n() + MslGemm.TILE - 1) / MslGemm.TILE;
        if (a.size() >= LIMIT || b.size() >= LIMIT || cells >= LIMIT || plan.batch() * tilesM * tilesN >= LIMIT) return null;
        if (cells == 0) return backend.uninitialized("dot", 0);
        if (plan.k() == 0) return (MetalBuffer) backend.allocate(out.byteSize(cells)); // empty sums: zeros
        if (out.isInteger()) return integer(a, b, plan, out, cells);
        MemorySegment pipeline = kernels.pipeline(MslGemm.source());
        if (pipeline == null) return null;
        try (MetalScratch s = kernels.scratch("dot")) {
            Operand da = s.permuted(s.widened(a), plan.permA()), db = s.permuted(s.widened(b), plan.permB());
            if (da == null || db == null) return null;
            boolean aT = plan.permA() == null && plan.aTransposed(), bT = plan.permB() == null && plan.bTransposed();
            int[] words = {(int) plan.m(), (int) plan.n(), (int) plan.k(), aT ? 1 : 0, bT ? 1 : 0, (int) tilesM, (int) tilesN};
            long groups = plan.batch() * tilesM * tilesN;
            return s.converted(kernels.produce("dot", pipeline, List.of(da, db), words, 4 * cells, groups, true), DType.F32, Shape.of(cells), out);
        }
    }

    /** An integer dot ({@link MslGemm#integer}): one thread per element of the result. */
    private MetalBuffer integer(Operand a, Operand b, DotPlan plan, DType out, long cells) {
        MemorySegment pipeline = kernels.pipeline(MslGemm.integer(out));
        if (pipeline == null) return null;
        try (MetalScratch s = kernels.scratch("dot")) {
            Operand da = s.permuted(a, plan.permA()), db = s.permuted(b, plan.permB());
            if (da == null || db == null) return null;
            boolean aT = plan.permA() == null && plan.aTransposed(), bT = plan.permB() == null && plan.bTransposed();
            int[] words = {(int) plan.m(), (int) plan.n(), (int) plan.k(), aT ? 1 : 0, bT ? 1 : 0};
            return kernels.produce("dot", pipeline, List.of(da, db), words, out.byteSize(cells), cells, false);
        }
    }
}
