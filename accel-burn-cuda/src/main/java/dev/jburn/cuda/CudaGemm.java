package dev.jburn.cuda;

import dev.jburn.DType;
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
