package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.List;
import java.util.Optional;

/**
 * General {@code dot} as a batched GEMM: each operand is first made contiguous in the layout the
 * GEMM wants ({@code a -> [batch..., free..., contract...]}, {@code b -> [batch..., contract...,
 * free...]}) with one device transpose when its axes are not already in that order, then one
 * {@link GemmShader} dispatch computes {@code [batch, M, N]}, which is exactly the result layout
 * (batch axes, a's free axes, b's free axes). f32 and f64 run {@link GemmShader}; f16 and bf16 run
 * {@link CoopMatGemmShader} where the device offers cooperative matrices for them (f32 accumulation),
 * and fall back to the cpu otherwise.
 */
final class DotKernels {
    private final VulkanBackend b;
    private final MovementKernels movement;
    /** The kernel of wide f32 products ({@link GemmShader#wideLoads}): {@link VulkanConfig#gemmTiling}'s, else {@link #wideF32Default}. */
    private final Gemm wideF32;

    DotKernels(VulkanBackend b, MovementKernels movement, Gemm wideF32) {
        this.b = b;
        this.movement = movement;
        this.wideF32 = wideF32;
    }

    /**
     * The wide f32 kernel {@code c} asks for ({@link VulkanConfig#gemmTiling}), or the default; a {@link JBurnException}
     * naming the setting and the parser's reason for a bad form (the engine checks it before opening the device).
     */
    static Gemm wideF32(VulkanConfig c) {
        if (c.gemmTiling() == null || c.gemmTiling().isBlank()) return wideF32Default();
        try {
            return byForm(c.gemmTiling());
        } catch (IllegalArgumentException e) {
            throw new JBurnException("vulkan", "-Djburn.vulkan.gemmTiling=" + c.gemmTiling() + ": " + e.getMessage());
        }
    }

    /**
     * The wide f32 kernel unless a tiling is asked for: {@link GemmShader}'s classic tiling, generated (the same
     * products in the same order, but {@code vec4} stores of C: on an H100 at 4096 3.66 against 3.91 ms a call,
     * device time 3.46 against 3.60; 2026-12-06).
     */
    static Gemm wideF32Default() {
        return tiled(GemmShaderTiled.CLASSIC);
    }

    /**
     * The wide f32 kernel a tiling form names: {@code 16x16/8x8/k16[/p][/w][/gN]} ({@link GemmShaderTiled.Tiling}) or
     * {@code w128x128/k16/64x64/n4/8x4[/p|/d]} ({@link GemmShaderWarpTiled.Tiling}); {@link IllegalArgumentException}
     * naming the problem otherwise.
     */
    static Gemm byForm(String form) {
        return form.trim().startsWith("w") ? warpTiled(GemmShaderWarpTiled.Tiling.parse(form)) : tiled(GemmShaderTiled.Tiling.parse(form));
    }

    boolean supports(DType t) {
        return t == DType.F32 || t == DType.F64 && b.dev.features.float64() || coopConfig(t).isPresent();
    }

    /**
     * The cooperative-matrix configuration a GEMM of {@code t} uses, if any: the shader also needs
     * the f16 type, 16-bit buffers and 16-bit integers (its loads and stores move raw 16-bit words).
     */
    Optional<CoopMatrixSupport.Config> coopConfig(DType t) {
        VulkanFeatures f = b.dev.features;
        if (!f.float16() || !f.storage16() || !f.int16()) return Optional.empty();
        return b.dev.coopMatrix.gemmConfig(t);
    }

    /**
     * The kernel a product of {@code t} with these {@code K} and {@code N} runs: its name says which path, and its tile of C.
     * {@code key} holds everything {@code source} is generated from, so the source is generated only for a pipeline
     * not built yet ({@link Pipelines#get(String, String, Object, java.util.function.Supplier, int, boolean)}).
     */
    record Gemm(String name, Object key, java.util.function.Supplier<String> source, int tileM, int tileN) {}

    /** The GEMM for {@code t} (one {@link #supports} accepts). */
    Gemm gemm(DType t, long k, long n) {
        Optional<CoopMatrixSupport.Config> coop = coopConfig(t);
        if (coop.isPresent()) {
            CoopMatrixSupport.Config c = coop.get();
            CoopMatGemmShader.Tiling g = CoopMatGemmShader.Tiling.of(c);
            boolean wide = CoopMatGemmShader.wideLoads(k, n);
            int subgroup = b.dev.coopMatrix.subgroupSize();
            return new Gemm("gemm-coopmat-" + t.shortName() + "-" + c.m() + "x" + c.n() + "x" + c.k() + (wide ? "-wide" : ""),
                    List.of("gemm-coopmat", t, g, subgroup, wide), () -> CoopMatGemmShader.source(t, g, subgroup, wide), g.bm(), g.bn());
        }
        boolean f64 = t == DType.F64, wide = !f64 && GemmShader.wideLoads(k, n);
        int tile = GemmShader.tile(f64);
        if (!f64 && b.config().gemmDoubleBuffer()) {
            return new Gemm("gemm-f32-db8" + (wide ? "-wide" : ""), List.of("gemm-f32-db8", wide), () -> GemmShaderDoubleBuffered.source(wide),
                    tile, tile);
        }
        if (wide) return wideF32;
        return new Gemm("gemm-" + t.shortName(), List.of("gemm", f64, false), () -> GemmShader.source(f64, false), tile, tile);
    }

    /** The f32 GEMM of {@code t}, for products with wide loads only ({@link GemmShader#wideLoads}). */
    static Gemm tiled(GemmShaderTiled.Tiling t) {
        return new Gemm("gemm-f32-" + t.toString().replace('/', '-') + "-wide", List.of("gemm-f32-tiled", t),
                () -> GemmShaderTiled.source(t), t.tileM(), t.tileN());
    }

    /** The warp-tiled f32 GEMM of {@code t}, for products with wide loads only ({@link GemmShader#wideLoads}). */
    static Gemm warpTiled(GemmShaderWarpTiled.Tiling t) {
        return new Gemm("gemm-f32-" + t.toString().replace('/', '-') + "-wide", List.of("gemm-f32-warp-tiled", t),
                () -> GemmShaderWarpTiled.source(t), t.bm(), t.bn());
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
            int parts = batch == 1 && out == DType.F32 && coopConfig(out).isEmpty() ? splits(m, n, k) : 1;
            DeviceBuffer split = parts > 1 ? splitK(da, db, m, n, k, parts) : null;
            if (split != null) return split;
            return run(gemm(out, k, n), da, db, batch, m, n, k, es);
        } finally {
            if (at != null) at.release();
            if (bt != null) bt.release();
        }
    }

    /** Work groups below which a long product is split along K ({@link #splits}): an H100 has 132 multiprocessors. */
    static final int SPLIT_BELOW_GROUPS = 16;

    /**
     * Into how many parts an f32 {@code [m, k]·[k, n]} is split along K: with 128×128 tiles a product with few of them
     * runs on a few multiprocessors, each walking all of K (the small CNN's dense layer, {@code [128,1600]·[1600,128]},
     * was one work group). The most parts up to 32, at least {@link #SPLIT_BELOW_GROUPS} groups' worth, whose share
     * of K is a whole multiple of 16 of at least 64 (the tiles' K step; a multiple of 4 keeps the wide loads); 1 when
     * the product has tiles enough or no such split exists.
     */
    static int splits(long m, long n, long k) {
        int tile = GemmShader.tile(false);
        long groups = ((m + tile - 1) / tile) * ((n + tile - 1) / tile);
        if (groups >= SPLIT_BELOW_GROUPS || k < 512) return 1;
        for (int s = 32; s > 1; s--) {
            if (k % s == 0 && (k / s) % 16 == 0 && k / s >= 64) return s;
        }
        return 1;
    }

    /**
     * {@code [m, k]·[k, n]} as {@code parts} products over shares of K, then their sum: A's columns moved into
     * {@code [parts, m, k/parts]} (one device transpose; B's shares are already contiguous), one batched GEMM giving
     * {@code [parts, m, n]}, one reduction over the parts (in order, so the result is the same every run). Each
     * output adds its products in another grouping than the one-pass kernel's, a rounding difference within a dot's
     * tolerance like the kernel's fused multiply-adds.
     */
    private DeviceBuffer splitK(DeviceBuffer da, DeviceBuffer db, long m, long n, long k, int parts) {
        long share = k / parts;
        DeviceBuffer as = movement.transpose(new Operand(da, DType.F32, Shape.of(m, parts, share)), new int[] {1, 0, 2});
        if (as == null) return null;
        DeviceBuffer partial = null;
        try {
            partial = run(gemm(DType.F32, share, n), as, db, parts, m, n, share, Float.BYTES);
            if (partial == null) return null;
            return b.elementwise.reduce(dev.jburn.op.ReduceOp.SUM, new Operand(partial, DType.F32, Shape.of(parts, m, n)), new int[] {0}, DType.F32);
        } finally {
            as.release();
            if (partial != null) partial.release();
        }
    }

    /**
     * Dispatches {@code g} on contiguous {@code da [batch, m, k]} and {@code db [batch, k, n]}: the new
     * {@code [batch, m, n]} result of {@code es}-byte elements, or {@code null} when the grid exceeds the device's.
     */
    DeviceBuffer run(Gemm g, DeviceBuffer da, DeviceBuffer db, long batch, long m, long n, long k, int es) {
        int gx = (int) ((n + g.tileN() - 1) / g.tileN()), gy = (int) ((m + g.tileM() - 1) / g.tileM());
        if (gx > b.dev.features.maxWorkGroupCountX() || gy > 65535) return null;
        Pipelines.Pipeline p = b.pipelines.get("dot", g.name(), g.key(), g.source(), 4, true);
        int[] params = {(int) batch, (int) m, (int) n, (int) k};
        DeviceBuffer c = b.memory.allocateUninitialized("dot", batch * m * n * es);
        try {
            b.queue.submit("dot", r -> r.dispatch("dot", p, List.of(da, db, c), CommandQueue.writes(2), params, gx, gy, (int) batch));
            return c;
        } catch (RuntimeException e) {
            c.release();
            throw e;
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
