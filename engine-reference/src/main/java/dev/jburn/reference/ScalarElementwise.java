package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * The element-wise oracle: every element read through {@link HostElements} as a double (float
 * types) or a long (integers, PRED), one function from {@link UnaryFunctions} or
 * {@link BinaryFunctions} applied, the result written back with Nx rounding and wrapping.
 * Broadcast operands are read through stride-0 axes. Slow, simple, exact; every dtype.
 */
final class ScalarElementwise {
    private final Parallel parallel;

    ScalarElementwise(Parallel parallel) {
        this.parallel = parallel;
    }

    Buffer unary(UnaryOp op, Operand x, DType out) {
        long n = x.size();
        DType t = x.dtype();
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        if (t.isFloat() || op.floatMath()) {
            DoubleUnaryOperator f = UnaryFunctions.onDoubles(op, t.toFloating());
            parallel.forRange(n, UnaryFunctions.cost(op), (lo, hi) -> {
                for (long i = lo; i < hi; i++) HostElements.setDouble(dst, out, i, f.applyAsDouble(HostElements.getDouble(src, t, i)));
            });
        } else {
            LongUnaryOperator f = UnaryFunctions.onLongs(op, t);
            parallel.forRange(n, UnaryFunctions.cost(op), (lo, hi) -> {
                for (long i = lo; i < hi; i++) HostElements.setLong(dst, out, i, f.applyAsLong(HostElements.getLong(src, t, i)));
            });
        }
        return result;
    }

    Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        long n = outShape.size();
        DType t = a.dtype();
        HostBuffer result = HostBuffer.uninitialized(out.byteSize(n));
        MemorySegment sa = HostBuffer.of(a.buffer());
        MemorySegment sb = HostBuffer.of(b.buffer());
        MemorySegment dst = result.segment();
        Indexer index = new Indexer(outShape, a.shape(), b.shape());
        if (t.isFloat()) {
            DoubleBinaryOperator f = BinaryFunctions.onDoubles(op, t);
            parallel.forRange(n, BinaryFunctions.cost(op), (lo, hi) -> index.walk(lo, hi, (i, ia, ib) ->
                    HostElements.setDouble(dst, out, i, f.applyAsDouble(HostElements.getDouble(sa, t, ia), HostElements.getDouble(sb, t, ib)))));
        } else {
            LongBinaryOperator f = BinaryFunctions.onLongs(op, t);
            parallel.forRange(n, BinaryFunctions.cost(op), (lo, hi) -> index.walk(lo, hi, (i, ia, ib) ->
                    HostElements.setLong(dst, out, i, f.applyAsLong(HostElements.getLong(sa, t, ia), HostElements.getLong(sb, t, ib)))));
        }
        return result;
    }

    Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        long n = outShape.size();
        int w = onTrue.dtype().byteSize();
        HostBuffer result = HostBuffer.uninitialized(n * w);
        MemorySegment sp = HostBuffer.of(pred.buffer());
        MemorySegment st = HostBuffer.of(onTrue.buffer());
        MemorySegment sf = HostBuffer.of(onFalse.buffer());
        MemorySegment dst = result.segment();
        Shape ps = pred.shape(), ts = onTrue.shape(), fs = onFalse.shape();
        if (ps.equals(outShape) && ts.equals(outShape) && fs.equals(outShape)) {
            parallel.forRange(n, 1, (lo, hi) -> {
                for (long i = lo; i < hi; i++) Elements.copy(sp.get(ValueLayout.JAVA_BYTE, i) != 0 ? st : sf, i, dst, i, w);
            });
            return result;
        }
        int[] dims = outShape.dims();
        long[] strideP = Strides.broadcast(ps, outShape), strideT = Strides.broadcast(ts, outShape), strideF = Strides.broadcast(fs, outShape);
        parallel.forRange(n, 2, (lo, hi) -> {
            Strides.Walker walk = new Strides.Walker(dims, strideP, strideT, strideF);
            walk.seek(lo);
            for (long i = lo; i < hi; i++) {
                if (sp.get(ValueLayout.JAVA_BYTE, walk.offsets[0]) != 0) Elements.copy(st, walk.offsets[1], dst, i, w);
                else Elements.copy(sf, walk.offsets[2], dst, i, w);
                walk.next();
            }
        });
        return result;
    }

    /** Element positions of two operands broadcast to one output: linear when both have the output's shape. */
    static final class Indexer {
        @FunctionalInterface
        interface Body {
            void at(long out, long a, long b);
        }

        private final int[] dims;
        private final long[] strideA, strideB;
        private final boolean linear;

        Indexer(Shape out, Shape a, Shape b) {
            this.linear = a.equals(out) && b.equals(out);
            this.dims = out.dims();
            this.strideA = linear ? null : Strides.broadcast(a, out);
            this.strideB = linear ? null : Strides.broadcast(b, out);
        }

        void walk(long lo, long hi, Body body) {
            if (linear) {
                for (long i = lo; i < hi; i++) body.at(i, i, i);
                return;
            }
            Strides.Walker w = new Strides.Walker(dims, strideA, strideB);
            w.seek(lo);
            for (long i = lo; i < hi; i++) {
                body.at(i, w.offsets[0], w.offsets[1]);
                w.next();
            }
        }
    }
}
