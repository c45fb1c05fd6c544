package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ContractionOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.ShapeOp;
import dev.jburn.op.SortOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kernel planning that needs no GPU: shape-independent eager sources, reduction shapes, capabilities. */
class GeneratedKernelsTest {
    private static String cuda(ElementwiseKernel k) { return Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code(); }

    @Test
    void flattenedEagerKernelsDoNotDependOnTheSize() {
        // Full-size operands read at i, one-element operands at 0: one compiled kernel serves every size.
        String small = cuda(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(), Shape.of(10), Shape.of(10), DType.F32));
        String large = cuda(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(), Shape.of(1 << 26), Shape.of(1 << 26), DType.F32));
        assertEquals(small, large);
        assertTrue(small.contains("extern \"C\" __global__ void " + Emitter.CUDA_ENTRY), small);
        assertEquals(cuda(ElementwiseKernel.unary(UnaryOp.EXP, DType.F32, DType.F32, Shape.of(3))),
                cuda(ElementwiseKernel.unary(UnaryOp.EXP, DType.F32, DType.F32, Shape.of(300000))));
    }

    @Test
    void aKernelReadingATrailingOperandDoesNotDependOnTheBatch() {
        // GeneratedKernels caches it by the trailing size alone (FlatLayout.tag), so the batch must not be in its source.
        assertEquals(cuda(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(10, 32), Shape.of(32), Shape.of(10, 32), DType.F32)),
                cuda(ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(86528, 32), Shape.of(32), Shape.of(86528, 32), DType.F32)));
    }

    @Test
    void capabilitiesSayWhatRunsOnTheGpu() {
        assertTrue(NativeOps.supports(BinaryOp.ADD, DType.F32));
        assertTrue(NativeOps.supports(UnaryOp.EXP, DType.F32));
        assertTrue(NativeOps.supports(UnaryOp.EXP, DType.BF16));
        assertTrue(NativeOps.supports(ReduceOp.SUM, DType.F32));
        assertTrue(NativeOps.supports(ContractionOp.DOT, DType.BF16));
        assertTrue(NativeOps.supports(ShapeOp.TRANSPOSE, DType.S8));
        assertFalse(NativeOps.supports(ContractionOp.DOT, DType.S32), "integer dot runs on the cpu engine");
        assertTrue(NativeOps.supports(SortOp.SORT, DType.F32), "lines up to 4096 sort on the GPU");
        assertTrue(NativeOps.supports(ReduceOp.ARGMAX, DType.BF16));
        assertTrue(NativeOps.supports(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, DType.S8));
        assertFalse(NativeOps.supports(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, DType.F16), "f16 scans keep an f32 accumulator on the cpu engine");
        assertFalse(NativeOps.supports(UnaryOp.EXP, DType.S32), "exp has no integer kernel (the front end casts to f32 first)");
    }
}
