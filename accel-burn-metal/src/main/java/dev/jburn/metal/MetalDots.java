package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DotPlan;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
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
    private final MetalMovement movement;

    MetalDots(MetalBackend backend, MetalKernels kernels, MetalMovement movement) {
        this.backend = backend;
        this.kernels = kernels;
        this.movement = movement;
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
        List<MetalBuffer> temps = new ArrayList<>();
        try {
            Operand da = operand(a, plan.permA(), temps), db = operand(b, plan.permB(), temps);
            if (da == null || db == null) return null;
            boolean aT = plan.permA() == null && plan.aTransposed(), bT = plan.permB() == null && plan.bTransposed();
            int[] words = {(int) plan.m(), (int) plan.n(), (int) plan.k(), aT ? 1 : 0, bT ? 1 : 0, (int) tilesM, (int) tilesN};
            long groups = plan.batch() * tilesM * tilesN;
            MetalBuffer c = kernels.produce("dot", pipeline, List.of(da, db), words, 4 * cells, groups, true);
            if (out == DType.F32) return c;
            temps.add(c);
            return kernels.cast(new Operand(c, DType.F32, Shape.of(cells)), out);
        } finally {
            for (MetalBuffer t : temps) t.release();
        }
    }

    /** An integer dot ({@link MslGemm#integer}): one thread per element of the result. */
    private MetalBuffer integer(Operand a, Operand b, DotPlan plan, DType out, long cells) {
        MemorySegment pipeline = kernels.pipeline(MslGemm.integer(out));
        if (pipeline == null) return null;
        List<MetalBuffer> temps = new ArrayList<>();
        try {
            Operand da = permuted(a, plan.permA(), temps), db = permuted(b, plan.permB(), temps);
            if (da == null || db == null) return null;
            boolean aT = plan.permA() == null && plan.aTransposed(), bT = plan.permB() == null && plan.bTransposed();
            int[] words = {(int) plan.m(), (int) plan.n(), (int) plan.k(), aT ? 1 : 0, bT ? 1 : 0};
            return kernels.produce("dot", pipeline, List.of(da, db), words, out.byteSize(cells), cells, false);
        } finally {
            for (MetalBuffer t : temps) t.release();
        }
    }

    /** {@code x} as the GEMM reads it: widened to F32, then permuted by {@code perm} (when not null); null when a step cannot run here. */
    private Operand operand(Operand x, int[] perm, List<MetalBuffer> temps) {
        Operand r = kernels.widened(x, temps);
        return r == null ? null : permuted(r, perm, temps);
    }

    /** {@code x} permuted by {@code perm} (itself when null); null when the copy cannot run here. */
    private Operand permuted(Operand x, int[] perm, List<MetalBuffer> temps) {
        if (perm == null) return x;
        MetalBuffer moved = movement.transpose(x, perm);
        if (moved == null) return null;
        temps.add(moved);
        int[] dims = new int[perm.length];
        for (int i = 0; i < perm.length; i++) dims[i] = x.shape().dim(perm[i]);
        return new Operand(moved, x.dtype(), Shape.of(dims));
    }
}
