package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
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
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The backend of a tracing engine: every primitive call appends a node to the graph being traced
 * and returns a {@link TracedBuffer} naming the node's output. The front end has validated,
 * promoted and decomposed before calling, so a trace records exactly the primitive graph.
 *
 * <p>Reading data is refused, except for values computed from constants alone (a
 * {@code Prng.key} made inside the function, for instance): those are evaluated on the target
 * engine at trace time.
 */
public final class TracingBackend implements Backend {
    private final Engine target;
    private final ArrayDeque<TraceBuilder> levels = new ArrayDeque<>();
    private volatile boolean finished;

    TracingBackend(Engine target) {
        this.target = target;
        levels.push(new TraceBuilder(null));
    }

    // ---- trace levels -------------------------------------------------------------------------

    TraceBuilder current() { return levels.peek(); }

    TraceBuilder root() { return levels.peekLast(); }

    /** Opens a nested level (a branch or loop graph) under the current one. */
    TraceBuilder push() {
        TraceBuilder b = new TraceBuilder(current());
        levels.push(b);
        return b;
    }

    void pop(TraceBuilder b) {
        if (levels.peek() != b) throw new IllegalStateException("trace levels closed out of order");
        levels.pop();
    }

    /** Ends the trace; its tensors can no longer be used. */
    void finish() { finished = true; }

    // ---- operands ---------------------------------------------------------------------------------

    /** The value of the current level that {@code o} reads: typed, captured and viewed as needed. */
    TraceValue resolve(Operand o) {
        requireOpen();
        if (!(o.buffer() instanceof TracedBuffer tb) || tb.backend() != this) {
            throw new JBurnException("jit", "an operand " + o.dtype().shortName() + o.shape() + " is not a tensor of this trace ("
                    + o.buffer().getClass().getSimpleName() + "); a traced tensor escaped the compiled function that made it");
        }
        TensorType want = new TensorType(o.dtype(), o.shape());
        TraceValue v = tb.value();
        v.bind(want);
        if (v.byteSize() != want.byteSize()) {
            throw new JBurnException("jit", "internal: " + v + " is read as " + want + ", of another size");
        }
        TraceBuilder here = current();
        return here.view(here.adopt(v), want);
    }

    private void requireOpen() {
        if (finished) {
            throw new JBurnException("jit", "a tensor traced by a compiled function was used after its trace ended "
                    + "(it escaped through a field or a captured variable); return it from the function instead");
        }
    }

    private List<TraceValue> values(List<Operand> ops) {
        List<TraceValue> vs = new ArrayList<>(ops.size());
        for (Operand o : ops) vs.add(resolve(o));
        return vs;
    }

    /** Records {@code prim} on operands and returns one traced buffer per output. */
    List<Buffer> record(Prim prim, List<Operand> ins) {
        List<TraceValue> outs = current().record(prim, values(ins));
        List<Buffer> bufs = new ArrayList<>(outs.size());
        for (TraceValue v : outs) bufs.add(new TracedBuffer(this, v));
        return bufs;
    }

    private Buffer one(Prim prim, Operand... ins) { return record(prim, Arrays.asList(ins)).getFirst(); }

    /** A traced buffer for a value of the current level. */
    TracedBuffer bufferOf(TraceValue v) { return new TracedBuffer(this, v); }

    /**
     * The bytes of {@code v} when it is computed from constants alone (evaluated once on the target
     * engine), or {@code null} when it depends on an input of its level.
     */
    byte[] constantValue(TraceValue v) {
        if (v.evaluated != null) return v.evaluated;
        if (v.producer == null) return null;
        if (v.producer.prim == null) return v.producer.pendingBytes;
        if (v.producer.prim instanceof Prim.Constant c) return c.bytes();
        List<TraceValue.TraceNode> ancestry = v.owner.constantAncestry(v);
        if (ancestry == null) return null;
        Graph g = TraceBuilder.build(List.of(), ancestry, List.of(v));
        Buffer out = Interpreter.execute(target.backend(), g, List.of()).getFirst();
        try {
            byte[] bytes = new byte[Math.toIntExact(v.byteSize())];
            if (bytes.length > 0) target.backend().download(out, 0, MemorySegment.ofArray(bytes));
            v.evaluated = bytes;
            return bytes;
        } finally {
            out.release();
        }
    }

    // ---- memory ---------------------------------------------------------------------------------

    @Override public String name() { return "trace"; }

    /**
     * The capabilities of the engine the function is compiled for, so the front end records the
     * same decompositions of missing primitives that it would use eagerly on that engine.
     */
    @Override public Capabilities capabilities() { return target == null ? Capabilities.everything() : target.capabilities(); }

    @Override
    public Buffer allocate(long byteSize) {
        return upload(MemorySegment.ofArray(new byte[checkedSize(byteSize)]));
    }

    @Override
    public Buffer upload(MemorySegment host) {
        requireOpen();
        byte[] bytes = new byte[checkedSize(host.byteSize())];
        MemorySegment.copy(host, ValueLayout.JAVA_BYTE, 0, bytes, 0, bytes.length);
        return new TracedBuffer(this, current().upload(bytes));
    }

    private static int checkedSize(long bytes) {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new JBurnException("jit", "a constant of " + bytes + " bytes is too large to embed in a compiled graph; pass it as an input");
        }
        return (int) bytes;
    }

    @Override
    public void download(Buffer src, long offset, MemorySegment dst) {
        requireOpen();
        if (!(src instanceof TracedBuffer tb) || tb.backend() != this) {
            throw new JBurnException("jit", "buffer " + src.getClass().getSimpleName() + " is not a tensor of this trace");
        }
        TraceValue v = tb.value();
        byte[] bytes = v.owner == current() || isEnclosing(v.owner) ? constantValue(v) : null;
        if (bytes == null) {
            throw new JBurnException("jit", "cannot read the value of a traced tensor (" + v + ") inside a compiled function; "
                    + "use Jit.cond / Jit.whileLoop for data-dependent control flow");
        }
        MemorySegment.copy(MemorySegment.ofArray(bytes), offset, dst, 0, dst.byteSize());
    }

    private boolean isEnclosing(TraceBuilder b) {
        for (TraceBuilder l : levels) if (l == b) return true;
        return false;
    }

    // ---- primitives -----------------------------------------------------------------------------

    @Override public Buffer unary(UnaryOp op, Operand x, DType out) { return one(new Prim.Unary(op, out), x); }

    @Override
    public Buffer binary(BinaryOp op, Operand a, Operand b, Shape outShape, DType out) {
        return one(new Prim.Binary(op, outShape, out), a, b);
    }

    @Override
    public Buffer select(Operand pred, Operand onTrue, Operand onFalse, Shape outShape) {
        return one(new Prim.Select(outShape), pred, onTrue, onFalse);
    }

    @Override public Buffer cast(Operand x, DType to) { return one(new Prim.Cast(to), x); }

    @Override public Buffer reduce(ReduceOp op, Operand x, int[] axes, DType out) { return one(new Prim.Reduce(op, axes.clone(), out), x); }

    @Override
    public Buffer argReduce(ReduceOp op, Operand x, int axis, boolean tieBreakHigh, DType out) {
        return one(new Prim.ArgReduce(op, axis, tieBreakHigh, out), x);
    }

    @Override
    public Buffer cumulative(CumulativeOp op, Operand x, int axis, boolean reverse) {
        return one(new Prim.Cumulative(op, axis, reverse), x);
    }

    @Override public Buffer transpose(Operand x, int[] perm) { return one(new Prim.Transpose(perm.clone()), x); }

    @Override
    public Buffer broadcast(Operand x, Shape outShape, int[] axes) { return one(new Prim.Broadcast(outShape, axes.clone()), x); }

    @Override
    public Buffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        return one(new Prim.Slice(starts.clone(), lengths.clone(), strides.clone()), x);
    }

    @Override public Buffer putSlice(Operand x, int[] starts, Operand update) { return one(new Prim.PutSlice(starts.clone()), x, update); }

    @Override
    public Buffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        return one(new Prim.Pad(lo.clone(), hi.clone(), interior.clone()), x, padValue);
    }

    @Override public Buffer reverse(Operand x, int[] axes) { return one(new Prim.Reverse(axes.clone()), x); }

    @Override public Buffer concatenate(List<Operand> parts, int axis) { return record(new Prim.Concatenate(axis), parts).getFirst(); }

    @Override public Buffer gather(Operand x, Operand indices, int[] axes) { return one(new Prim.Gather(axes.clone()), x, indices); }

    @Override
    public Buffer indexedUpdate(Operand target, Operand indices, Operand updates, int[] axes, boolean accumulate) {
        return one(new Prim.IndexedUpdate(axes.clone(), accumulate), target, indices, updates);
    }

    @Override public Buffer sort(Operand x, int axis, boolean descending) { return one(new Prim.Sort(axis, descending), x); }

    @Override
    public Buffer argsort(Operand x, int axis, boolean descending, DType indexType) {
        return one(new Prim.Argsort(axis, descending, indexType), x);
    }

    @Override
    public Buffer dot(Operand a, int[] contractA, int[] batchA, Operand b, int[] contractB, int[] batchB, DType out) {
        return one(new Prim.Dot(contractA.clone(), batchA.clone(), contractB.clone(), batchB.clone(), out), a, b);
    }

    @Override public Buffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) { return one(new Prim.Conv(spec, out), input, kernel); }

    @Override public Buffer windowReduce(WindowOp op, Operand x, WindowSpec spec) { return one(new Prim.WindowReduce(op, spec), x); }

    @Override
    public Buffer windowScatter(WindowOp op, Operand x, Operand source, Operand init, WindowSpec spec) {
        return one(new Prim.WindowScatter(op, spec), x, source, init);
    }

    @Override public Buffer cholesky(Operand a) { return one(new Prim.Cholesky(), a); }

    @Override
    public Buffer triangularSolve(Operand a, Operand b, boolean lower, boolean leftSide, boolean transposeA) {
        return one(new Prim.TriangularSolve(lower, leftSide, transposeA), a, b);
    }

    @Override public List<Buffer> lu(Operand a) { return record(new Prim.Lu(), List.of(a)); }

    @Override public List<Buffer> qr(Operand a, boolean complete) { return record(new Prim.Qr(complete), List.of(a)); }

    @Override public List<Buffer> eigh(Operand a) { return record(new Prim.Eigh(), List.of(a)); }

    @Override public List<Buffer> svd(Operand a, boolean fullMatrices) { return record(new Prim.Svd(fullMatrices), List.of(a)); }

    @Override public Buffer iota(Shape shape, DType dtype, int axis) { return one(new Prim.Iota(shape, dtype, axis)); }

    @Override public void close() { finish(); }
}
