package dev.jburn.conformance;

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
import dev.jburn.op.Op;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The whole kit against an engine that flushes f32 subnormals, as NVIDIA's Vulkan driver does:
 * the reference engine with every F32/BF16 input of an arithmetic op and every such result put
 * through flush-to-zero. It declares {@code flushesF32Subnormals()}, so this shows the kit's
 * policy ({@link Subnormals}) is exactly enough for such an engine to pass, and no more.
 */
class FlushingEngineConformanceTest implements ConformanceKit {
    private static final Engine FLUSHING = Engine.create(new Provider(), EngineConfig.defaults().withThreads(1));

    @Override
    public Engine engine() { return FLUSHING; }

    private static final class Provider implements EngineProvider {
        @Override public String name() { return "flushing"; }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("test double"); }
        @Override public Backend create(EngineConfig config) { return new Flushing(new ReferenceProvider().create(config)); }
    }

    private static final class Flushing extends ForwardingBackend {
        Flushing(Backend d) { super(d); }

        @Override public String name() { return "flushing"; }

        @Override
        public Capabilities capabilities() {
            Capabilities d = delegate.capabilities();
            return new Capabilities() {
                @Override public boolean supports(Op op, DType dtype) { return d.supports(op, dtype); }
                @Override public boolean flushesF32Subnormals() { return true; }
            };
        }

        @Override
        public Buffer unary(UnaryOp op, Operand x, DType out) {
            try (var in = flushed(x)) {
                return flush(delegate.unary(op, in.operand, out), out);
            }
        }

        @Override
        public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
            try (var x = flushed(a); var y = flushed(b)) {
                return flush(delegate.binary(op, x.operand, y.operand, outShape, out), out);
            }
        }

        @Override
        public Buffer cast(Operand x, DType to) {
            try (var in = flushed(x)) {
                return flush(delegate.cast(in.operand, to), to);
            }
        }

        @Override
        public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) {
            try (var in = flushed(x)) {
                return flush(delegate.reduce(op, in.operand, axes, out), out);
            }
        }

        @Override
        public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) {
            try (var in = flushed(x)) {
                return flush(delegate.cumulative(op, in.operand, axis, reverse), x.dtype());
            }
        }

        @Override
        public Buffer dot(Operand a, int[] ca, int[] ba, Operand b, int[] cb, int[] bb, DType out) {
            try (var x = flushed(a); var y = flushed(b)) {
                return flush(delegate.dot(x.operand, ca, ba, y.operand, cb, bb, out), out);
            }
        }

        /** An operand with f32 subnormals flushed (a new buffer, released on close), or the operand itself. */
        private Flushed flushed(Operand o) {
            if (!Subnormals.affects(o.dtype())) return new Flushed(o, null);
            Buffer copy = flushCopy(o.buffer(), o.dtype());
            return new Flushed(new Operand(copy, o.dtype(), o.shape()), copy);
        }

        private Buffer flush(Buffer r, DType t) {
            if (!Subnormals.affects(t)) return r;
            Buffer f = flushCopy(r, t);
            r.release();
            return f;
        }

        private Buffer flushCopy(Buffer b, DType t) {
            long n = b.byteSize() / t.byteSize();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(Math.max(1, b.byteSize()), 8);
                if (b.byteSize() > 0) delegate.download(b, 0, host.asSlice(0, b.byteSize()));
                for (long i = 0; i < n; i++) {
                    double v = HostElements.getDouble(host, t, i);
                    if (Subnormals.isF32Subnormal(v)) HostElements.setDouble(host, t, i, Math.copySign(0.0, v));
                }
                return delegate.upload(host.asSlice(0, b.byteSize()));
            }
        }

        private record Flushed(Operand operand, Buffer owned) implements AutoCloseable {
            @Override public void close() { if (owned != null) owned.release(); }
        }
    }

    /** One seed of layer cases: the reference test runs both seeds. */
    @Override
    public int layerSeeds() { return 1; }
}
