package dev.jburn.conformance;

import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.WindowSpec;
import dev.jburn.op.WindowOp;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.CumulativeOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.reference.ReferenceProvider;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kit must catch a wrong engine and say where: a cpu engine whose F64 to S8 cast is off by one in element 0. */
class BrokenEngineTest {
    private static final Engine BROKEN = Engine.create(new BrokenCastProvider(), EngineConfig.defaults().withThreads(1));

    @Test
    void castPropertyCatchesAnOffByOneCast() {
        CastContract kit = () -> BROKEN;
        AssertionError e = assertThrows(AssertionError.class, kit::castToEveryTypeMatchesTheOracle);
        String m = e.getMessage();
        assertTrue(m.contains("Seed was"), m);
        assertTrue(m.contains("asType s8"), m);
        assertTrue(m.contains("expected"), m);
    }

    @Test
    void nxRulesPropertyCatchesItWithoutTheOracle() {
        CastContract kit = () -> BROKEN;
        AssertionError e = assertThrows(AssertionError.class, kit::castFollowsTheNxRules);
        assertTrue(e.getMessage().contains("at flat index 0"), e.getMessage());
    }

    /** Provides the reference backend with the broken cast. */
    private static final class BrokenCastProvider implements EngineProvider {
        @Override public String name() { return "broken-cast"; }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("test double"); }
        @Override public Backend create(EngineConfig config) { return new BrokenCast(new ReferenceProvider().create(config.withVectorKernels(false))); }
    }

    /** Delegates everything to the reference backend, except that a float-to-S8 cast adds 1 to element 0. */
    private record BrokenCast(Backend d) implements Backend {
        @Override
        public Buffer cast(Operand x, DType to) {
            Buffer out = d.cast(x, to);
            if (!x.dtype().isFloat() || to != DType.S8 || x.size() == 0) return out;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(x.size());
                d.download(out, 0, host);
                HostElements.setLong(host, to, 0, HostElements.getLong(host, to, 0) + 1);
                out.release();
                return d.upload(host);
            }
        }

        @Override public String name() { return "broken-cast"; }
        @Override public Capabilities capabilities() { return d.capabilities(); }
        @Override public Buffer allocate(long byteSize) { return d.allocate(byteSize); }
        @Override public Buffer upload(MemorySegment host) { return d.upload(host); }
        @Override public void download(Buffer src, long offset, MemorySegment dst) { d.download(src, offset, dst); }
        @Override public Buffer unary(UnaryOp op, Operand x, DType out) { return d.unary(op, x, out); }
        @Override public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) { return d.binary(op, a, b, outShape, out); }
        @Override public Buffer select(Operand p, Operand t, Operand f, Shape outShape) { return d.select(p, t, f, outShape); }
        @Override public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) { return d.reduce(op, x, axes, out); }
        @Override public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean high, DType out) { return d.argReduce(op, x, axis, high, out); }
        @Override public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) { return d.cumulative(op, x, axis, reverse); }
        @Override public Buffer transpose(Operand x, int[] perm) { return d.transpose(x, perm); }
        @Override public Buffer broadcast(Operand x, Shape outShape, int[] axes) { return d.broadcast(x, outShape, axes); }
        @Override public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) { return d.slice(x, starts, lengths, strides); }
        @Override public Buffer putSlice(Operand x, int[] starts, Operand update) { return d.putSlice(x, starts, update); }
        @Override public Buffer pad(Operand x, Operand v, int[] lo, int[] hi, int[] interior) { return d.pad(x, v, lo, hi, interior); }
        @Override public Buffer reverse(Operand x, int[] axes) { return d.reverse(x, axes); }
        @Override public Buffer concatenate(List<Operand> parts, int axis) { return d.concatenate(parts, axis); }
        @Override public Buffer gather(Operand x, Operand indices, int[] axes) { return d.gather(x, indices, axes); }
        @Override public Buffer indexedUpdate(Operand t, Operand i, Operand u, int[] axes, boolean acc) { return d.indexedUpdate(t, i, u, axes, acc); }
        @Override public Buffer sort(Operand x, int axis, boolean descending) { return d.sort(x, axis, descending); }
        @Override public Buffer argsort(Operand x, int axis, boolean descending, DType t) { return d.argsort(x, axis, descending, t); }
        @Override public Buffer dot(Operand a, int[] ca, int[] ba, Operand b, int[] cb, int[] bb, DType out) { return d.dot(a, ca, ba, b, cb, bb, out); }
        @Override public Buffer iota(Shape shape, DType dtype, int axis) { return d.iota(shape, dtype, axis); }
        @Override public Buffer conv(Operand in, Operand k, ConvSpec spec, DType out) { return d.conv(in, k, spec, out); }
        @Override public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) { return d.windowReduce(op, x, spec); }
        @Override public Buffer windowScatter(WindowOp op, Operand x, Operand s, Operand init, WindowSpec spec) { return d.windowScatter(op, x, s, init, spec); }
        @Override public Buffer cholesky(Operand a) { return d.cholesky(a); }
        @Override public Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean left, boolean tr) { return d.triangularSolve(a, b, lower, left, tr); }
        @Override public List<Buffer> lu(Operand a) { return d.lu(a); }
        @Override public List<Buffer> qr(Operand a, boolean complete) { return d.qr(a, complete); }
        @Override public List<Buffer> eigh(Operand a) { return d.eigh(a); }
        @Override public List<Buffer> svd(Operand a, boolean full) { return d.svd(a, full); }
        @Override public void close() { d.close(); }
    }
}
