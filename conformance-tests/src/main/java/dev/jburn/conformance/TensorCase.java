package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.Arrays;

/**
 * A generated tensor as plain data: dtype, shape and row-major values. It prints as
 * {@code f32[2,3] [1.0, NaN, -0.0, ...]}, which is what QuickTheories shows for a failing case.
 * Integer and {@code PRED} values are kept as longs (raw bits sign- or zero-extended as the
 * type reads them: U64 above 2^63 is a negative long); float values as doubles, exactly
 * representable in the dtype.
 *
 * <pre>{@code
 * TensorCase c = TensorCase.ofDoubles(DType.F32, Shape.of(2), 1.5, Double.NaN);
 * Tensor t = c.on(engine);      // the data, uploaded to engine
 * }</pre>
 */
public final class TensorCase {
    private static final int PRINTED = 24;

    private final DType dtype;
    private final Shape shape;
    private final long[] ints;
    private final double[] floats;

    private TensorCase(DType dtype, Shape shape, long[] ints, double[] floats) {
        this.dtype = dtype;
        this.shape = shape;
        this.ints = ints;
        this.floats = floats;
        long n = dtype.isFloat() ? floats.length : ints.length;
        if (n != shape.size()) {
            throw new JBurnException("conformance", shape.size() + " values expected for shape " + shape + ", got " + n);
        }
    }

    /** A float case; every value is rounded to {@code dtype} (so callers may pass any double). */
    public static TensorCase ofDoubles(DType dtype, Shape shape, double... values) {
        if (!dtype.isFloat()) throw new JBurnException("conformance", "ofDoubles needs a float dtype, got " + dtype);
        double[] v = values.clone();
        for (int i = 0; i < v.length; i++) v[i] = Elements.roundTo(dtype, v[i]);
        return new TensorCase(dtype, shape, null, v);
    }

    /** An integer or PRED case; every value is wrapped to {@code dtype} as a cast would. */
    public static TensorCase ofLongs(DType dtype, Shape shape, long... values) {
        if (dtype.isFloat()) throw new JBurnException("conformance", "ofLongs needs an integer or pred dtype, got " + dtype);
        long[] v = values.clone();
        for (int i = 0; i < v.length; i++) v[i] = Elements.wrap(dtype, v[i]);
        return new TensorCase(dtype, shape, v, null);
    }

    /** The values of a tensor, read back from its engine (exact for every dtype). */
    public static TensorCase of(Tensor t) {
        return t.dtype().isFloat()
                ? new TensorCase(t.dtype(), t.shape(), null, t.toDoubleArray())
                : new TensorCase(t.dtype(), t.shape(), t.toLongArray(), null);
    }

    public DType dtype() { return dtype; }

    public Shape shape() { return shape; }

    public long size() { return shape.size(); }

    /** Element {@code i} as a double (U64 as its unsigned value, PRED as 0 or 1). */
    public double doubleAt(int i) {
        if (dtype.isFloat()) return floats[i];
        return dtype == DType.U64 ? Elements.unsignedToDouble(ints[i]) : ints[i];
    }

    /** Element {@code i} of an integer or PRED case as the long the type reads it as. */
    public long longAt(int i) {
        if (dtype.isFloat()) throw new JBurnException("conformance", "longAt on a float case " + dtype);
        return ints[i];
    }

    /** A copy of the float values (float cases only). */
    public double[] doubles() {
        if (!dtype.isFloat()) throw new JBurnException("conformance", "doubles() on a non-float case " + dtype);
        return floats.clone();
    }

    /** A copy of the integer values (integer and PRED cases only). */
    public long[] longs() {
        if (dtype.isFloat()) throw new JBurnException("conformance", "longs() on a float case " + dtype);
        return ints.clone();
    }

    /** The data as a tensor on the default engine. */
    public Tensor tensor() {
        Tensor flat = dtype.isFloat() ? Tensor.fromArray(floats, dtype) : Tensor.fromArray(ints, dtype);
        return flat.reshape(shape);
    }

    /** The data as a tensor on {@code engine} (uploaded there with {@link Tensor#to}). */
    public Tensor on(Engine engine) { return tensor().to(engine); }

    /** This data with another shape of the same size. */
    public TensorCase withShape(Shape s) {
        if (s.size() != shape.size()) throw new JBurnException("conformance", "withShape " + s + " for " + shape);
        return new TensorCase(dtype, s, ints, floats);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(dtype.shortName()).append(shape.toString().replace(" ", "")).append(" [");
        int n = (int) shape.size();
        for (int i = 0; i < Math.min(n, PRINTED); i++) {
            if (i > 0) sb.append(", ");
            sb.append(Elements.format(dtype, dtype.isFloat() ? Double.doubleToRawLongBits(floats[i]) : ints[i]));
        }
        if (n > PRINTED) sb.append(", ... (").append(n).append(" values)");
        return sb.append(']').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorCase c && c.dtype == dtype && c.shape.equals(shape)
                && Arrays.equals(c.ints, ints) && Arrays.equals(c.floats, floats);
    }

    @Override
    public int hashCode() { return dtype.hashCode() * 31 + shape.hashCode(); }
}
