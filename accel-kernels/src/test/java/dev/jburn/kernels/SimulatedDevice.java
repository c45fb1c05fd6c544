package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.spi.Availability;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Capabilities;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A "device" whose memory is its own (native segments the cpu engine never sees) and whose only
 * native kernel is F32 addition, so everything else goes through {@link HostFallbackBackend}.
 */
final class SimulatedDevice extends HostFallbackBackend {
    static final EngineProvider PROVIDER = new EngineProvider() {
        @Override public String name() { return "simulated"; }
        @Override public int priority() { return -1; }
        @Override public Availability availability() { return Availability.yes("simulated device"); }
        @Override public Backend create(EngineConfig config) { return new SimulatedDevice(); }
    };

    final AtomicInteger live = new AtomicInteger();

    private final class DeviceBuffer implements Buffer {
        private final Arena arena = Arena.ofShared();
        final MemorySegment segment;
        private final AtomicInteger refs = new AtomicInteger(1);

        DeviceBuffer(long bytes) {
            segment = arena.allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
            live.incrementAndGet();
        }

        @Override public long byteSize() { return segment.byteSize(); }

        @Override public Buffer retain() {
            if (refs.getAndIncrement() <= 0) throw new IllegalStateException("buffer already freed");
            return this;
        }

        @Override public void release() {
            if (refs.decrementAndGet() == 0) {
                arena.close();
                live.decrementAndGet();
            }
        }

        @Override public void releaseUnreachable() { release(); }

        @Override public boolean isAlive() { return refs.get() > 0; }
    }

    @Override public String name() { return "simulated"; }

    @Override public Capabilities capabilities() {
        return (op, dtype) -> op == BinaryOp.ADD && dtype == DType.F32;
    }

    @Override public Buffer allocate(long byteSize) { return new DeviceBuffer(byteSize); }

    @Override public Buffer upload(MemorySegment host) {
        DeviceBuffer b = new DeviceBuffer(host.byteSize());
        b.segment.copyFrom(host);
        return b;
    }

    @Override public void download(Buffer src, long offset, MemorySegment dst) {
        MemorySegment.copy(((DeviceBuffer) src).segment, offset, dst, 0, dst.byteSize());
    }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        if (op != BinaryOp.ADD || a.dtype() != DType.F32 || !a.shape().equals(outShape) || !b.shape().equals(outShape)) {
            return super.binary(op, a, b, outShape, out);
        }
        DeviceBuffer r = new DeviceBuffer(outShape.size() * 4);
        MemorySegment x = ((DeviceBuffer) a.buffer()).segment, y = ((DeviceBuffer) b.buffer()).segment;
        for (long i = 0; i < outShape.size(); i++) {
            r.segment.setAtIndex(ValueLayout.JAVA_FLOAT, i,
                    x.getAtIndex(ValueLayout.JAVA_FLOAT, i) + y.getAtIndex(ValueLayout.JAVA_FLOAT, i));
        }
        return r;
    }

    @Override public void close() {}
}
