package dev.jburn.graph;

import dev.jburn.JBurnException;

import java.util.List;

/**
 * A value while a graph is being traced. Its type is known from the start, except for uploaded
 * bytes ({@code Backend.upload} and {@code allocate} receive no type): such a constant is typed
 * by the first {@code Tensor.wrap} or operand use that names it.
 */
final class TraceValue {
    final TraceBuilder owner;
    final TraceNode producer;
    private TensorType type;
    /** The bytes of a constant-derived value once read at trace time (a memo for repeated downloads). */
    byte[] evaluated;

    TraceValue(TraceBuilder owner, TraceNode producer, TensorType type) {
        this.owner = owner;
        this.producer = producer;
        this.type = type;
    }

    TensorType type() { return type; }

    boolean isBound() { return type != null; }

    /** Types an upload: its node becomes a {@link Prim.Constant} of {@code t}. */
    void bind(TensorType t) {
        if (type != null) return;
        byte[] bytes = producer.pendingBytes;
        if (bytes.length != t.byteSize()) {
            throw new JBurnException("jit", "internal: an upload of " + bytes.length + " bytes was used as " + t);
        }
        type = t;
        producer.prim = new Prim.Constant(bytes, t.dtype(), t.shape());
        producer.pendingBytes = null;
    }

    long byteSize() { return type != null ? type.byteSize() : producer.pendingBytes.length; }

    @Override
    public String toString() { return (type == null ? "untyped upload" : type.toString()) + (producer == null ? " input" : " from " + producer.name()); }

    /** A node while tracing; {@code prim} is {@code null} for an upload not yet typed. */
    static final class TraceNode {
        Prim prim;
        byte[] pendingBytes;
        final List<TraceValue> inputs;
        List<TraceValue> outputs;

        TraceNode(Prim prim, byte[] pendingBytes, List<TraceValue> inputs) {
            this.prim = prim;
            this.pendingBytes = pendingBytes;
            this.inputs = inputs;
        }

        String name() { return prim == null ? "upload" : prim.name(); }
    }
}
