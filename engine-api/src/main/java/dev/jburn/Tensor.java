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
 * what is forgotten.
 */
public final class Tensor implements AutoCloseable {
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

    private Tensor(Engine engine, Buffer buffer, DType dtype, Shape shape) {
        this.engine = engine;
        this.buffer = buffer;
        this.dtype = dtype;
        this.shape = shape;
        this.release = new Release(buffer);
        this.cleanable = CLEANER.register(this, release);
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
        return new Tensor(engine, live().retain(), newType, newShape);
    }

    /** The backend view of this tensor. */
    Operand operand() { return new Operand(live(), dtype, shape); }

    Buffer buffer() { return live(); }

    Backend backend() { return engine.backend(); }

    private Buffer live() {
        if (closed || !buffer.isAlive()) throw new JBurnException("tensor", "the tensor " + dtype.shortName() + shape + " was closed");
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
        if (closed) return;
        closed = true;
        release.explicit = true;
        cleanable.clean();
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

    /** An F32 vector. */
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
        return fromArray(rows);
    }

    /** An F64 matrix from rows of equal length. */
    public static Tensor of(double[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray(rows);
    }

    /** An S32 matrix from rows of equal length. */
    public static Tensor of(int[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray(rows);
    }

    /** An S64 matrix from rows of equal length. */
    public static Tensor of(long[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray(rows);
    }

    /** A PRED matrix from rows of equal length. */
    public static Tensor of(boolean[][] rows) {
        Args.nonNull("of", "rows", rows);
        return fromArray(rows);
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
        if (nestedArray == null || !nestedArray.getClass().isArray()) {
            throw new JBurnException("tensor", "expected a Java array, got " + (nestedArray == null ? "null" : nestedArray.getClass().getName()));
        }
        return fromArray(nestedArray, HostArrays.dtypeOf(HostArrays.leafType(nestedArray)));
    }

    /**
     * A tensor of type {@code dtype} from a rectangular nested array (or a flat one), converting each value with
     * Nx cast semantics: {@code Tensor.fromArray(new int[] {300, 301}, DType.S8)} holds {@code [44, 45]}.
     */
    public static Tensor fromArray(Object nestedArray, DType dtype) {
        Args.nonNull("fromArray", "dtype", dtype);
        if (nestedArray == null || !nestedArray.getClass().isArray()) {
            throw new JBurnException("tensor", "expected a Java array, got " + (nestedArray == null ? "null" : nestedArray.getClass().getName()));
        }
        HostArrays.dtypeOf(HostArrays.leafType(nestedArray)); // validates the element type
        Shape s = HostArrays.shapeOf(nestedArray);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(Math.max(1, s.size() * dtype.byteSize()), 8).asSlice(0, s.size() * dtype.byteSize());
            HostArrays.fill(nestedArray, s, dtype, host);
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
        Args.nonNull("scalar", "dtype", dtype);
        return full(Shape.scalar(), dtype, value);
    }

    /** A scalar of type {@code dtype} holding the integer {@code value} (raw bits, wrapped to the width). */
    public static Tensor scalar(long value, DType dtype) {
        Args.nonNull("scalar", "dtype", dtype);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(8, 8).asSlice(0, dtype.byteSize());
            HostElements.setLong(host, dtype, 0, value);
            return upload(host, dtype, Shape.scalar());
        }
    }

    /** A tensor of {@code shape} whose every element is {@code value}, on the default engine. */
    public static Tensor full(Shape shape, DType dtype, double value) {
        Args.nonNull("full", "shape", shape);
        Args.nonNull("full", "dtype", dtype);
        Tensor one;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(8, 8).asSlice(0, dtype.byteSize());
            HostElements.setDouble(host, dtype, 0, value);
            one = upload(host, dtype, Shape.scalar());
        }
        if (shape.rank() == 0) return one;
        try (one) {
            Engine e = one.engine;
            return wrap(e, e.backend().broadcast(one.operand(), shape, new int[0]), dtype, shape);
        }
    }

    /** All zeros. */
    public static Tensor zeros(Shape shape, DType dtype) {
        Args.nonNull("zeros", "shape", shape);
        Args.nonNull("zeros", "dtype", dtype);
        return full(shape, dtype, 0);
    }

    /** All ones. */
    public static Tensor ones(Shape shape, DType dtype) {
        Args.nonNull("ones", "shape", shape);
        Args.nonNull("ones", "dtype", dtype);
        return full(shape, dtype, 1);
    }

    private static Tensor upload(MemorySegment host, DType dtype, Shape shape) {
        Engine e = Engine.defaultEngine();
        return wrap(e, e.backend().upload(host), dtype, shape);
    }

    // ==== reading back ============================================================================

    /** All elements as floats, converted as {@code asType(F32)} would, row-major. */
    public float[] toFloatArray() {
        float[] out = new float[checkedLength()];
        if (dtype == DType.F32) {
            if (out.length > 0) backend().download(buffer(), 0, MemorySegment.ofArray(out));
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
            if (out.length > 0) backend().download(buffer(), 0, MemorySegment.ofArray(out));
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
            if (out.length > 0) backend().download(buffer(), 0, MemorySegment.ofArray(out));
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
        if (size() != 1) throw new JBurnException("item", "item() needs exactly one element, got shape " + shape);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
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
        long bytes = size() * dtype.byteSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = HostArrays.download(this, arena);
            return wrap(target, target.backend().upload(h.asSlice(0, bytes)), dtype, shape);
        }
    }

    /** {@code Tensor<f32[2,3] cpu>} followed by the values, nested by axis; large tensors are elided. */
    @Override
    public String toString() {
        if (closed) return "Tensor<" + dtype.shortName() + shape + " " + engine.name() + " closed>";
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
    // Binary ops broadcast (NumPy rules) and promote both sides with DType.merge; a Java number
    // is weakly typed (DType.mergeScalar): u8.add(10) stays U8, u8.add(256) is U16, s32.add(1.5) is F32.

    /**
     * {@code op} applied to every element; the result type is {@link dev.jburn.op.UnaryOp#resultType}.
     *
     * <pre>{@code
     * Tensor.of(1, 4, 9).apply(UnaryOp.SQRT);   // f32[3] [1.0, 2.0, 3.0]
     * }</pre>
     */
    public Tensor apply(dev.jburn.op.UnaryOp op) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.unary(op, this);
    }

    /**
     * {@code this op other} with broadcasting and promotion; the type is {@link dev.jburn.op.BinaryOp#computeType}
     * of the merged type, or PRED for comparisons and logical ops.
     */
    public Tensor apply(dev.jburn.op.BinaryOp op, Tensor other) {
        Args.nonNull("apply", "op", op);
        Args.nonNull("apply", "other", other);
        return ElementwiseOps.binary(op, this, other);
    }

    /** {@code this op scalar}, the Java integer weakly typed ({@link DType#mergeScalar(DType, long)}). */
    public Tensor apply(dev.jburn.op.BinaryOp op, long scalar) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.binary(op, this, scalar);
    }

    /** {@code this op scalar}, the Java double weakly typed ({@link DType#mergeScalar(DType, double)}). */
    public Tensor apply(dev.jburn.op.BinaryOp op, double scalar) {
        Args.nonNull("apply", "op", op);
        return ElementwiseOps.binary(op, this, scalar);
    }

    /** Absolute value. A signed minimum wraps to itself ({@code s8 -128 -> -128}); PRED gives U8. */
    public Tensor abs() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ABS, this); }

    /** {@code -x}, wrapping for integers ({@code u8 1 -> 255}); PRED gives U8. */
    public Tensor negate() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.NEGATE, this); }

    /** -1, 0 or 1 by the sign of each element; NaN stays NaN and ±0 keep their sign; PRED gives U8. */
    public Tensor sign() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIGN, this); }

    /** {@code e^x}. Integer and PRED input is computed in F32. */
    public Tensor exp() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.EXP, this); }

    /** {@code e^x - 1}, accurate near 0. Integer and PRED input is computed in F32. */
    public Tensor expm1() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.EXPM1, this); }

    /** Natural logarithm (NaN below 0, -Inf at 0). Integer and PRED input is computed in F32. */
    public Tensor log() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOG, this); }

    /** {@code log(1 + x)}, accurate near 0. Integer and PRED input is computed in F32. */
    public Tensor log1p() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOG1P, this); }

    /** Square root (NaN below 0). Integer and PRED input is computed in F32. */
    public Tensor sqrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SQRT, this); }

    /** {@code 1 / sqrt(x)}. Integer and PRED input is computed in F32. */
    public Tensor rsqrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.RSQRT, this); }

    /** Cube root. Integer and PRED input is computed in F32. */
    public Tensor cbrt() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.CBRT, this); }

    /** Sine (radians). Integer and PRED input is computed in F32. */
    public Tensor sin() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIN, this); }

    /** Cosine (radians). Integer and PRED input is computed in F32. */
    public Tensor cos() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COS, this); }

    /** Tangent (radians). Integer and PRED input is computed in F32. */
    public Tensor tan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.TAN, this); }

    /** Arc sine. Integer and PRED input is computed in F32. */
    public Tensor asin() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ASIN, this); }

    /** Arc cosine. Integer and PRED input is computed in F32. */
    public Tensor acos() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ACOS, this); }

    /** Arc tangent. Integer and PRED input is computed in F32. */
    public Tensor atan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ATAN, this); }

    /** Hyperbolic sine. Integer and PRED input is computed in F32. */
    public Tensor sinh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SINH, this); }

    /** Hyperbolic cosine. Integer and PRED input is computed in F32. */
    public Tensor cosh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COSH, this); }

    /** Hyperbolic tangent. Integer and PRED input is computed in F32. */
    public Tensor tanh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.TANH, this); }

    /** Inverse hyperbolic sine. Integer and PRED input is computed in F32. */
    public Tensor asinh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ASINH, this); }

    /** Inverse hyperbolic cosine (NaN below 1). Integer and PRED input is computed in F32. */
    public Tensor acosh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ACOSH, this); }

    /** Inverse hyperbolic tangent (±Inf at ±1). Integer and PRED input is computed in F32. */
    public Tensor atanh() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ATANH, this); }

    /** The logistic function {@code 1 / (1 + e^-x)}. Integer and PRED input is computed in F32. */
    public Tensor sigmoid() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.SIGMOID, this); }

    /** The error function. Integer and PRED input is computed in F32. */
    public Tensor erf() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERF, this); }

    /** The complementary error function {@code 1 - erf(x)}, accurate for large x. Integer and PRED input is computed in F32. */
    public Tensor erfc() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERFC, this); }

    /** The inverse error function (±Inf at ±1, NaN outside [-1, 1]). F32, F16 and BF16 use Nx's binary-backend algorithm ({@link dev.jburn.spi.ScalarMath#erfInvNx}), so results match Nx; F64 is accurate to a few ulps. Integer and PRED input is computed in F32. */
    public Tensor erfInv() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ERF_INV, this); }

    /** Rounds toward -Inf; integers are returned unchanged; PRED gives U8. */
    public Tensor floor() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.FLOOR, this); }

    /** Rounds toward +Inf; integers are returned unchanged; PRED gives U8. */
    public Tensor ceil() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.CEIL, this); }

    /** Rounds half away from zero ({@code 2.5 -> 3}, {@code -2.5 -> -3}), as Nx does; integers are unchanged; PRED gives U8. */
    public Tensor round() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.ROUND, this); }

    /** PRED: true where the element is NaN (all false for integer types). */
    public Tensor isNan() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.IS_NAN, this); }

    /** PRED: true where the element is +Inf or -Inf (all false for integer types). */
    public Tensor isInfinity() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.IS_INFINITY, this); }

    /** PRED: true where the element is zero (NaN counts as non-zero). */
    public Tensor logicalNot() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.LOGICAL_NOT, this); }

    /** Two's-complement {@code ~x} for integer types; logical not for PRED. Float input throws. */
    public Tensor bitwiseNot() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.BITWISE_NOT, this); }

    /** Number of set bits within the type's width ({@code s8 -1 -> 8}). Integer types only. */
    public Tensor populationCount() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.POPULATION_COUNT, this); }

    /** Leading zero bits within the type's width ({@code u8 1 -> 7}). Integer types only. */
    public Tensor countLeadingZeros() { return ElementwiseOps.unary(dev.jburn.op.UnaryOp.COUNT_LEADING_ZEROS, this); }

    /**
     * Element-wise sum; integers wrap ({@code u8 250 + 10 -> 4}); PRED + PRED gives U8.
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1}, {2}}).add(Tensor.of(10, 20));   // s32[2,2] [[11, 21], [12, 22]]
     * }</pre>
     */
    public Tensor add(Tensor other) {
        Args.nonNull("add", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, this, other);
    }

    /** {@link #add(Tensor)} with a weakly typed Java integer. */
    public Tensor add(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, this, scalar); }

    /** {@link #add(Tensor)} with a weakly typed Java double. */
    public Tensor add(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ADD, this, scalar); }

    /** Element-wise difference; integers wrap. */
    public Tensor subtract(Tensor other) {
        Args.nonNull("subtract", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, this, other);
    }

    /** {@link #subtract(Tensor)} with a weakly typed Java integer. */
    public Tensor subtract(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, this, scalar); }

    /** {@link #subtract(Tensor)} with a weakly typed Java double. */
    public Tensor subtract(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.SUBTRACT, this, scalar); }

    /** Element-wise product; integers wrap. */
    public Tensor multiply(Tensor other) {
        Args.nonNull("multiply", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, this, other);
    }

    /** {@link #multiply(Tensor)} with a weakly typed Java integer. */
    public Tensor multiply(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, this, scalar); }

    /** {@link #multiply(Tensor)} with a weakly typed Java double. */
    public Tensor multiply(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MULTIPLY, this, scalar); }

    /** Element-wise true division; integer operands give F32 ({@code s32 [1, 2] / 2 -> f32 [0.5, 1.0]}); IEEE results for division by zero. */
    public Tensor divide(Tensor other) {
        Args.nonNull("divide", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, this, other);
    }

    /** {@link #divide(Tensor)} with a weakly typed Java integer. */
    public Tensor divide(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, this, scalar); }

    /** {@link #divide(Tensor)} with a weakly typed Java double. */
    public Tensor divide(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.DIVIDE, this, scalar); }

    /** Integer division truncating toward zero ({@code -7 / 2 -> -3}); integer types only. Division by zero gives 0 (Nx's binary backend raises). */
    public Tensor quotient(Tensor other) {
        Args.nonNull("quotient", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, this, other);
    }

    /** {@link #quotient(Tensor)} with a weakly typed Java integer. */
    public Tensor quotient(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, this, scalar); }

    /** {@link #quotient(Tensor)} with a weakly typed Java double. */
    public Tensor quotient(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.QUOTIENT, this, scalar); }

    /** Remainder with the sign of the dividend (C {@code %}, {@code fmod} for floats): {@code remainder(-11, 10) -> -1}. Integer remainder by zero gives 0. */
    public Tensor remainder(Tensor other) {
        Args.nonNull("remainder", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, this, other);
    }

    /** {@link #remainder(Tensor)} with a weakly typed Java integer. */
    public Tensor remainder(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, this, scalar); }

    /** {@link #remainder(Tensor)} with a weakly typed Java double. */
    public Tensor remainder(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.REMAINDER, this, scalar); }

    /** {@code x^y}. Integer powers are computed exactly and wrapped to the type; a negative integer exponent gives 0, except for bases 1 and -1 (Nx raises). */
    public Tensor pow(Tensor other) {
        Args.nonNull("pow", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, this, other);
    }

    /** {@link #pow(Tensor)} with a weakly typed Java integer. */
    public Tensor pow(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, this, scalar); }

    /** {@link #pow(Tensor)} with a weakly typed Java double. */
    public Tensor pow(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.POW, this, scalar); }

    /** Arc tangent of {@code this / other} using both signs for the quadrant; integer operands give F32. */
    public Tensor atan2(Tensor other) {
        Args.nonNull("atan2", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, this, other);
    }

    /** {@link #atan2(Tensor)} with a weakly typed Java integer. */
    public Tensor atan2(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, this, scalar); }

    /** {@link #atan2(Tensor)} with a weakly typed Java double. */
    public Tensor atan2(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.ATAN2, this, scalar); }

    /** Element-wise minimum; NaN propagates; {@code -0.0 < 0.0}. */
    public Tensor min(Tensor other) {
        Args.nonNull("min", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, this, other);
    }

    /** {@link #min(Tensor)} with a weakly typed Java integer. */
    public Tensor min(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, this, scalar); }

    /** {@link #min(Tensor)} with a weakly typed Java double. */
    public Tensor min(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MIN, this, scalar); }

    /** Element-wise maximum; NaN propagates; {@code -0.0 < 0.0}. */
    public Tensor max(Tensor other) {
        Args.nonNull("max", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, this, other);
    }

    /** {@link #max(Tensor)} with a weakly typed Java integer. */
    public Tensor max(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, this, scalar); }

    /** {@link #max(Tensor)} with a weakly typed Java double. */
    public Tensor max(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.MAX, this, scalar); }

    /** PRED: {@code this == other}; NaN equals nothing. */
    public Tensor equal(Tensor other) {
        Args.nonNull("equal", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, this, other);
    }

    /** {@link #equal(Tensor)} with a weakly typed Java integer. */
    public Tensor equal(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, this, scalar); }

    /** {@link #equal(Tensor)} with a weakly typed Java double. */
    public Tensor equal(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.EQUAL, this, scalar); }

    /** PRED: {@code this != other}; true wherever either side is NaN. */
    public Tensor notEqual(Tensor other) {
        Args.nonNull("notEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, this, other);
    }

    /** {@link #notEqual(Tensor)} with a weakly typed Java integer. */
    public Tensor notEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, this, scalar); }

    /** {@link #notEqual(Tensor)} with a weakly typed Java double. */
    public Tensor notEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.NOT_EQUAL, this, scalar); }

    /** PRED: {@code this < other}; false where either side is NaN. */
    public Tensor less(Tensor other) {
        Args.nonNull("less", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, this, other);
    }

    /** {@link #less(Tensor)} with a weakly typed Java integer. */
    public Tensor less(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, this, scalar); }

    /** {@link #less(Tensor)} with a weakly typed Java double. */
    public Tensor less(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS, this, scalar); }

    /** PRED: {@code this <= other}; false where either side is NaN. */
    public Tensor lessEqual(Tensor other) {
        Args.nonNull("lessEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, this, other);
    }

    /** {@link #lessEqual(Tensor)} with a weakly typed Java integer. */
    public Tensor lessEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, this, scalar); }

    /** {@link #lessEqual(Tensor)} with a weakly typed Java double. */
    public Tensor lessEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LESS_EQUAL, this, scalar); }

    /** PRED: {@code this > other}; false where either side is NaN. */
    public Tensor greater(Tensor other) {
        Args.nonNull("greater", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, this, other);
    }

    /** {@link #greater(Tensor)} with a weakly typed Java integer. */
    public Tensor greater(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, this, scalar); }

    /** {@link #greater(Tensor)} with a weakly typed Java double. */
    public Tensor greater(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER, this, scalar); }

    /** PRED: {@code this >= other}; false where either side is NaN. */
    public Tensor greaterEqual(Tensor other) {
        Args.nonNull("greaterEqual", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, this, other);
    }

    /** {@link #greaterEqual(Tensor)} with a weakly typed Java integer. */
    public Tensor greaterEqual(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, this, scalar); }

    /** {@link #greaterEqual(Tensor)} with a weakly typed Java double. */
    public Tensor greaterEqual(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.GREATER_EQUAL, this, scalar); }

    /** PRED: both non-zero (NaN counts as non-zero). */
    public Tensor logicalAnd(Tensor other) {
        Args.nonNull("logicalAnd", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, this, other);
    }

    /** {@link #logicalAnd(Tensor)} with a weakly typed Java integer. */
    public Tensor logicalAnd(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, this, scalar); }

    /** {@link #logicalAnd(Tensor)} with a weakly typed Java double. */
    public Tensor logicalAnd(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_AND, this, scalar); }

    /** PRED: either non-zero (NaN counts as non-zero). */
    public Tensor logicalOr(Tensor other) {
        Args.nonNull("logicalOr", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, this, other);
    }

    /** {@link #logicalOr(Tensor)} with a weakly typed Java integer. */
    public Tensor logicalOr(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, this, scalar); }

    /** {@link #logicalOr(Tensor)} with a weakly typed Java double. */
    public Tensor logicalOr(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_OR, this, scalar); }

    /** PRED: exactly one non-zero (NaN counts as non-zero). */
    public Tensor logicalXor(Tensor other) {
        Args.nonNull("logicalXor", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, this, other);
    }

    /** {@link #logicalXor(Tensor)} with a weakly typed Java integer. */
    public Tensor logicalXor(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, this, scalar); }

    /** {@link #logicalXor(Tensor)} with a weakly typed Java double. */
    public Tensor logicalXor(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LOGICAL_XOR, this, scalar); }

    /** Two's-complement AND; integer types (or PRED) only. */
    public Tensor bitwiseAnd(Tensor other) {
        Args.nonNull("bitwiseAnd", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, this, other);
    }

    /** {@link #bitwiseAnd(Tensor)} with a weakly typed Java integer. */
    public Tensor bitwiseAnd(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, this, scalar); }

    /** {@link #bitwiseAnd(Tensor)} with a weakly typed Java double. */
    public Tensor bitwiseAnd(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_AND, this, scalar); }

    /** Two's-complement OR; integer types (or PRED) only. */
    public Tensor bitwiseOr(Tensor other) {
        Args.nonNull("bitwiseOr", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, this, other);
    }

    /** {@link #bitwiseOr(Tensor)} with a weakly typed Java integer. */
    public Tensor bitwiseOr(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, this, scalar); }

    /** {@link #bitwiseOr(Tensor)} with a weakly typed Java double. */
    public Tensor bitwiseOr(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_OR, this, scalar); }

    /** Two's-complement XOR; integer types (or PRED) only. */
    public Tensor bitwiseXor(Tensor other) {
        Args.nonNull("bitwiseXor", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, this, other);
    }

    /** {@link #bitwiseXor(Tensor)} with a weakly typed Java integer. */
    public Tensor bitwiseXor(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, this, scalar); }

    /** {@link #bitwiseXor(Tensor)} with a weakly typed Java double. */
    public Tensor bitwiseXor(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.BITWISE_XOR, this, scalar); }

    /** {@code this << other}, wrapped to the type; a count that is negative or at least the bit width gives 0. Integer types only. */
    public Tensor leftShift(Tensor other) {
        Args.nonNull("leftShift", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, this, other);
    }

    /** {@link #leftShift(Tensor)} with a weakly typed Java integer. */
    public Tensor leftShift(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, this, scalar); }

    /** {@link #leftShift(Tensor)} with a weakly typed Java double. */
    public Tensor leftShift(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.LEFT_SHIFT, this, scalar); }

    /** {@code this >> other}: arithmetic for signed types, logical for unsigned; a count that is negative or at least the bit width gives 0, or -1 for negative signed values. Integer types only. */
    public Tensor rightShift(Tensor other) {
        Args.nonNull("rightShift", "other", other);
        return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, this, other);
    }

    /** {@link #rightShift(Tensor)} with a weakly typed Java integer. */
    public Tensor rightShift(long scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, this, scalar); }

    /** {@link #rightShift(Tensor)} with a weakly typed Java double. */
    public Tensor rightShift(double scalar) { return ElementwiseOps.binary(dev.jburn.op.BinaryOp.RIGHT_SHIFT, this, scalar); }

    /**
     * {@code this ? onTrue : onFalse} element-wise, called on the predicate: any non-zero element
     * (NaN included) is true. The branches are promoted to their merged type; all three broadcast.
     *
     * <pre>{@code
     * x.greater(0).select(x, x.multiply(0.01));   // leaky relu
     * }</pre>
     */
    public Tensor select(Tensor onTrue, Tensor onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(this, onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java integer for the false branch. */
    public Tensor select(Tensor onTrue, long onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        return ElementwiseOps.select(this, onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java integer for the true branch. */
    public Tensor select(long onTrue, Tensor onFalse) {
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(this, onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java double for the false branch. */
    public Tensor select(Tensor onTrue, double onFalse) {
        Args.nonNull("select", "onTrue", onTrue);
        return ElementwiseOps.select(this, onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with a weakly typed Java double for the true branch. */
    public Tensor select(double onTrue, Tensor onFalse) {
        Args.nonNull("select", "onFalse", onFalse);
        return ElementwiseOps.select(this, onTrue, onFalse);
    }

    /** {@link #select(Tensor, Tensor)} with two Java integers, typed S32 (S64 when a value needs it). */
    public Tensor select(long onTrue, long onFalse) { return ElementwiseOps.select(this, onTrue, onFalse); }

    /** {@link #select(Tensor, Tensor)} with two Java doubles, typed F32. */
    public Tensor select(double onTrue, double onFalse) { return ElementwiseOps.select(this, onTrue, onFalse); }

    /**
     * Clamps every element into {@code [min, max]}: {@code max(this, min)} then {@code min(., max)}, so
     * NaN propagates and {@code min > max} gives {@code max}. The type is this type promoted with both
     * bounds; bounds broadcast like any binary operand.
     */
    public Tensor clip(Tensor min, Tensor max) {
        Args.nonNull("clip", "min", min);
        Args.nonNull("clip", "max", max);
        return ElementwiseOps.clip(this, min, max);
    }

    /** {@link #clip(Tensor, Tensor)} with weakly typed Java doubles ({@code s32.clip(0.5, 2.5)} is F32). */
    public Tensor clip(double min, double max) { return ElementwiseOps.clip(this, min, max); }

    /** {@link #clip(Tensor, Tensor)} with weakly typed Java integers ({@code u8.clip(0, 300)} is U16). */
    public Tensor clip(long min, long max) { return ElementwiseOps.clip(this, min, max); }

    /**
     * The same bits read as {@code type}, which must have the same element width (not PRED); shares memory.
     *
     * <pre>{@code
     * Tensor.of(1.0f).bitcast(DType.S32);   // s32[1] [1065353216]
     * }</pre>
     */
    public Tensor bitcast(DType type) {
        Args.nonNull("bitcast", "type", type);
        return ElementwiseOps.bitcast(this, type);
    }

    // ==== end element-wise ops ====================================================================

    // ==== reductions and scans (ReductionOps) =====================================================

    // Axis-taking reductions take an explicit int[] (no varargs): with varargs, max(3) would
    // silently resolve to the element-wise max(long) overload.

    /**
     * Sum of every element, as a scalar: s8/s16/s32 give S32, u8/u16/u32/PRED give U32, u64 gives S64,
     * floats keep their type (F16/BF16 accumulate in F32); an empty tensor sums to 0.
     * <pre>{@code Tensor.of(new int[][] {{1, 2}, {3, 4}}).sum();   // s32 10}</pre>
     */
    public Tensor sum() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, this, null, false); }

    /** Sum over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor sum(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, this, axes, false);
    }

    /** Sum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor sum(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.SUM, this, axes, keepAxes);
    }

    /** Product of every element, with the output types of {@link #sum()}; an empty tensor gives 1. */
    public Tensor product() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, this, null, false); }

    /** Product over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor product(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, this, axes, false);
    }

    /** Product over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor product(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.PRODUCT, this, axes, keepAxes);
    }

    /**
     * Largest element, in the input type; NaN propagates; an empty tensor gives -Inf (floats) or the type minimum.
     * <pre>{@code Tensor.of(1f, Float.NaN).max();   // NaN}</pre>
     */
    public Tensor max() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, this, null, false); }

    /** Maximum over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor max(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, this, axes, false);
    }

    /** Maximum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor max(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MAX, this, axes, keepAxes);
    }

    /** Smallest element, in the input type; NaN propagates; an empty tensor gives +Inf (floats) or the type maximum. */
    public Tensor min() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, this, null, false); }

    /** Minimum over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor min(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, this, axes, false);
    }

    /** Minimum over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor min(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.REDUCE_MIN, this, axes, keepAxes);
    }

    /** Whether every element is non-zero (NaN counts as non-zero), as a PRED scalar; true when empty. */
    public Tensor all() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, this, null, false); }

    /** Logical and over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor all(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, this, axes, false);
    }

    /** Logical and over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor all(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ALL, this, axes, keepAxes);
    }

    /** Whether some element is non-zero (NaN counts as non-zero), as a PRED scalar; false when empty. */
    public Tensor any() { return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, this, null, false); }

    /** Logical or over {@code axes} (negative axes count from the end), which are removed. */
    public Tensor any(int[] axes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, this, axes, false);
    }

    /** Logical or over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor any(int[] axes, boolean keepAxes) {
        return ReductionOps.reduce(dev.jburn.op.ReduceOp.ANY, this, axes, keepAxes);
    }

    /** Mean of every element: F32 for integer inputs, float types kept. <pre>{@code Tensor.of(1, 2, 3).mean();   // f32 2.0}</pre> */
    public Tensor mean() { return ReductionOps.mean(this, null, false); }

    /** Mean over {@code axes}, which are removed. */
    public Tensor mean(int[] axes) {
        return ReductionOps.mean(this, axes, false);
    }

    /** Mean over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor mean(int[] axes, boolean keepAxes) {
        return ReductionOps.mean(this, axes, keepAxes);
    }

    /** {@code log(sum(exp(x)))} over every axis, computed stably (shifted by the maximum); a float scalar. */
    public Tensor logSumExp() { return ReductionOps.logSumExp(this, null, false); }

    /** {@code log(sum(exp(x)))} over {@code axes}, which are removed. */
    public Tensor logSumExp(int[] axes) {
        return ReductionOps.logSumExp(this, axes, false);
    }

    /** {@code log(sum(exp(x)))} over {@code axes}; with {@code keepAxes} the reduced axes stay as size 1; {@code null} axes mean every axis. */
    public Tensor logSumExp(int[] axes, boolean keepAxes) {
        return ReductionOps.logSumExp(this, axes, keepAxes);
    }

    /**
     * S32 index of the largest element in the row-major flattened tensor; NaN beats every number.
     * <pre>{@code Tensor.of(3, 9, 9).argmax();   // s32 1}</pre>
     */
    public Tensor argmax() { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, this, null, false, false); }

    /** S32 indices of the largest elements along {@code axis} (removed); ties pick the first. */
    public Tensor argmax(int axis) { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, this, axis, false, false); }

    /**
     * S32 indices of the largest elements along {@code axis}; {@code keepAxis} keeps it as size 1,
     * {@code tieBreakHigh} picks the last of equal values. NaN beats every number, and of several
     * NaN the last is chosen whatever the tie break (as Nx).
     */
    public Tensor argmax(int axis, boolean keepAxis, boolean tieBreakHigh) {
        return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMAX, this, axis, keepAxis, tieBreakHigh);
    }

    /** S32 index of the smallest element in the row-major flattened tensor; NaN beats every number. */
    public Tensor argmin() { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, this, null, false, false); }

    /** S32 indices of the smallest elements along {@code axis} (removed); ties pick the first. */
    public Tensor argmin(int axis) { return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, this, axis, false, false); }

    /** As {@link #argmax(int, boolean, boolean)}, for the smallest elements (NaN still wins). */
    public Tensor argmin(int axis, boolean keepAxis, boolean tieBreakHigh) {
        return ReductionOps.argReduce(dev.jburn.op.ReduceOp.ARGMIN, this, axis, keepAxis, tieBreakHigh);
    }

    /** Running sum in the input type (PRED counts in U8) along axis 0.
     * <pre>{@code Tensor.of(1, 2, 3, 4).cumulativeSum();   // [1, 3, 6, 10]}</pre> */
    public Tensor cumulativeSum() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, this, 0, false); }

    /** Running sum in the input type (PRED counts in U8) along {@code axis}. */
    public Tensor cumulativeSum(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, this, axis, false); }

    /** Running sum in the input type (PRED counts in U8) along {@code axis}; {@code reverse} accumulates from the end. */
    public Tensor cumulativeSum(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_SUM, this, axis, reverse); }

    /** Running product in the input type (PRED in U8) along axis 0. */
    public Tensor cumulativeProduct() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, this, 0, false); }

    /** Running product in the input type (PRED in U8) along {@code axis}. */
    public Tensor cumulativeProduct(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, this, axis, false); }

    /** Running product in the input type (PRED in U8) along {@code axis}; {@code reverse} accumulates from the end. */
    public Tensor cumulativeProduct(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_PRODUCT, this, axis, reverse); }

    /** Running maximum (NaN propagates) along axis 0. */
    public Tensor cumulativeMax() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, this, 0, false); }

    /** Running maximum (NaN propagates) along {@code axis}. */
    public Tensor cumulativeMax(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, this, axis, false); }

    /** Running maximum (NaN propagates) along {@code axis}; {@code reverse} accumulates from the end. */
    public Tensor cumulativeMax(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MAX, this, axis, reverse); }

    /** Running minimum (NaN propagates) along axis 0. */
    public Tensor cumulativeMin() { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, this, 0, false); }

    /** Running minimum (NaN propagates) along {@code axis}. */
    public Tensor cumulativeMin(int axis) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, this, axis, false); }

    /** Running minimum (NaN propagates) along {@code axis}; {@code reverse} accumulates from the end. */
    public Tensor cumulativeMin(int axis, boolean reverse) { return ReductionOps.cumulative(dev.jburn.op.CumulativeOp.CUMULATIVE_MIN, this, axis, reverse); }

    // ---- sorting (SortOps) ----

    /**
     * Stable ascending sort along axis 0; NaN sorts last, {@code -0.0} and {@code 0.0} are equal.
     * <pre>{@code Tensor.of(Float.NaN, Float.NEGATIVE_INFINITY, 0f).sort();   // [-Inf, 0.0, NaN]}</pre>
     */
    public Tensor sort() { return SortOps.sort(this, 0, false); }

    /** Stable ascending sort along {@code axis}. */
    public Tensor sort(int axis) { return SortOps.sort(this, axis, false); }

    /** Stable sort along {@code axis}; descending puts NaN first and keeps equal values in their order. */
    public Tensor sort(int axis, boolean descending) { return SortOps.sort(this, axis, descending); }

    /** S32 positions that sort axis 0 ascending (stable). */
    public Tensor argsort() { return SortOps.argsort(this, 0, false); }

    /** S32 positions that sort {@code axis} ascending (stable). */
    public Tensor argsort(int axis) { return SortOps.argsort(this, axis, false); }

    /** S32 positions that sort {@code axis} (stable; NaN last ascending, first descending). */
    public Tensor argsort(int axis, boolean descending) { return SortOps.argsort(this, axis, descending); }

    /**
     * The {@code k} largest elements along the last axis, descending (NaN first), with their S32
     * indices; {@code k} may not exceed the axis size.
     * <pre>{@code try (TopK t = Tensor.of(1f, 5f, 3f).topK(2)) { t.values(); t.indices(); }   // [5, 3], [1, 2]}</pre>
     */
    public TopK topK(int k) { return SortOps.topK(this, k); }

    // ==== end reductions ==========================================================================

    // ==== shape ops (ShapeOps) ====================================================================

    /** Reverses the order of the axes: {@code [2,3,4] -> [4,3,2]}. */
    public Tensor transpose() { return ShapeOps.transpose(this); }

    /**
     * Permutes the axes: output axis {@code i} is input axis {@code perm[i]} (negative axes count from the end).
     *
     * <pre>{@code
     * Tensor.zeros(Shape.of(2, 3, 4), DType.F32).transpose(1, 0, 2).shape();   // [3, 2, 4]
     * }</pre>
     */
    public Tensor transpose(int... perm) {
        Args.nonNull("transpose", "perm", perm);
        return ShapeOps.transpose(this, perm);
    }

    /** NumPy broadcasting to {@code shape}: align on the right; each axis must be 1 or equal. {@code [3] -> [2,3]}. */
    public Tensor broadcast(Shape shape) {
        Args.nonNull("broadcast", "shape", shape);
        return ShapeOps.broadcast(this, shape);
    }

    /**
     * Broadcasting with explicit axes (Nx): input axis {@code i} becomes output axis {@code axes[i]} (increasing);
     * its size must be 1 or equal. {@code Tensor.of(1, 2).broadcast(Shape.of(2, 3), new int[] {0})} is {@code [[1,1,1],[2,2,2]]}.
     */
    public Tensor broadcast(Shape shape, int[] axes) {
        Args.nonNull("broadcast", "shape", shape);
        Args.nonNull("broadcast", "axes", axes);
        return ShapeOps.broadcast(this, shape, axes);
    }

    /** Removes every axis of size 1. Shares memory. */
    public Tensor squeeze() { return ShapeOps.squeeze(this); }

    /** Removes the given axes, each of which must have size 1. Shares memory. */
    public Tensor squeeze(int... axes) {
        Args.nonNull("squeeze", "axes", axes);
        return ShapeOps.squeeze(this, axes);
    }

    /** Inserts an axis of size 1 at {@code axis} in {@code [-rank-1, rank]}; {@code -1} appends: {@code [2,3] -> [2,3,1]}. */
    public Tensor newAxis(int axis) { return ShapeOps.newAxis(this, axis); }

    /**
     * The block starting at {@code starts} of extent {@code lengths} (Nx: each start is clamped into
     * {@code [0, dim - length]}; {@code 1 <= length <= dim}, or 0 on an empty axis).
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}).slice(new int[] {2, 2}, new int[] {2, 2});   // [[4,5],[7,8]]
     * }</pre>
     */
    public Tensor slice(int[] starts, int[] lengths) {
        Args.nonNull("slice", "starts", starts);
        Args.nonNull("slice", "lengths", lengths);
        return ShapeOps.slice(this, starts, lengths);
    }

    /** Strided slice: per axis {@code ceil(length / stride)} elements, {@code start, start + stride, ...}. */
    public Tensor slice(int[] starts, int[] lengths, int[] strides) {
        Args.nonNull("slice", "starts", starts);
        Args.nonNull("slice", "lengths", lengths);
        Args.nonNull("slice", "strides", strides);
        return ShapeOps.slice(this, starts, lengths, strides);
    }

    /**
     * This tensor with {@code update} written at {@code starts}, clamped so the update fits; the type is
     * {@code merge(this, update)}. {@code [[1,2,3],[4,5,6]].putSlice({1,1}, [[7,8],[9,10]])} is {@code [[1,7,8],[4,9,10]]}.
     */
    public Tensor putSlice(int[] starts, Tensor update) {
        Args.nonNull("putSlice", "starts", starts);
        Args.nonNull("putSlice", "update", update);
        return ShapeOps.putSlice(this, starts, update);
    }

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

    /**
     * Pads with an integer {@code value} (weakly typed, so a u8 tensor padded with 0 stays u8);
     * {@code config[i] = {lo, hi, interior}}: negative lo/hi crop after interior padding.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3).pad(0, new int[][] {{1, 1, 0}});   // [0, 1, 2, 3, 0]
     * }</pre>
     */
    public Tensor pad(long value, int[][] config) {
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(this, value, config);
    }

    /** Pads with a floating-point {@code value} (weakly typed: integer tensors become F32). See {@link #pad(long, int[][])}. */
    public Tensor pad(double value, int[][] config) {
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(this, value, config);
    }

    /** Pads with a scalar tensor {@code value}; the type is {@code merge(this, value)}. See {@link #pad(long, int[][])}. */
    public Tensor pad(Tensor value, int[][] config) {
        Args.nonNull("pad", "value", value);
        Args.nonNull("pad", "config", config);
        return ShapeOps.pad(this, value, config);
    }

    /** Reverses every axis: {@code [[1,2,3],[4,5,6]] -> [[6,5,4],[3,2,1]]}. */
    public Tensor reverse() { return ShapeOps.reverse(this); }

    /** Reverses the given axes. */
    public Tensor reverse(int... axes) {
        Args.nonNull("reverse", "axes", axes);
        return ShapeOps.reverse(this, axes);
    }

    /**
     * Repeats the tensor {@code reps[i]} times along each axis (Nx: a short {@code reps} is left-padded
     * with 1s; a long one adds leading axes). {@code [[1,2],[3,4]].tile(2)} is {@code [[1,2,1,2],[3,4,3,4]]}.
     */
    public Tensor tile(int... reps) {
        Args.nonNull("tile", "reps", reps);
        return ShapeOps.tile(this, reps);
    }

    // ==== end shape ops ===========================================================================

    // ==== indexing, sorting, dot (IndexOps, SortOps, DotOps) ======================================

    /** {@link #take(Tensor, int)} along axis 0: {@code [[1,2],[3,4]].take([1,0,1])} is {@code [[3,4],[1,2],[3,4]]}. */
    public Tensor take(Tensor indices) {
        Args.nonNull("take", "indices", indices);
        return IndexOps.take(this, indices, 0);
    }

    /** Picks slices along {@code axis} by integer {@code indices}; that axis is replaced by {@code indices.shape()}. */
    public Tensor take(Tensor indices, int axis) {
        Args.nonNull("take", "indices", indices);
        return IndexOps.take(this, indices, axis);
    }

    /**
     * Picks elements along {@code axis}: {@code indices} has this rank and equal sizes on the other axes; the output has its shape.
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}).takeAlongAxis(Tensor.of(new int[][] {{2, 0}, {1, 1}}), 1);   // [[3,1],[5,5]]
     * }</pre>
     */
    public Tensor takeAlongAxis(Tensor indices, int axis) {
        Args.nonNull("takeAlongAxis", "indices", indices);
        return IndexOps.takeAlongAxis(this, indices, axis);
    }

    /**
     * Nx gather: {@code indices} has shape {@code [..., k]}; each row addresses the leading {@code k} axes;
     * the output shape is {@code indices.shape[:-1] ++ (remaining axes)}.
     * {@code [[1,2],[3,4]].gather([[1,1],[0,1],[1,0]])} is {@code [4,2,3]}.
     */
    public Tensor gather(Tensor indices) {
        Args.nonNull("gather", "indices", indices);
        return IndexOps.gather(this, indices);
    }

    /** Nx gather over the given {@code axes} ({@code indices.shape[-1] == axes.length}). */
    public Tensor gather(Tensor indices, int[] axes) {
        Args.nonNull("gather", "indices", indices);
        Args.nonNull("gather", "axes", axes);
        return IndexOps.gather(this, indices, axes);
    }

    /**
     * Adds {@code updates} ({@code [n, ...remaining axes]}) at the {@code n} positions in {@code indices}
     * ({@code [n, k]}, addressing the leading {@code k} axes); duplicates sum; the type is {@code merge(this, updates)}.
     * A rank-1 {@code indices} of length rank with a scalar update is accepted too.
     */
    public Tensor indexedAdd(Tensor indices, Tensor updates) {
        Args.nonNull("indexedAdd", "indices", indices);
        Args.nonNull("indexedAdd", "updates", updates);
        return IndexOps.indexedUpdate(this, indices, updates, null, true);
    }

    /** {@link #indexedAdd(Tensor, Tensor)} over the given {@code axes}. */
    public Tensor indexedAdd(Tensor indices, Tensor updates, int[] axes) {
        Args.nonNull("indexedAdd", "indices", indices);
        Args.nonNull("indexedAdd", "updates", updates);
        Args.nonNull("indexedAdd", "axes", axes);
        return IndexOps.indexedUpdate(this, indices, updates, axes, true);
    }

    /** Like {@link #indexedAdd(Tensor, Tensor)} but writes; with duplicate indices the last write wins. */
    public Tensor indexedPut(Tensor indices, Tensor updates) {
        Args.nonNull("indexedPut", "indices", indices);
        Args.nonNull("indexedPut", "updates", updates);
        return IndexOps.indexedUpdate(this, indices, updates, null, false);
    }

    /** {@link #indexedPut(Tensor, Tensor)} over the given {@code axes}. */
    public Tensor indexedPut(Tensor indices, Tensor updates, int[] axes) {
        Args.nonNull("indexedPut", "indices", indices);
        Args.nonNull("indexedPut", "updates", updates);
        Args.nonNull("indexedPut", "axes", axes);
        return IndexOps.indexedUpdate(this, indices, updates, axes, false);
    }

    /**
     * Nx dot/2: a scalar multiplies; otherwise this tensor's last axis is contracted with {@code other}'s only
     * axis (rank 1) or its second-to-last. The type is {@code merge(this, other)}, not widened.
     *
     * <pre>{@code
     * Tensor.of(new float[][] {{1, 2}, {3, 4}}).dot(Tensor.of(1f, 1f));   // [3.0, 7.0]
     * }</pre>
     */
    public Tensor dot(Tensor other) {
        Args.nonNull("dot", "other", other);
        return DotOps.dot(this, other);
    }

    /**
     * General dot (Nx dot/6): contracts {@code contractA} of this with {@code contractB} of {@code b} pairwise;
     * batch axes must be the leading {@code [0..k-1]} on both. Output: batch dims, this tensor's free axes, b's free axes.
     */
    public Tensor dot(int[] contractA, int[] batchA, Tensor b, int[] contractB, int[] batchB) {
        Args.nonNull("dot", "contractA", contractA);
        Args.nonNull("dot", "batchA", batchA);
        Args.nonNull("dot", "b", b);
        Args.nonNull("dot", "contractB", contractB);
        Args.nonNull("dot", "batchB", batchB);
        return DotOps.dot(this, contractA, batchA, b, contractB, batchB);
    }

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

    /**
     * Sums over sliding windows of {@code windowDims} (one size per axis; 1 leaves an axis alone), stride 1,
     * no padding. The type is the input type (PRED counts in U8).
     *
     * <pre>{@code
     * Tensor.of(new int[][] {{1, 2, 3}, {4, 5, 6}}).reshape(1, 2, 3).windowSum(new int[] {1, 2, 1});   // [[[5, 7, 9]]]
     * }</pre>
     */
    public Tensor windowSum(int[] windowDims) {
        Args.nonNull("windowSum", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_SUM, this, windowDims, WindowOptions.defaults());
    }

    /** Sums over windows with strides, padding (identity 0) and window dilations; average pooling is this divided by the window size. */
    public Tensor windowSum(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowSum", "windowDims", windowDims);
        Args.nonNull("windowSum", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_SUM, this, windowDims, opts);
    }

    /** Products over sliding windows (padding holds 1). */
    public Tensor windowProduct(int[] windowDims) {
        Args.nonNull("windowProduct", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_PRODUCT, this, windowDims, WindowOptions.defaults());
    }

    /** Products over windows with strides, padding (identity 1) and window dilations. */
    public Tensor windowProduct(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowProduct", "windowDims", windowDims);
        Args.nonNull("windowProduct", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_PRODUCT, this, windowDims, opts);
    }

    /**
     * Maxima over sliding windows (max pooling); NaN propagates.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3, 4, 5, 6, 7).windowMax(new int[] {2}, WindowOptions.defaults().withDilations(4));   // [5, 6, 7]
     * }</pre>
     */
    public Tensor windowMax(int[] windowDims) {
        Args.nonNull("windowMax", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MAX, this, windowDims, WindowOptions.defaults());
    }

    /**
     * Maxima over windows with strides, padding (-Inf or the type minimum) and window dilations.
     *
     * <pre>{@code
     * Tensor.of(1, 2, 3).windowMax(new int[] {2}, WindowOptions.defaults().withPadding(Padding.SAME));   // [2, 3, 3]
     * }</pre>
     */
    public Tensor windowMax(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowMax", "windowDims", windowDims);
        Args.nonNull("windowMax", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MAX, this, windowDims, opts);
    }

    /** Minima over sliding windows; NaN propagates. */
    public Tensor windowMin(int[] windowDims) {
        Args.nonNull("windowMin", "windowDims", windowDims);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MIN, this, windowDims, WindowOptions.defaults());
    }

    /** Minima over windows with strides, padding (+Inf or the type maximum) and window dilations. */
    public Tensor windowMin(int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowMin", "windowDims", windowDims);
        Args.nonNull("windowMin", "opts", opts);
        return WindowOps.reduce(dev.jburn.op.WindowOp.WINDOW_MIN, this, windowDims, opts);
    }

    /**
     * Max pooling's gradient: an output of this tensor's shape filled with {@code init}, to which each
     * {@code source} element is added at the position of the maximum of its window in this tensor.
     * {@code source} has the pooled shape; ties go to the last position in row-major window order, a NaN
     * beats every number; padding is never selected; no dilations. The type is {@code merge(source, init)}.
     *
     * <pre>{@code
     * t.windowScatterMax(source, 0, new int[] {2, 3}, WindowOptions.defaults().withStrides(2, 3));
     * }</pre>
     */
    public Tensor windowScatterMax(Tensor source, Tensor init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "init", init);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, this, source, init, windowDims, opts);
    }

    /** {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)} with a weakly typed integer {@code init}. */
    public Tensor windowScatterMax(Tensor source, long init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, this, source, init, windowDims, opts);
    }

    /** {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)} with a weakly typed float {@code init}. */
    public Tensor windowScatterMax(Tensor source, double init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMax", "source", source);
        Args.nonNull("windowScatterMax", "windowDims", windowDims);
        Args.nonNull("windowScatterMax", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MAX, this, source, init, windowDims, opts);
    }

    /** As {@link #windowScatterMax(Tensor, Tensor, int[], WindowOptions)}, at each window's minimum. */
    public Tensor windowScatterMin(Tensor source, Tensor init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "init", init);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, this, source, init, windowDims, opts);
    }

    /** {@link #windowScatterMin(Tensor, Tensor, int[], WindowOptions)} with a weakly typed integer {@code init}. */
    public Tensor windowScatterMin(Tensor source, long init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, this, source, init, windowDims, opts);
    }

    /** {@link #windowScatterMin(Tensor, Tensor, int[], WindowOptions)} with a weakly typed float {@code init}. */
    public Tensor windowScatterMin(Tensor source, double init, int[] windowDims, WindowOptions opts) {
        Args.nonNull("windowScatterMin", "source", source);
        Args.nonNull("windowScatterMin", "windowDims", windowDims);
        Args.nonNull("windowScatterMin", "opts", opts);
        return WindowOps.scatter(dev.jburn.op.WindowOp.WINDOW_SCATTER_MIN, this, source, init, windowDims, opts);
    }

    /**
     * Nx convolution (cross-correlation; the kernel is not flipped) of this input {@code [N, C, s...]} with
     * {@code kernel} {@code [O, C, k...]}, stride 1, no padding: output {@code [N, O, s-k+1...]} of type
     * {@code toFloating(merge(this, kernel))}.
     */
    public Tensor conv(Tensor kernel) {
        Args.nonNull("conv", "kernel", kernel);
        return ConvOps.conv(this, kernel, ConvOptions.defaults());
    }

    /**
     * Nx convolution with strides, padding (negative crops), input and kernel dilation, feature or batch
     * groups and layouts by permutation (channels last: {@link ConvOptions#channelsLast(int)}).
     *
     * <pre>{@code
     * x.conv(k, ConvOptions.defaults().withStrides(2).withPadding(Padding.SAME).withKernelDilation(2, 1));
     * }</pre>
     */
    public Tensor conv(Tensor kernel, ConvOptions opts) {
        Args.nonNull("conv", "kernel", kernel);
        Args.nonNull("conv", "opts", opts);
        return ConvOps.conv(this, kernel, opts);
    }

    /** {@link #convTranspose(Tensor, ConvOptions)} with stride 1 and no padding. */
    public Tensor convTranspose(Tensor kernel) {
        Args.nonNull("convTranspose", "kernel", kernel);
        return ConvOps.convTranspose(this, kernel, ConvOptions.defaults());
    }

    /**
     * Transposed convolution (conv-transpose layers, a conv's gradient with respect to its input): the adjoint
     * of {@code x.conv(kernel, opts)}, so {@code <x.conv(k, o), y> == <x, y.convTranspose(k, o)>}. The kernel
     * keeps the forward conv's layout {@code [C_in of this, C_out/groups, k...]} (PyTorch's weight layout);
     * each output spatial size is {@code (in-1)*stride + k_eff - lo - hi + outputPadding} ({@code in*stride}
     * with {@link Padding#SAME}). Equals PyTorch's {@code conv_transpose2d(y, k, stride, padding, output_padding,
     * groups, dilation)} for symmetric padding. Input dilation and batch groups are refused.
     */
    public Tensor convTranspose(Tensor kernel, ConvOptions opts) {
        Args.nonNull("convTranspose", "kernel", kernel);
        Args.nonNull("convTranspose", "opts", opts);
        return ConvOps.convTranspose(this, kernel, opts);
    }

    // ==== end windows and convolution =============================================================
}
