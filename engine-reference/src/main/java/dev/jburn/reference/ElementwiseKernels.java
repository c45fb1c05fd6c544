package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.Operand;

/**
 * Reference element-wise kernels: the Vector API fast paths ({@link VectorElementwise}) when
 * {@link EngineConfig#vectorKernels()} is on and the op, type and layout have one, otherwise the
 * scalar oracle ({@link ScalarElementwise}), which handles every type and broadcast.
 */
final class ElementwiseKernels {
    private final EngineConfig config;
    private final ScalarElementwise oracle;
    private final VectorElementwise vector;

    ElementwiseKernels(Parallel parallel, EngineConfig config) {
        this.config = config;
        this.oracle = new ScalarElementwise(parallel);
        this.vector = new VectorElementwise(parallel, config);
    }

    Buffer unary(UnaryOp op, Operand x, DType out) {
        if (config.vectorKernels() && x.dtype() == out) {
            VectorOps.Unary k = VectorOps.Unary.of(op, out);
            if (k != null) return vector.unary(k, x);
        }
        return oracle.unary(op, x, out);
    }

    Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        if (config.vectorKernels() && a.dtype() == b.dtype()) {
            VectorOps.Binary k = VectorOps.Binary.of(op, a.dtype());
            if (k != null) {
                Buffer r = vector.binary(k, a, b, outShape, out);
                if (r != null) return r;
            }
        }
        return oracle.binary(op, a, b, outShape, out);
    }

    Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        if (config.vectorKernels()) {
            Buffer r = vector.select(pred, onTrue, onFalse, outShape);
            if (r != null) return r;
        }
        return oracle.select(pred, onTrue, onFalse, outShape);
    }
}
