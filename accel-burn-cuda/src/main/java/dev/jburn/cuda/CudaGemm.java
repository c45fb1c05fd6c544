package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.kernels.DotPlan;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

/**
 * {@code dot} on cuBLAS: operands not already in a GEMM layout are permuted on the device
 * ({@link DotPlan}), then one (strided-batched) GEMM writes the row-major result. Runs inside the
 * device's entry.
 */
final class CudaGemm {
    private final CudaBackend backend;
    private final Cublas cublas;
    private final java.lang.foreign.MemorySegment handle;

    CudaGemm(CudaBackend backend, Cublas cublas, java.lang.foreign.MemorySegment handle) {
        this.backend = backend;
        this.cublas = cublas;
        this.handle = handle;
    }

    /** The cuBLAS precision for operands of {@code t}, or null when cuBLAS has no GEMM for it here (integers). */
    static GemmArgs.Precision precision(DType t) {
        return switch (t) {
            case F32 -> GemmArgs.Precision.F32;
            case F64 -> GemmArgs.Precision.F64;
            case F16 -> GemmArgs.Precision.F16;
            case BF16 -> GemmArgs.Precision.BF16;
            case U8, U16, U32, U64, S8, S16, S32, S64, PRED -> null;
        };
    }

    /** Whether cuBLAS's 32-bit sizes hold the product (empty products always fit: no GEMM runs). */
    static boolean fits(DotPlan p) {
        if (p.batch() == 0 || p.m() == 0 || p.n() == 0 || p.k() == 0) return true;
        try {
            GemmArgs.rowMajor(p.batch(), p.m(), p.n(), p.k(), p.aTransposed(), p.bTransposed());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Convolution as im2col + one batched GEMM ({@link ConvPlan}): pad, gather the windows, multiply
     * per feature group by the kernel (read transposed in place), transpose into {@code [N, O, o...]}.
     */
    Buffer conv(ConvPlan plan, Operand input, Operand kernel, GemmArgs.Precision p) {
        DType t = input.dtype();
        int es = t.byteSize();
        boolean padding = false;
        for (int i = 0; i < plan.padLo().length; i++) padding |= plan.padLo()[i] != 0 || plan.padHi()[i] != 0 || plan.interior()[i] != 0;
        Buffer zero = null, padded = null, cols = null, res = null;
        try {
            Operand x = input;
            if (padding) {
                zero = backend.allocate(es);
                padded = backend.pad(input, new Operand(zero, t, dev.jburn.Shape.of()), plan.padLo(), plan.padHi(), plan.interior());
                x = new Operand(padded, t, plan.padded());
            }
            cols = backend.gatherView(x, plan.cols(), "conv");
            GemmArgs g = GemmArgs.rowMajor(plan.groups(), plan.m(), plan.n(), plan.k(), false, true);
            res = backend.newBuffer(plan.groups() * plan.m() * plan.n() * es, "conv");
            cublas.gemm(handle, g, p, CudaBackend.ptr(kernel), ((CudaBuffer) cols).pointer(), ((CudaBuffer) res).pointer());
            backend.countLaunch();
            return backend.gatherView(new Operand(res, t, dev.jburn.Shape.of(plan.groups() * plan.m() * plan.n())), plan.toOutput(), "conv");
        } finally {
            // Stream order makes releasing the temporaries safe before the kernels have run (see CachingAllocator).
            for (Buffer b : new Buffer[] {zero, padded, cols, res}) if (b != null) b.release();
        }
    }

    /** Whether cuBLAS's 32-bit sizes hold the convolution's GEMM. */
    static boolean fits(ConvPlan p) {
        try {
            GemmArgs.rowMajor(p.groups(), p.m(), p.n(), p.k(), false, true);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Contraction slices for one product ({@link SplitK}): {@link CudaBackend#splitKSlices} where a bench sets it (and
     * it divides k); else, where {@link CudaConfig#splitK} is on and {@link SplitK#slices} proposes a split, the count
     * measured best for the product's shape (one GEMM or that split), measured on its first run outside a capture; F32
     * and F64 only.
     */
    private int slices(DotPlan plan, GemmArgs.Precision p, GemmArgs g, long pa, long pb) {
        if (p != GemmArgs.Precision.F32 && p != GemmArgs.Precision.F64) return 1;
        int forced = backend.splitKSlices;
        if (forced >= 0) return forced > 1 && plan.k() % forced == 0 ? forced : 1;
        if (!backend.config().splitK()) return 1;
        int candidate = SplitK.slices(plan.m(), plan.n(), plan.k(), backend.device().multiprocessors);
        if (candidate <= 1) return 1;
        SplitK.Key key = new SplitK.Key(plan.m(), plan.n(), plan.k(), plan.aTransposed(), plan.bTransposed(), p);
        Integer chosen = backend.splitKChoices.get(key);
        if (chosen != null) return chosen;
        if (backend.capturing) return 1; // a capture must not synchronize; the next ordinary run measures
        chosen = measure(plan, p, g, pa, pb, candidate) ? candidate : 1;
        backend.splitKChoices.put(key, chosen);
        return chosen;
    }

    /** Whether {@code slices} slices beat one GEMM on this product by {@link SplitK#GAIN} (wall time of back-to-back calls). */
    private boolean measure(DotPlan plan, GemmArgs.Precision p, GemmArgs g, long pa, long pb, int slices) {
        long es = p == GemmArgs.Precision.F64 ? 8 : 4;
        CudaBuffer scratch = backend.newBuffer(plan.m() * plan.n() * es, "dot");
        try {
            Runnable whole = () -> cublas.gemm(handle, g, p, pb, pa, scratch.pointer());
            Runnable split = () -> runSplit(plan, p, pa, pb, slices).release();
            double tSplit = time(split), tWhole = time(whole);
            if (SplitK.VERBOSE) {
                System.err.printf(java.util.Locale.ROOT, "cuda: split-K [%d,%d]x[%d,%d] %s: one GEMM %.1f us, %d slices %.1f us%n", plan.m(), plan.k(),
                        plan.k(), plan.n(), p, tWhole / SplitK.TIMED_CALLS * 1e6, slices, tSplit / SplitK.TIMED_CALLS * 1e6);
            }
            return tSplit <= SplitK.GAIN * tWhole;
        } finally {
            scratch.release();
        }
    }

    /** Seconds for {@link SplitK#TIMED_CALLS} back-to-back calls of {@code call}, after one warm-up call. */
    private double time(Runnable call) {
        call.run();
        backend.device().synchronize("split-K timing");
        long t0 = System.nanoTime();
        for (int i = 0; i < SplitK.TIMED_CALLS; i++) call.run();
        backend.device().synchronize("split-K timing");
        return (System.nanoTime() - t0) / 1e9;
    }

    /** One product as {@code slices} partial products (one strided-batched GEMM) and their sum in slice order. */
    private Buffer runSplit(DotPlan plan, GemmArgs.Precision p, long pa, long pb, int slices) {
        long es = p == GemmArgs.Precision.F64 ? 8 : 4, n = plan.m() * plan.n();
        GemmArgs g = GemmArgs.splitK(plan.m(), plan.n(), plan.k(), plan.aTransposed(), plan.bTransposed(), slices);
        CudaBuffer partial = backend.newBuffer(slices * n * es, "dot");
        CudaBuffer out = null;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            cublas.gemm(handle, g, p, pb, pa, partial.pointer());
            backend.countLaunch();
            out = backend.newBuffer(n * es, "dot");
            backend.launch(SplitK.SOURCE, SplitK.sumEntry(p), StridedCopy.blocks(n), SplitK.THREADS, 0,
                    new KernelArgs(arena).pointer(partial.pointer()).pointer(out.pointer()).i32((int) n).i32(slices), "dot");
            return out;
        } catch (RuntimeException e) {
            if (out != null) out.release();
            throw e;
        } finally {
            // Stream order makes releasing the partial products safe before the sum has run (see CachingAllocator).
            partial.release();
        }
    }

    Buffer run(DotPlan plan, Operand a, Operand b, GemmArgs.Precision p) {
        long es = a.dtype().byteSize();
        long outBytes = plan.batch() * plan.m() * plan.n() * es;
        if (outBytes == 0 || plan.k() == 0) return backend.allocate(outBytes);
        Buffer ta = plan.permA() == null ? null : backend.transpose(a, plan.permA());
        Buffer tb = null;
        try {
            tb = plan.permB() == null ? null : backend.transpose(b, plan.permB());
            GemmArgs g = GemmArgs.rowMajor(plan.batch(), plan.m(), plan.n(), plan.k(), plan.aTransposed(), plan.bTransposed());
            long pa = ta == null ? CudaBackend.ptr(a) : ((CudaBuffer) ta).pointer();
            long pb = tb == null ? CudaBackend.ptr(b) : ((CudaBuffer) tb).pointer();
            int slices = plan.batch() == 1 ? slices(plan, p, g, pa, pb) : 1;
            if (slices > 1) return runSplit(plan, p, pa, pb, slices);
            CudaBuffer out = backend.newBuffer(outBytes, "dot");
            try {
                cublas.gemm(handle, g, p, pb, pa, out.pointer());
            } catch (RuntimeException e) {
                out.release();
                throw e;
            }
            backend.countLaunch();
            return out;
        } finally {
            // Stream order makes releasing the permuted copies safe before the GEMM has run (see CachingAllocator).
            if (ta != null) ta.release();
            if (tb != null) tb.release();
        }
    }
}
