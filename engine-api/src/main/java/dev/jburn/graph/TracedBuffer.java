package dev.jburn.graph;

import dev.jburn.JBurnException;
import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.internal.TypeBinding;
import dev.jburn.spi.Buffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The buffer of a traced tensor: it names a value of the graph being traced and holds no memory,
 * so reference counting is bookkeeping only (kept so that use-after-close fails as it does eagerly).
 */
final class TracedBuffer implements Buffer, TypeBinding {
    private final TracingBackend backend;
    private final TraceValue value;
    private final AtomicInteger refs = new AtomicInteger(1);

    TracedBuffer(TracingBackend backend, TraceValue value) {
        this.backend = backend;
        this.value = value;
    }

    TracingBackend backend() { return backend; }

    TraceValue value() { return value; }

    @Override public long byteSize() { return value.byteSize(); }

    @Override
    public Buffer retain() {
        if (refs.getAndIncrement() <= 0) {
            refs.decrementAndGet();
            throw new JBurnException("buffer", "retain of a freed buffer");
        }
        return this;
    }

    @Override public void release() { refs.decrementAndGet(); }

    @Override public void releaseUnreachable() { refs.decrementAndGet(); }

    @Override public boolean isAlive() { return refs.get() > 0; }

    @Override public void bindType(DType dtype, Shape shape) { value.bind(new TensorType(dtype, shape)); }
}
