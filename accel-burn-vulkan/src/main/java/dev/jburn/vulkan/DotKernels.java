package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * General {@code dot} as a batched GEMM: each operand is first made contiguous in the layout the
 * GEMM wants ({@code a -> [batch..., free..., contract...]}, {@code b -> [batch..., contract...,
 * free...]}) with one device transpose when its axes are not already in that order, then one
 * {@link GemmShader} dispatch computes {@code [batch, M, N]}, which is exactly the result layout
 * (batch axes, a's free axes, b's free axes).
 */
final class DotKernels {
    private final VulkanBackend b;
    private final MovementKernels movement;

    DotKernels(VulkanBackend b, MovementKernels movement) {
        this.b = b;
        this.movement = movement;
    }

    boolean supports(DType t) {
        return t == DType.F32 || t == DType.F64 && b.dev.features.float64();
    }

    /** The result, or {@code null} when this case must fall back. */
    DeviceBuffer dot(Operand a, int[] contractA, int[] batchA, Operand bb, int[] contractB, int[] batchB, DType out) {
        if (!supports(out) || a.dtype() != out || bb.dtype() != out) return null;
        int[] permA = order(a.shape().rank(), batchA, contractA, false);
        int[] permB = order(bb.shape().rank(), batchB, contractB, true);
        long batch = product(a.shape(), batchA);
        long k = product(a.shape(), contractA);
        long m = freeSize(a.shape(), batchA, contractA);
        long n = freeSize(bb.shape(), batchB, contractB);
        long outElements = batch * m * n;
        int es = out.byteSize();
        long lim = Integer.MAX_VALUE;
        if (a.size() >= lim || bb.size() >= lim || outElements >= lim || batch > b.dev.features.maxWorkGroupCountZ()) return null;
        if (!movement.bindable(outElements * es) || !movement.bindable(a.buffer().byteSize()) || !movement.bindable(bb.buffer().byteSize())) return null;
        if (outElements == 0 || k == 0) return b.memory.allocate("dot", outElements * es);

        DeviceBuffer at = isIdentity(permA) ? null : movement.transpose(a, permA);
        DeviceBuffer bt = null;
        try {
            if (!isIdentity(permA) && at == null) return null;
            bt = isIdentity(permB) ? null : movement.transpose(bb, permB);
            if (!isIdentity(permB) && bt == null) return null;
            DeviceBuffer da = at != null ? at : VulkanBackend.device(a.buffer(), "dot");
            DeviceBuffer db = bt != null ? bt : VulkanBackend.device(bb.buffer(), "dot");
            DeviceBuffer c = b.memory.allocateUninitialized("dot", outElements * es);
            try {
                boolean wide = GemmShader.wideLoads(k, n);
                Pipelines.Pipeline p = b.pipelines.get("dot", "gemm-" + out.shortName() + (wide ? "-wide" : ""), GemmShader.source(out == DType.F64, wide), 4, true);
                int[] params = {(int) batch, (int) m, (int) n, (int) k};
                int tile = GemmShader.tile(out == DType.F64);
                int gx = (int) ((n + tile - 1) / tile), gy = (int) ((m + tile - 1) / tile);
                if (gx > b.dev.features.maxWorkGroupCountX() || gy > 65535) {
                    c.release();
                    return null;
                }
                b.queue.submit("dot", r -> r.dispatch("dot", p, List.of(da, db, c), params, gx, gy, (int) batch));
                return c;
            } catch (RuntimeException e) {
                c.release();
                throw e;
            }
        } finally {
            if (at != null) at.release();
            if (bt != null) bt.release();
        }
    }

    /** Batch axes, then free axes (in order), then contracted axes; or batch, contracted, free when {@code contractFirst}. */
    static int[] order(int rank, int[] batch, int[] contract, boolean contractFirst) {
        boolean[] used = new boolean[rank];
        int[] perm = new int[rank];
        int i = 0;
        for (int x : batch) {
            perm[i++] = x;
            used[x] = true;
        }
        for (int x : contract) used[x] = true;
        if (contractFirst) for (int x : contract) perm[i++] = x;
        for (int x = 0; x < rank; x++) if (!used[x]) perm[i++] = x;
        if (!contractFirst) for (int x : contract) perm[i++] = x;
        return perm;
    }

    static boolean isIdentity(int[] perm) {
        for (int i = 0; i < perm.length; i++) if (perm[i] != i) return false;
        return true;
    }

    private static long product(Shape s, int[] axes) {
        long p = 1;
        for (int a : axes) p *= s.dim(a);
        return p;
    }

    private static long freeSize(Shape s, int[] batch, int[] contract) {
        boolean[] used = new boolean[s.rank()];
        for (int x : batch) used[x] = true;
        for (int x : contract) used[x] = true;
        long p = 1;
        for (int x = 0; x < s.rank(); x++) if (!used[x]) p *= s.dim(x);
        return p;
    }
}
