package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.op.WindowOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A backend that forwards every kernel to another one. Subclass it to wrap an engine: inject
 * faults (to see that the kit catches them), count calls, or route some ops elsewhere.
 *
 * <pre>{@code
 * class OffByOneAdd extends ForwardingBackend {
 *     OffByOneAdd(Backend d) { super(d); }
 *     @Override public Buffer binary(BinaryOp op, Operand a, Operand b, Shape s, DType out) { ... }
 * }
 * }</pre>
 */
public abstract class ForwardingBackend implements Backend {
    /** The backend every call goes to. */
    protected final Backend delegate;

    protected ForwardingBackend(Backend delegate) {
        this.delegate = delegate;
    }

    @Override public String name() { return delegate.name(); }
    @Override public Capabilities capabilities() { return delegate.capabilities(); }
    @Override public void synchronize() { delegate.synchronize(); }
    @Override public Buffer allocate(long byteSize) { return delegate.allocate(byteSize); }
    @Override public Buffer upload(MemorySegment host) { return delegate.upload(host); }
    @Override public void download(Buffer src, long offset, MemorySegment dst) { delegate.download(src, offset, dst); }
    @Override public Buffer unary(UnaryOp op, Operand x, DType out) { return delegate.unary(op, x, out); }
    @Override public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) { return delegate.binary(op, a, b, outShape, out); }
    @Override public Buffer select(Operand p, Operand t, Operand f, Shape outShape) { return delegate.select(p, t, f, outShape); }
    @Override public Buffer cast(Operand x, DType to) { return delegate.cast(x, to); }
    @Override public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) { return delegate.reduce(op, x, axes, out); }
    @Override public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean high, DType out) { return delegate.argReduce(op, x, axis, high, out); }
    @Override public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) { return delegate.cumulative(op, x, axis, reverse); }
    @Override public Buffer transpose(Operand x, int[] perm) { return delegate.transpose(x, perm); }
    @Override public Buffer broadcast(Operand x, Shape outShape, int[] axes) { return delegate.broadcast(x, outShape, axes); }
    @Override public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) { return delegate.slice(x, starts, lengths, strides); }
    @Override public Buffer putSlice(Operand x, int[] starts, Operand update) { return delegate.putSlice(x, starts, update); }
    @Override public Buffer pad(Operand x, Operand v, int[] lo, int[] hi, int[] interior) { return delegate.pad(x, v, lo, hi, interior); }
    @Override public Buffer reverse(Operand x, int[] axes) { return delegate.reverse(x, axes); }
    @Override public Buffer concatenate(List<Operand> parts, int axis) { return delegate.concatenate(parts, axis); }
    @Override public Buffer gather(Operand x, Operand indices, int[] axes) { return delegate.gather(x, indices, axes); }
    @Override public Buffer indexedUpdate(Operand t, Operand i, Operand u, int[] axes, boolean acc) { return delegate.indexedUpdate(t, i, u, axes, acc); }
    @Override public Buffer sort(Operand x, int axis, boolean descending) { return delegate.sort(x, axis, descending); }
    @Override public Buffer argsort(Operand x, int axis, boolean descending, DType t) { return delegate.argsort(x, axis, descending, t); }
    @Override public Buffer dot(Operand a, int[] ca, int[] ba, Operand b, int[] cb, int[] bb, DType out) { return delegate.dot(a, ca, ba, b, cb, bb, out); }
    @Override public Buffer conv(Operand in, Operand k, ConvSpec spec, DType out) { return delegate.conv(in, k, spec, out); }
    @Override public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) { return delegate.windowReduce(op, x, spec); }
    @Override public Buffer windowScatter(WindowOp op, Operand x, Operand s, Operand init, WindowSpec spec) { return delegate.windowScatter(op, x, s, init, spec); }
    @Override public Buffer cholesky(Operand a) { return delegate.cholesky(a); }
    @Override public Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean left, boolean tr) { return delegate.triangularSolve(a, b, lower, left, tr); }
    @Override public List<Buffer> lu(Operand a) { return delegate.lu(a); }
    @Override public List<Buffer> qr(Operand a, boolean complete) { return delegate.qr(a, complete); }
    @Override public List<Buffer> eigh(Operand a) { return delegate.eigh(a); }
    @Override public List<Buffer> svd(Operand a, boolean full) { return delegate.svd(a, full); }
    @Override public Buffer iota(Shape shape, DType dtype, int axis) { return delegate.iota(shape, dtype, axis); }
    @Override public void close() { delegate.close(); }
}
