package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reducing a middle axis keeps two non-contiguous axes: their decomposition must precede the base offset. */
class ReductionEmitterKeptAxesTest {
    @Test
    void keptAxesAroundTheReducedOneDeclareTheirCoordinatesFirst() {
        ReductionKernel k = ReductionKernel.of(ReduceOp.SUM, DType.F32, Shape.of(3, 4, 5), new int[] {1}, DType.F32);
        String code = ReductionEmitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code();
        assertFalse(code.contains("idx_t base =     idx_t"), code);
        int decl = code.indexOf("idx_t q_ = o;"), base = code.indexOf("idx_t base = ");
        assertTrue(decl >= 0 && base > decl, code);
    }
}
