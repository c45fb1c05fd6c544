package com.example.heap;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.HostFallbackBackend;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Memory of its own and three native kernels (f32 negate, add and multiply on equal shapes);
 * every other primitive, and every other dtype or shape, runs on the cpu engine through
 * {@link HostFallbackBackend}, which copies the operands there and the result back, and counts it
 * ({@code engine.fallbackCounts()}).
 */
final class HeapBackend extends HostFallbackBackend {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    @Override public String name() { return "heap"; }

    /** Every op runs here, natively or through the fallback, so the front end never decomposes one. */
    @Override public Capabilities capabilities() { return Capabilities.everything(); }

    @Override public Buffer allocate(long byteSize) { return new HeapBuffer(byteSize); }

    @Override
    public Buffer upload(MemorySegment host) {
        HeapBuffer b = new HeapBuffer(host.byteSize());
        MemorySegment.copy(host, 0, b.segment, 0, host.byteSize());
        return b;
    }

    /** Reads from {@code offset}: a tensor may be a view that starts inside its buffer. */
    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        MemorySegment.copy(((HeapBuffer) src).segment, offset, dst, 0, dst.byteSize());
    }

    @Override
    public Buffer unary(UnaryOp op, Operand x, DType out) {
        if (op != UnaryOp.NEGATE || x.dtype() != DType.F32) return super.unary(op, x, out);
        MemorySegment in = ((HeapBuffer) x.buffer()).segment;
        HeapBuffer result = new HeapBuffer(x.size() * 4);
        for (long i = 0; i < x.size(); i++) result.segment.setAtIndex(F32, i, -in.getAtIndex(F32, i));
        return result;
    }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        boolean onHeap = (op == BinaryOp.ADD || op == BinaryOp.MULTIPLY) && out == DType.F32
                && a.shape().equals(outShape) && b.shape().equals(outShape);
        if (!onHeap) return super.binary(op, a, b, outShape, out);
        MemorySegment x = ((HeapBuffer) a.buffer()).segment, y = ((HeapBuffer) b.buffer()).segment;
        HeapBuffer result = new HeapBuffer(a.size() * 4);
        for (long i = 0; i < a.size(); i++) {
            float u = x.getAtIndex(F32, i), v = y.getAtIndex(F32, i);
            result.segment.setAtIndex(F32, i, op == BinaryOp.ADD ? u + v : u * v);
        }
        return result;
    }

    /** The cpu engine's backend is shared with the rest of the program: not closed here. */
    @Override public void close() {}
}
