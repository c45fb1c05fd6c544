package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;

import java.lang.foreign.MemorySegment;

/**
 * Row-major GEMM {@code C[m,n] = A[m,k] · B[k,n]} through {@code MPSMatrixMultiplication}, for F32
 * and F16 (what MPS multiplies; other dtypes are refused, and an engine runs them elsewhere). Never
 * run on Apple hardware: its call sequence is tested against the fake runtime ({@code MetalGemmTest}).
 *
 * <pre>{@code
 * MetalGemm.multiply(gpu, a, b, c, 64, 32, 128, DType.F32); // a: 64x128, b: 128x32, c: 64x32
 * }</pre>
 */
final class MetalGemm {
    /** {@code MPSDataTypeFloat32}: the float bit (0x10000000) with the width. */
    static final int MPS_FLOAT32 = 0x1000_0020;
    /** {@code MPSDataTypeFloat16}. */
    static final int MPS_FLOAT16 = 0x1000_0010;

    private MetalGemm() {}

    /** Multiplies and waits; the buffers hold row-major matrices of {@code dtype} with no padding between rows. */
    static void multiply(MetalDevice gpu, MetalDevice.SharedBuffer a, MetalDevice.SharedBuffer b, MetalDevice.SharedBuffer c,
                         long m, long n, long k, DType dtype) {
        String shapes = "A[" + m + "," + k + "] · B[" + k + "," + n + "] -> C[" + m + "," + n + "]";
        int type = switch (dtype) {
            case F32 -> MPS_FLOAT32;
            case F16 -> MPS_FLOAT16;
            default -> throw new JBurnException("dot", "MPSMatrixMultiplication multiplies f32 and f16, not " + dtype.shortName() + ": " + shapes);
        };
        if (m <= 0 || n <= 0 || k <= 0) throw new JBurnException("dot", "MPS needs non-empty matrices: " + shapes);
        long e = dtype.byteSize();
        need(a, m * k * e, "A", shapes);
        need(b, k * n * e, "B", shapes);
        need(c, m * n * e, "C", shapes);
        Objc objc = gpu.objc();
        objc.load(Natives.Library.MPS);
        MemorySegment left = MemorySegment.NULL, right = MemorySegment.NULL, result = MemorySegment.NULL, kernel = MemorySegment.NULL;
        try (Objc.Pool pool = objc.pool()) {
            left = matrix(objc, a, m, k, e, type);
            right = matrix(objc, b, k, n, e, type);
            result = matrix(objc, c, m, n, e, type);
            kernel = objc.id(objc.id(objc.cls("MPSMatrixMultiplication"), Sel.ALLOC), Sel.INIT_MATMUL,
                    gpu.device(), false, false, m, n, k, 1.0, 0.0); // +1
            MemorySegment mm = kernel, l = left, r = right, res = result;
            gpu.submit("dot", (cb, arena) -> objc.send(mm, Sel.ENCODE_MATMUL, cb, l, r, res));
        } finally {
            objc.release(kernel);
            objc.release(result);
            objc.release(right);
            objc.release(left);
        }
    }

    /** An MPSMatrix (+1) over {@code buffer}: {@code rows x cols} of {@code elementBytes}, rows packed. */
    private static MemorySegment matrix(Objc objc, MetalDevice.SharedBuffer buffer, long rows, long cols, long elementBytes, int type) {
        MemorySegment desc = objc.id(objc.cls("MPSMatrixDescriptor"), Sel.MATRIX_DESCRIPTOR, rows, cols, cols * elementBytes, type); // autoreleased
        return objc.id(objc.id(objc.cls("MPSMatrix"), Sel.ALLOC), Sel.INIT_MATRIX, buffer.buffer(), desc);
    }

    private static void need(MetalDevice.SharedBuffer b, long bytes, String which, String shapes) {
        if (b.bytes() < bytes) throw new JBurnException("dot", which + " holds " + b.bytes() + " bytes, the shapes need " + bytes + ": " + shapes);
    }
}
