package dev.jburn;

import java.util.Arrays;

/**
 * An immutable tensor shape: the size of every axis, row-major. Rank 0 is a scalar; a size
 * of zero is allowed (an empty tensor), as in NumPy and JAX.
 *
 * <pre>{@code
 * Shape s = Shape.of(2, 3);
 * s.size();                         // 6
 * Shape.broadcast("add", Shape.of(8, 1, 6, 1), Shape.of(7, 1, 5));   // [8, 7, 6, 5]
 * }</pre>
 */
public final class Shape {
    private static final Shape SCALAR = new Shape(new int[0]);
    private final int[] dims;
    private final long size;

    private Shape(int[] dims) {
        this.dims = dims;
        long n = 1;
        for (int d : dims) n = d == OPEN ? -1 : n < 0 ? n : Math.multiplyExact(n, (long) d);
        this.size = n;
    }

    /**
     * The size that marks an open axis ({@code -1}): one whose size is not known until data
     * arrives, such as the batch axis of a model input ({@code Shape.of(-1, 784)}). Tensors
     * always have concrete shapes; an open shape describes inputs, not data.
     */
    public static final int OPEN = -1;

    /**
     * The largest rank a shape may have: 64, NumPy 2's limit. It bounds every per-axis array an op
     * makes (a permutation, strides) so that a hostile rank fails here and not as an OutOfMemoryError.
     */
    public static final int MAX_RANK = 64;

    /**
     * A shape from axis sizes; every size must be non-negative, or {@code -1} ({@link #OPEN})
     * for an axis left open (model inputs: {@code Shape.of(-1, 784)}). Ops that create or
     * reshape tensors take concrete shapes only.
     */
    public static Shape of(int... dims) {
        if (dims == null) throw new JBurnException(op(), "dims must not be null");
        if (dims.length == 0) return SCALAR;
        if (dims.length > MAX_RANK) throw new JBurnException(op(), "rank " + dims.length + " exceeds the limit of " + MAX_RANK);
        for (int d : dims) {
            if (d < OPEN) {
                throw new JBurnException(op(), "axis sizes must be non-negative (or -1 for an open axis), got "
                        + Arrays.toString(dims));
            }
        }
        try {
            return new Shape(dims.clone());
        } catch (ArithmeticException e) {
            throw new JBurnException(op(), "element count overflows a long for " + Arrays.toString(dims));
        }
    }

    /** A shape from long axis sizes, each of which must fit an int. */
    public static Shape of(long... dims) {
        if (dims == null) throw new JBurnException(op(), "dims must not be null");
        int[] d = new int[dims.length];
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0 || dims[i] > Integer.MAX_VALUE) {
                throw new JBurnException(op(), "axis sizes must be in [0, 2^31), got " + Arrays.toString(dims));
            }
            d[i] = (int) dims[i];
        }
        return of(d);
    }

    /** {@code shape} when the user made this shape, else the op that made it for them ({@code pad}, {@code arange}). */
    private static String op() { return dev.jburn.spi.UserOp.name("shape", Shape.class); }

    /** The rank-0 shape. */
    public static Shape scalar() { return SCALAR; }

    public int rank() { return dims.length; }

    /** Size of axis {@code axis}; negative axes count from the end. */
    public int dim(int axis) { return dims[normalizeAxis("shape", axis)]; }

    /** A copy of the axis sizes. */
    public int[] dims() { return dims.clone(); }

    /**
     * Number of elements (1 for a scalar, 0 when any axis is 0).
     *
     * @throws JBurnException when an axis is open ({@link #isOpen()})
     */
    public long size() {
        if (size < 0) throw openError("shape");
        return size;
    }

    /** Whether some axis is open ({@code -1}, see {@link #OPEN}). */
    public boolean isOpen() { return size < 0; }

    /**
     * This shape, when every axis is known.
     *
     * @throws JBurnException naming {@code op} when an axis is open
     */
    public Shape requireConcrete(String op) {
        if (size < 0) throw openError(op);
        return this;
    }

    private JBurnException openError(String op) {
        return new JBurnException(op, "shape " + this + " has an open axis (-1); a tensor needs a concrete shape");
    }

    /** Row-major strides in elements. */
    public long[] strides() {
        requireConcrete("shape");
        long[] s = new long[dims.length];
        long acc = 1;
        for (int i = dims.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= dims[i];
        }
        return s;
    }

    /** This shape with axis {@code axis} replaced by {@code size}. */
    public Shape withDim(int axis, int size) {
        int[] d = dims.clone();
        d[normalizeAxis("shape", axis)] = size;
        return of(d);
    }

    /**
     * Validates a possibly negative axis against this rank and returns it in {@code [0, rank)}.
     *
     * @throws JBurnException naming {@code op} when the axis is out of range
     */
    public int normalizeAxis(String op, int axis) {
        int r = dims.length;
        if (axis < -r || axis >= r) {
            throw new JBurnException(op, "given axis (" + axis + ") invalid for shape " + this + " with rank " + r);
        }
        return axis < 0 ? axis + r : axis;
    }

    /** Validates a list of axes: each in range, none repeated. Returns them normalized, in the given order. */
    public int[] normalizeAxes(String op, int... axes) {
        Args.nonNull(op, "axes", axes);
        int[] out = new int[axes.length];
        boolean[] seen = new boolean[dims.length];
        for (int i = 0; i < axes.length; i++) {
            int a = normalizeAxis(op, axes[i]);
            if (seen[a]) {
                throw new JBurnException(op, "axes " + Arrays.toString(axes) + " must be unique integers between 0 and "
                        + (dims.length - 1) + " for shape " + this);
            }
            seen[a] = true;
            out[i] = a;
        }
        return out;
    }

    /** Every axis, {@code [0, rank)}. */
    public int[] allAxes() {
        int[] a = new int[dims.length];
        for (int i = 0; i < a.length; i++) a[i] = i;
        return a;
    }

    /**
     * NumPy broadcasting of two shapes: align on the right, pad the shorter with 1s; per axis
     * the sizes must match or one must be 1.
     */
    public static Shape broadcast(String op, Shape a, Shape b) {
        Args.nonNull(op, "a", a, "b", b);
        if (a.equals(b)) return a;
        int r = Math.max(a.rank(), b.rank());
        int[] out = new int[r];
        for (int i = 0; i < r; i++) {
            int da = i < r - a.rank() ? 1 : a.dims[i - (r - a.rank())];
            int db = i < r - b.rank() ? 1 : b.dims[i - (r - b.rank())];
            if (da == db || db == 1) out[i] = da;
            else if (da == 1) out[i] = db;
            else throw new JBurnException(op, "cannot broadcast tensor of dimensions " + a + " to " + b);
        }
        return of(out);
    }

    /** Whether this shape broadcasts to {@code target} (NumPy rules, one direction). */
    public boolean broadcastsTo(Shape target) {
        Args.nonNull("broadcast", "target", target);
        if (rank() > target.rank()) return false;
        int off = target.rank() - rank();
        for (int i = 0; i < rank(); i++) {
            if (dims[i] != 1 && dims[i] != target.dims[i + off]) return false;
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof Shape s) || s.dims.length != dims.length) return false;
        // a plain loop: Arrays.equals calls a mismatch stub that showed in an eager add's profile for rank-1 shapes
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] != s.dims[i]) return false;
        }
        return true;
    }

    @Override
    public int hashCode() { return Arrays.hashCode(dims); }

    /** {@code [2, 3]}; a scalar prints as {@code []}. */
    @Override
    public String toString() { return Arrays.toString(dims); }
}
