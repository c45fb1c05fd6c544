package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the MSL dialect writes and refuses. Its kernels are compiled and run by accel-burn-metal's
 * clang checks; here, the choices that those cannot see: what is reported unsupported and why.
 */
class MetalDialectTest {
    private static final DeviceFeatures APPLE = new DeviceFeatures(false, true, true, true, false);
    private static final DeviceFeatures APPLE_BFLOAT = new DeviceFeatures(false, true, true, true, true);
    private static final Shape S = Shape.of(8);

    @Test
    void f64IsUnsupportedSoItRunsOnTheCpuEngine() {
        var exp = ElementwiseKernel.unary(UnaryOp.EXP, DType.F64, DType.F64, S);
        assertEquals(Optional.of("the device has no 64-bit floats"), Emitter.unsupported(exp, Dialect.METAL, APPLE));
        assertTrue(Emitter.unsupported(ElementwiseKernel.cast(DType.F32, DType.F64, S), Dialect.METAL, APPLE).isPresent());
        assertTrue(ReductionEmitter.unsupported(ReductionKernel.of(ReduceOp.SUM, DType.F64, S, new int[] {0}, DType.F64), Dialect.METAL, APPLE).isPresent());
        // Even on a device claiming doubles, the dialect has no f64 math.
        assertTrue(Emitter.unsupported(exp, Dialect.METAL, DeviceFeatures.ALL).isPresent());
    }

    @Test
    void whatMslLacksOrLeavesUnspecifiedIsReported() {
        for (UnaryOp u : new UnaryOp[] {UnaryOp.EXPM1, UnaryOp.LOG1P, UnaryOp.ERF, UnaryOp.ERFC, UnaryOp.CBRT, UnaryOp.ERF_INV}) {
            var k = ElementwiseKernel.unary(u, DType.F32, DType.F32, S);
            assertTrue(Emitter.unsupported(k, Dialect.METAL, APPLE).orElseThrow().startsWith("msl has no exact"), u.opName());
        }
        for (BinaryOp b : new BinaryOp[] {BinaryOp.POW, BinaryOp.ATAN2, BinaryOp.REMAINDER}) {
            var k = ElementwiseKernel.binary(b, DType.F32, S, S, S, DType.F32);
            assertTrue(Emitter.unsupported(k, Dialect.METAL, APPLE).isPresent(), b.opName());
        }
        var exp = ElementwiseKernel.unary(UnaryOp.EXP, DType.F16, DType.F16, S);
        assertEquals(Optional.empty(), Emitter.unsupported(exp, Dialect.METAL, APPLE));
        var intRem = ElementwiseKernel.binary(BinaryOp.REMAINDER, DType.S64, S, S, S, DType.S64);
        assertEquals(Optional.empty(), Emitter.unsupported(intRem, Dialect.METAL, APPLE), "64-bit integers are MSL's long");
    }

    @Test
    void buffersUseMetalAddressSpacesAndHalfBfloatOnlyWhereSupported() {
        String add = Emitter.emit(ElementwiseKernel.binary(BinaryOp.ADD, DType.F16, S, S, S, DType.F16), Dialect.METAL, APPLE).code();
        assertTrue(add.contains("device const half* in0 [[buffer(0)]]"), add);
        assertTrue(add.contains("device half* out [[buffer(2)]]"), add);
        assertTrue(add.contains("constant uint& n [[buffer(3)]]"), add);
        assertTrue(add.contains("[[thread_position_in_grid]]"), add);
        assertTrue(add.contains("as_type<"), add);
        assertFalse(add.contains("double"), add);

        String bf = Emitter.emit(ElementwiseKernel.unary(UnaryOp.NEGATE, DType.BF16, DType.BF16, S), Dialect.METAL, APPLE).code();
        assertTrue(bf.contains("typedef ushort jb_bf16;") && !bf.contains("bfloat"), "no bfloat before MSL 3.1");
        String bfNative = Emitter.emit(ElementwiseKernel.unary(UnaryOp.NEGATE, DType.BF16, DType.BF16, S), Dialect.METAL, APPLE_BFLOAT).code();
        assertTrue(bfNative.contains("typedef bfloat jb_bf16;"), bfNative);

        String sum = ReductionEmitter.emit(ReductionKernel.of(ReduceOp.SUM, DType.F32, Shape.of(4, 6), new int[] {1}, DType.F32),
                Dialect.METAL, APPLE).code();
        assertTrue(sum.contains("threadgroup f32 sh[256];"), sum);
        assertTrue(sum.contains("threadgroup_barrier(mem_flags::mem_threadgroup);"), sum);
        assertTrue(sum.contains("[[threadgroup_position_in_grid]]") && sum.contains("[[thread_position_in_threadgroup]]"), sum);
    }

    @Test
    void entryPointsAreNamedForCppNotMain() {
        var k = Emitter.emit(ElementwiseKernel.unary(UnaryOp.ABS, DType.S32, DType.S32, S), Dialect.METAL, APPLE);
        assertEquals(Emitter.CUDA_ENTRY, k.entry());
        assertTrue(k.code().contains("kernel void " + Emitter.CUDA_ENTRY + "("));
        var r = ReductionEmitter.emitRows(ReduceOp.REDUCE_MAX, DType.U8, DType.U8, Dialect.METAL, APPLE);
        assertEquals(ReductionEmitter.CUDA_ENTRY, r.entry());
    }
}
