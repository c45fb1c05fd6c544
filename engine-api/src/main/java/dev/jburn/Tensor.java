package dev.jburn;

import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;

/**
 * An immutable n-dimensional array with Nx semantics: row-major, NumPy broadcasting,
 * explicit axes (negative axes count from the end), every {@link DType}.
 *
 * <pre>{@code
 * Tensor a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
 * Tensor b = a.add(1).multiply(a).sum(new int[] {1}, false);   // f32[2]
 * System.out.println(b);
 * }</pre>
 *
 * Data lives off-heap in the tensor's {@link Engine}. Tensors are {@link AutoCloseable}:
 * {@link #close()} (or a {@link #scope()}) frees memory at once; a {@link Cleaner} frees
 * what is forgotten, and the host budget ({@link dev.jburn.spi.HostMemory}) runs the garbage
 * collections that find it before native memory fills up.
 */
public final class Tensor implements AutoCloseable, TensorElementwise, TensorReductions, TensorShapes, TensorIndexing,
        TensorWindows {
    private static final Cleaner CLEANER = Cleaner.create();

    static {
        dev.jburn.internal.JBurnInternals.install(new InternalAccess());
    }

    private final Engine engine;
    private final Buffer buffer;
    private final DType dtype;
    private final Shape shape;
    private final Release release;
    private final Cleaner.Cleanable cleanable;
    private volatile boolean closed;
    /**
     * The bytes of a small tensor made from host values ({@link #remember}), or null. Reads of such a tensor (a
     * step's key words, a learning rate) and moves to another engine then need no transfer from the device, which on
     * a GPU engine is a copy and a wait for all queued work. A tensor's bytes never change while it is open (an input
     * donated to a compiled function is closed), so these stay true.
     */
    private volatile byte[] known;
    /** The largest tensor whose host bytes are remembered: a batch's row weights (4 KiB at 1,024 rows), keys, scalars. */
    static final int KNOWN_BYTES = 4096;

    private Tensor(Engine engine, Buffer buffer, DType dtype, Shape shape) {
        this.engine = engine;
        this.buffer = buffer;
        this.dtype = dtype;
        this.shape = shape;
        this.release = new Release(buffer);
        // Memory that frees itself once unreachable (host memory in an automatic arena) needs no
        // second cleaner here; close() still releases it at once.
        this.cleanable = buffer.freedWhenUnreachable() ? null : CLEANER.register(this, release);
        TensorScope.track(this);
    }

    /**
     * Drops the buffer reference without touching the tensor (a cleaner action must not).
     * {@code close()} releases at once; the cleaner path uses {@link Buffer#releaseUnreachable()},
     * because a kernel may still be reading the memory of a tensor that is no longer referenced.
     */
    private static final class Release implements Runnable {
        private final Buffer buffer;
        private volatile boolean explicit;

        Release(Buffer buffer) { this.buffer = buffer; }

        @Override public void run() {
            if (explicit) buffer.release();
            else buffer.releaseUnreachable();
        }
    }

    /**
     * Wraps a fresh backend result; the tensor takes over the buffer's reference. Every op result
     * passes through here, so a traced buffer of uploaded bytes learns its type here.
     */
    static Tensor wrap(Engine engine, Buffer buffer, DType dtype, Shape shape) {
        if (buffer instanceof dev.jburn.internal.TypeBinding b) b.bindType(dtype, shape);
        return new Tensor(engine, buffer, dtype, shape);
    }

    /** A new tensor sharing this one's buffer (reshape, bitcast); the buffer gains a reference. */
    Tensor share(DType newType, Shape newShape) {
        return new Tensor(engine, live().retain(), newType, newShape).rememberFrom(this);
    }

    /** This tensor, remembering {@code host} as its bytes when they are few (not for traced tensors: they are symbolic). */
    Tensor remember(MemorySegment host) {
        if (host.byteSize() <= KNOWN_BYTES && !engine.isTracing()) known = host.toArray(ValueLayout.JAVA_BYTE);
        return this;
    }

    /** This tensor, remembering {@code same}'s bytes: for a tensor holding the same bytes (a view, a passed-through input). */
    Tensor rememberFrom(Tensor same) {
        if (same.engine.isTracing() == engine.isTracing()) known = same.known;
        return this;
    }

    /** Copies this tensor's bytes from {@code offset} into {@code dst}: from the remembered bytes where there are. */
    void read(long offset, MemorySegment dst) {
        Buffer b = live();
        byte[] k = known;
        if (k != null) MemorySegment.copy(MemorySegment.ofArray(k), offset, dst, 0, dst.byteSize());
        else engine.backend().download(b, offset, dst);
    }

    /** The backend view of this tensor. */
    Operand operand() { return new Operand(live(), dtype, shape); }

    Buffer buffer() { return live(); }

    Backend backend() { return engine.backend(); }

    private Buffer live() {
        if (closed || !buffer.isAlive()) {
            throw new JBurnException(dev.jburn.spi.UserOp.name("tensor"), "the tensor " + dtype.shortName() + shape + " was closed");
        }
        return buffer;
    }

    // ==== basic properties ======================================================================

    /** The shape. */
    public Shape shape() { return shape; }

    /** The element type. */
    public DType dtype() { return dtype; }

    /** The engine holding the data. */
    public Engine engine() { return engine; }

    /** Number of axes. */
    public int rank() { return shape.rank(); }

    /** Number of elements. */
    public long size() { return shape.size(); }

    /** Whether {@link #close()} has run. */
    public boolean isClosed() { return closed; }

    /** Frees this tensor's reference to its memory now. Further use throws {@link JBurnException}. Idempotent. */
    @Override
    public void close() {
        synchronized (release) {
            if (closed) return;
            closed = true;
            release.explicit = true;
        }
        if (cleanable != null) cleanable.clean();
        else release.run();
    }

    /**
     * Opens a scope that frees every tensor made inside it, on this thread, when closed.
     *
     * <pre>{@code
     * try (var scope = Tensor.scope()) { Tensor tmp = x.exp(); total = scope.keep(tmp.sum()); }
     * }</pre>
     */
    public static TensorScope scope() { return new TensorScope(); }

    // ==== creation from Java values ===============================================================

    /**
     * An F32 vector. One value still makes a vector: {@code Tensor.of(3.5f)} is {@code f32[1]};
     * {@link #scalar(float)} makes the rank-0 tensor.
     */
    public static Tensor of(float... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.F32, Shape.of(values.length));
    }

    /** An F64 vector. */
    public static Tensor of(double... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.F64, Shape.of(values.length));
    }

    /** An S32 vector. */
    public static Tensor of(int... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.S32, Shape.of(values.length));
    }

    /** An S64 vector. */
    public static Tensor of(long... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.S64, Shape.of(values.length));
    }

    /** An S16 vector. */
    public static Tensor of(short... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.S16, Shape.of(values.length));
    }

    /** An S8 vector. */
    public static Tensor of(byte... values) {
        Args.nonNull("of", "values", values);
        return upload(MemorySegment.ofArray(values), DType.S8, Shape.of(values.length));
    }

    /** A PRED vector. */
    public static Tensor of(boolean... values) {
        Args.nonNull("of", "values", values);
        byte[] b = new byte[values.length];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (values[i] ? 1 : 0);
        return upload(MemorySegment.ofArray(b), DType.PRED, Shape.of(values.length));
    }

    /** An F32 matrix from rows of equal length. */
    public static Tensor of(float[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray("of", rows, DType.F32);
    }

    /** An F64 matrix from rows of equal length. */
    public static Tensor of(double[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray("of", rows, DType.F64);
    }

    /** An S32 matrix from rows of equal length. */
    public static Tensor of(int[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray("of", rows, DType.S32);
    }

    /** An S64 matrix from rows of equal length. */
    public static Tensor of(long[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray("of", rows, DType.S64);
    }

    /** A PRED matrix from rows of equal length. */
    public static Tensor of(boolean[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray("of", rows, DType.PRED);
    }

    /**
     * A tensor from a rectangular nested array of any depth ({@code float[][][]}, {@code long[][][][]}, ...);
     * the dtype follows the Java element type (float→F32, double→F64, int→S32, long→S64,
     * short→S16, byte→S8, boolean→PRED).
     *
     * <pre>{@code
     * Tensor t = Tensor.fromArray(new int[][][] {{{1, 2}}, {{3, 4}}});   // s32[2,1,2]
     * }</pre>
     */
    public static Tensor fromArray(Object nestedArray) {
        HostArrays.requireArray("fromArray", nestedArray);
        return fromArray("fromArray", nestedArray, HostArrays.dtypeOf("fromArray", HostArrays.leafType(nestedArray)));
    }

    /**
     * A tensor of type {@code dtype} from a rectangular nested array (or a flat one), converting each value with
     * Nx cast semantics: {@code Tensor.fromArray(new int[] {300, 301}, DType.S8)} holds {@code [44, 45]}.
     */
    public static Tensor fromArray(Object nestedArray, DType dtype) {
        Args.nonNull("fromArray", "dtype", dtype);
        return fromArray("fromArray", nestedArray, dtype);
    }

    private static Tensor fromArray(String op, Object nestedArray, DType dtype) {
        HostArrays.requireArray(op, nestedArray);
        HostArrays.dtypeOf(op, HostArrays.leafType(nestedArray)); // validates the element type
        Shape s = HostArrays.shapeOf(nestedArray);
        long bytes = dtype.byteSize(s);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(Math.max(1, bytes), 8).asSlice(0, bytes);
            HostArrays.fill(op, nestedArray, s, dtype, host);
            return upload(host, dtype, s);
        }
    }

    /** An F32 scalar. */
    public static Tensor scalar(float value) { return of(new float[] {value}).reshape(); }

    /** An F64 scalar. */
    public static Tensor scalar(double value) { return of(new double[] {value}).reshape(); }

    /** An S32 scalar. */
    public static Tensor scalar(int value) { return of(new int[] {value}).reshape(); }

    /** An S64 scalar. */
    public static Tensor scalar(long value) { return of(new long[] {value}).reshape(); }

    /** A PRED scalar. */
    public static Tensor scalar(boolean value) { return of(new boolean[] {value}).reshape(); }

    /** A scalar of type {@code dtype} holding {@code value} converted with Nx cast semantics. */
    public static Tensor scalar(double value, DType dtype) {
        Args.nonNull("scalar", "dtype", dtype);
        return full(Shape.scalar(), dtype, value);
    }

    /** A scalar of type {@code dtype} holding the integer {@code value} (raw bits, wrapped to the width). */
    public static Tensor scalar(long value, DType dtype) {
        Args.nonNull("scalar", "dtype", dtype);
        return ShapeOps.scalarOn(Engine.defaultEngine(), dtype, value);
    }

    /** A tensor of {@code shape} whose every element is {@code value}, on the default engine. */
    public static Tensor full(Shape shape, DType dtype, double value) {
        Args.nonNull("full", "shape", shape);
        Args.nonNull("full", "dtype", dtype);
        shape.requireConcrete("full");
        return fullOn(Engine.defaultEngine(), shape, dtype, value);
    }

    /**
     * {@link #full(Shape, DType, double)} made on {@code engine} directly (not on the default engine and then moved):
     * a training loop's learning rate for a GPU engine, say.
     *
     * <pre>{@code
     * Tensor lr = Tensor.full(Shape.scalar(), DType.F32, 1e-3, Engine.select("vulkan"));
     * }</pre>
     */
    public static Tensor full(Shape shape, DType dtype, double value, Engine engine) {
        Args.nonNull("full", "shape", shape);
        Args.nonNull("full", "dtype", dtype);
        Args.nonNull("full", "engine", engine);
        shape.requireConcrete("full");
        return fullOn(engine, shape, dtype, value);
    }

    private static Tensor fullOn(Engine e, Shape shape, DType dtype, double value) {
        Tensor one = ShapeOps.scalarOn(e, dtype, value);
        if (shape.rank() == 0) return one;
        try (one) {
            return wrap(e, e.backend().broadcast(one.operand(), shape, new int[0]), dtype, shape);
        }
    }

    /**
     * Zeros of {@code like}'s shape and dtype, on its engine (numpy's {@code zeros_like}).
     * <pre>{@code Tensor.zerosLike(Tensor.of(1f, 2f));   // f32[2] [0.0, 0.0]}</pre>
     */
    public static Tensor zerosLike(Tensor like) {
        Args.nonNull("zerosLike", "like", like);
        return fullOn(like.engine, like.shape, like.dtype, 0);
    }

    /** Ones of {@code like}'s shape and dtype, on its engine (numpy's {@code ones_like}). */
    public static Tensor onesLike(Tensor like) {
        Args.nonNull("onesLike", "like", like);
        return fullOn(like.engine, like.shape, like.dtype, 1);
    }

    /**
     * {@code onTrue} where {@code condition} holds, else {@code onFalse}, broadcast together
     * (numpy's {@code where}; the same as {@code condition.select(onTrue, onFalse)}).
     * <pre>{@code Tensor.where(x.greater(0), x, Tensor.zerosLike(x));   // relu}</pre>
     */
    public static Tensor where(Tensor condition, Tensor onTrue, Tensor onFalse) {
        Args.nonNull("where", "condition", condition, "onTrue", onTrue);
        Args.nonNull("where", "onFalse", onFalse);
        try {
            return condition.select(onTrue, onFalse);
        } catch (JBurnException e) {
            throw Args.renamed(e, "where");
        }
    }

    /** All zeros. */
    public static Tensor zeros(Shape shape, DType dtype) {
        Args.nonNull("zeros", "shape", shape);
        Args.nonNull("zeros", "dtype", dtype);
        shape.requireConcrete("zeros");
        return full(shape, dtype, 0);
    }

    /** All ones. */
    public static Tensor ones(Shape shape, DType dtype) {
        Args.nonNull("ones", "shape", shape);
        Args.nonNull("ones", "dtype", dtype);
        shape.requireConcrete("ones");
        return full(shape, dtype, 1);
    }

    private static Tensor upload(MemorySegment host, DType dtype, Shape shape) {
        Engine e = Engine.defaultEngine();
        return wrap(e, e.backend().upload(host), dtype, shape).remember(host);
    }

    // ==== reading back ============================================================================

    /** All elements as floats, converted as {@code asType(F32)} would, row-major. */
    public float[] toFloatArray() {
        float[] out = new float[checkedLength()];
        if (dtype == DType.F32) {
            if (out.length > 0) read(0, MemorySegment.ofArray(out));
            return out;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            for (int i = 0; i < out.length; i++) out[i] = (float) HostElements.getDouble(h, dtype, i);
        }
        return out;
    }

    /** All elements as doubles (exact for every type but 64-bit integers beyond 2^53), row-major. */
    public double[] toDoubleArray() {
        double[] out = new double[checkedLength()];
        if (dtype == DType.F64) {
            if (out.length > 0) read(0, MemorySegment.ofArray(out));
            return out;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            for (int i = 0; i < out.length; i++) out[i] = HostElements.getDouble(h, dtype, i);
        }
        return out;
    }

    /** All elements as longs: integers exactly (U64 as raw bits), floats converted as {@code asType(S64)}. */
    public long[] toLongArray() {
        long[] out = new long[checkedLength()];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            for (int i = 0; i < out.length; i++) out[i] = HostElements.getLong(h, dtype, i);
        }
        return out;
    }

    /** All elements as ints, converted as {@code asType(S32)} would (integers wrap, floats truncate). */
    public int[] toIntArray() {
        int[] out = new int[checkedLength()];
        if (dtype == DType.S32) {
            if (out.length > 0) read(0, MemorySegment.ofArray(out));
            return out;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            for (int i = 0; i < out.length; i++) {
                out[i] = dtype.isFloat() ? (int) HostElements.doubleToLongBits(HostElements.getDouble(h, dtype, i), DType.S32)
                        : (int) HostElements.getLong(h, dtype, i);
            }
        }
        return out;
    }

    /** All elements as booleans: {@code value != 0} (NaN is true). */
    public boolean[] toBooleanArray() {
        boolean[] out = new boolean[checkedLength()];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            for (int i = 0; i < out.length; i++) {
                out[i] = dtype.isFloat() ? HostElements.getDouble(h, dtype, i) != 0 || Double.isNaN(HostElements.getDouble(h, dtype, i))
                        : HostElements.getLong(h, dtype, i) != 0;
            }
        }
        return out;
    }

    /**
     * The single element of a one-element tensor: a {@code Double} for float types, a
     * {@code Long} for integers (U64 as raw bits) and for PRED (0 or 1).
     */
    public Number item() {
        if (size() != 1) {
            throw new JBurnException("item", "item() needs exactly one element, got shape " + shape + "; get(index...) reads one element of a larger tensor");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            return dtype.isFloat() ? (Number) HostElements.getDouble(h, dtype, 0) : (Number) HostElements.getLong(h, dtype, 0);
        }
    }

    /**
     * The element at {@code index}, one index per axis (negative ones count from the end), boxed as
     * {@link #item()} boxes it. Copies one element to the host, so it suits a few reads, not loops.
     * <pre>{@code
     * Tensor.of(new int[][] {{1, 2}, {3, 4}}).get(1, 0);   // 3L
     * Tensor.of(1f, 2f, 3f).get(-1);                      // 3.0
     * Tensor.scalar(2.5).get();                           // 2.5 (a scalar takes no index)
     * }</pre>
     */
    public Number get(long... index) {
        Args.nonNull("get", "index", index);
        if (index.length != rank()) {
            throw new JBurnException("get", "expected " + rank() + " indices for shape " + shape + ", got "
                    + java.util.Arrays.toString(index) + (rank() == 1 && index.length == 0 ? " (Tensor.of(v) is a vector: get(0))" : ""));
        }
        long flat = 0;
        long[] strides = shape.strides();
        for (int i = 0; i < index.length; i++) {
            long d = shape.dim(i);
            long k = index[i] < 0 ? index[i] + d : index[i];
            if (k < 0 || k >= d) {
                throw new JBurnException("get", "index " + index[i] + " is out of bounds for axis " + i + " of size " + d + " (shape " + shape + ")");
            }
            flat += k * strides[i];
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = arena.allocate(8, 8).asSlice(0, dtype.byteSize());
            read(dtype.byteSize(flat), h);
            return dtype.isFloat() ? (Number) HostElements.getDouble(h, dtype, 0) : (Number) HostElements.getLong(h, dtype, 0);
        }
    }

    private int checkedLength() {
        live();
        if (size() > Integer.MAX_VALUE - 8) throw new JBurnException("toArray", "tensor of " + size() + " elements does not fit a Java array");
        return (int) size();
    }

    /** A copy of this tensor on {@code target}; this tensor itself when it is already there. */
    public Tensor to(Engine target) {
        Args.nonNull("to", "target", target);
        if (target == engine) return this;
        long bytes = dtype.byteSize(shape);
        byte[] k = known;
        if (k != null) { // made from host values: no transfer back from this engine
            live();
            return wrap(target, target.backend().upload(MemorySegment.ofArray(k)), dtype, shape).rememberFrom(this);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            return wrap(target, target.backend().upload(h.asSlice(0, bytes)), dtype, shape).remember(h);
        }
    }

    /** {@code Tensor<f32[2,3] cpu>} followed by the values, nested by axis; large tensors are elided. */
    @Override
    public String toString() {
        if (closed) return "Tensor<" + dtype.shortName() + shape + " " + engine.label() + " closed>";
        if (engine.isTracing()) return "Tensor<" + dtype.shortName() + shape + " traced>";
        try (Arena arena = Arena.ofConfined()) {
            return TensorFormat.format(this, HostArrays.download(this, arena));
        }
    }

    /** Raw bytes of element {@code i} of a host copy, as a value of this dtype; for the formatter. */
    static String formatElement(MemorySegment host, DType t, long i) {
        if (t.isPred()) return host.get(ValueLayout.JAVA_BYTE, i) != 0 ? "true" : "false";
        if (t == DType.F64) return Double.toString(HostElements.getDouble(host, t, i));
        if (t.isFloat()) return Float.toString((float) HostElements.getDouble(host, t, i));
        long v = HostElements.getLong(host, t, i);
        return t == DType.U64 ? Long.toUnsignedString(v) : Long.toString(v);
    }

    // ==== reshape =================================================================================

    /** The same elements with a new shape of equal size; one axis may be {@code -1} (inferred). Shares memory. */
    public Tensor reshape(int... dims) {
        Args.nonNull("reshape", "dims", dims);
        int infer = -1;
        long known = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == -1) {
                if (infer >= 0) throw new JBurnException("reshape", "only a single -1 (auto) dimension is allowed in reshape, got " + java.util.Arrays.toString(dims));
                infer = i;
            } else if (dims[i] < 0) {
                throw new JBurnException("reshape", "invalid dimension " + dims[i] + " in " + java.util.Arrays.toString(dims));
            } else {
                known *= dims[i];
            }
        }
        int[] d = dims.clone();
        if (infer >= 0) {
            if (known == 0 || size() % known != 0) {
                throw new JBurnException("reshape", "cannot reshape, current shape " + shape + " is not compatible with new shape " + java.util.Arrays.toString(dims));
            }
            d[infer] = (int) (size() / known);
        }
        return reshape(Shape.of(d));
    }

    /** The same elements with a new shape of equal size. Shares memory. */
    public Tensor reshape(Shape newShape) {
        Args.nonNull("reshape", "newShape", newShape);
        if (newShape.isOpen()) return reshape(newShape.dims());
        if (newShape.size() != size()) {
            throw new JBurnException("reshape", "cannot reshape, current shape " + shape + " is not compatible with new shape " + newShape);
        }
        return newShape.equals(shape) ? share(dtype, shape) : share(dtype, newShape);
    }

    /** Conversion to {@code target} with Nx cast semantics (see {@link DType}); same type returns a tensor sharing memory. */
    public Tensor asType(DType target) {
        Args.nonNull("asType", "target", target);
        if (target == dtype) return share(dtype, shape);
        return wrap(engine, backend().cast(operand(), target), target, shape);
    }

    // ==== element-wise ops (ElementwiseOps) =======================================================

    // ==== end element-wise ops ====================================================================

    // ==== reductions and scans (ReductionOps) =====================================================

    // ==== end reductions ==========================================================================

    // ==== shape ops (ShapeOps) ====================================================================

    /**
     * Joins tensors along {@code axis}; the other axes must match; the type is the merge of all inputs.
     *
     * <pre>{@code
     * Tensor.concatenate(List.of(Tensor.of(1, 2), Tensor.of(3)), 0);   // [1, 2, 3]
     * }</pre>
     */
    public static Tensor concatenate(java.util.List<Tensor> tensors, int axis) {
        Args.nonNull("concatenate", "tensors", tensors);
        return ShapeOps.concatenate(tensors, axis);
    }

    /** Varargs form of {@link #concatenate(java.util.List, int)}. */
    public static Tensor concatenate(int axis, Tensor... tensors) {
        Args.nonNull("concatenate", "tensors", tensors);
        return ShapeOps.concatenate(java.util.List.of(tensors), axis);
    }

    /** Stacks equal-shaped tensors along a new axis {@code axis}: two {@code [3]} tensors give {@code [2,3]} at axis 0. */
    public static Tensor stack(java.util.List<Tensor> tensors, int axis) {
        Args.nonNull("stack", "tensors", tensors);
        return ShapeOps.stack(tensors, axis);
    }

    /** Varargs form of {@link #stack(java.util.List, int)}. */
    public static Tensor stack(int axis, Tensor... tensors) {
        Args.nonNull("stack", "tensors", tensors);
        return ShapeOps.stack(java.util.List.of(tensors), axis);
    }

    // ==== end shape ops ===========================================================================

    // ==== indexing, sorting, dot (IndexOps, SortOps, DotOps) ======================================

    // ==== end indexing ============================================================================

    // ==== creation (CreationOps) ==================================================================

    /**
     * Counts {@code 0, 1, 2, ...} over the flattened shape.
     *
     * <pre>{@code Tensor.iota(Shape.of(2, 3), DType.S32)   // [[0, 1, 2], [3, 4, 5]]}</pre>
     */
    public static Tensor iota(Shape shape, DType dtype) {
        Args.nonNull("iota", "shape", shape);
        Args.nonNull("iota", "dtype", dtype);
        shape.requireConcrete("iota");
        return CreationOps.iota(shape, dtype, null);
    }

    /**
     * Counts along {@code axis}, repeated over the other axes.
     *
     * <pre>{@code Tensor.iota(Shape.of(2, 3), DType.S32, 0)   // [[0, 0, 0], [1, 1, 1]]}</pre>
     */
    public static Tensor iota(Shape shape, DType dtype, int axis) {
        Args.nonNull("iota", "shape", shape);
        Args.nonNull("iota", "dtype", dtype);
        shape.requireConcrete("iota");
        return CreationOps.iota(shape, dtype, axis);
    }

    /** The {@code n × n} identity matrix. */
    public static Tensor eye(int n, DType dtype) {
        Args.nonNull("eye", "dtype", dtype);
        return CreationOps.eye(n, n, dtype);
    }

    /** A {@code rows × cols} matrix with ones on the main diagonal. */
    public static Tensor eye(int rows, int cols, DType dtype) {
        Args.nonNull("eye", "dtype", dtype);
        return CreationOps.eye(rows, cols, dtype);
    }

    /** {@code 0, 1, ..., stop-1} as S32. */
    public static Tensor arange(int stop) { return CreationOps.arange(0, stop, 1, DType.S32); }

    /** {@code start, start+step, ...} below {@code stop} (above, for a negative step), computed exactly in integers. */
    public static Tensor arange(long start, long stop, long step, DType dtype) {
        Args.nonNull("arange", "dtype", dtype);
        return CreationOps.arange(start, stop, step, dtype);
    }

    /** {@code start + i*step} for {@code i < ceil((stop-start)/step)}, converted to {@code dtype}. */
    public static Tensor arange(double start, double stop, double step, DType dtype) {
        Args.nonNull("arange", "dtype", dtype);
        return CreationOps.arange(start, stop, step, dtype);
    }

    /** {@code n} evenly spaced values from {@code start} to {@code stop} inclusive. */
    public static Tensor linspace(double start, double stop, int n, DType dtype) {
        Args.nonNull("linspace", "dtype", dtype);
        return CreationOps.linspace(start, stop, n, true, dtype);
    }

    /** {@code n} evenly spaced values from {@code start}, to {@code stop} inclusive when {@code endpoint}. */
    public static Tensor linspace(double start, double stop, int n, boolean endpoint, DType dtype) {
        Args.nonNull("linspace", "dtype", dtype);
        return CreationOps.linspace(start, stop, n, endpoint, dtype);
    }

    // ==== end creation ============================================================================

    // ==== windows and convolution (WindowOps, ConvOps) ============================================

    // ==== end windows and convolution =============================================================
}
