package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;

import java.util.function.ToLongFunction;

/**
 * Expected results built from index rules, independent of any engine: "output element at
 * index {@code i} is input element {@code src(i)}". The movement and index properties check
 * engines against these as well as against the oracle, so an oracle bug cannot hide.
 */
final class Specs {
    private Specs() {}

    /** Shape {@code out}, {@code x}'s dtype: the element at multi-index {@code idx} is {@code x}'s element at flat index {@code src(idx)}. */
    static TensorCase pick(TensorCase x, Shape out, ToLongFunction<int[]> src) {
        return pick(x, out, src, null);
    }

    /** As {@link #pick(TensorCase, Shape, ToLongFunction)}; where {@code src} gives -1, the element is {@code fill}'s only element (same dtype as {@code x}). */
    static TensorCase pick(TensorCase x, Shape out, ToLongFunction<int[]> src, TensorCase fill) {
        int n = Math.toIntExact(out.size());
        DType t = x.dtype();
        if (t.isFloat()) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                long s = src.applyAsLong(TensorAssert.index(out, i));
                v[i] = s < 0 ? fill.doubleAt(0) : x.doubleAt((int) s);
            }
            return TensorCase.ofDoubles(t, out, v);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            long s = src.applyAsLong(TensorAssert.index(out, i));
            v[i] = s < 0 ? fill.longAt(0) : x.longAt((int) s);
        }
        return TensorCase.ofLongs(t, out, v);
    }

    /** The row-major flat index of {@code idx} in {@code s}. */
    static long flat(Shape s, int[] idx) {
        long[] strides = s.strides();
        long f = 0;
        for (int k = 0; k < idx.length; k++) f += idx[k] * strides[k];
        return f;
    }

    /** {@code x} cast to {@code to} by the oracle. */
    static TensorCase cast(TensorCase x, DType to) {
        return x.dtype() == to ? x : TensorCase.of(x.on(Oracle.engine()).asType(to));
    }

    /** The sum of the absolute values of the finite elements (0 for integer cases too: they need no allowance). */
    static double sumAbs(TensorCase x) {
        if (!x.dtype().isFloat()) return 0;
        double s = 0;
        for (int i = 0; i < x.size(); i++) if (Double.isFinite(x.doubleAt(i))) s += Math.abs(x.doubleAt(i));
        return s;
    }

    /** The largest absolute value of the finite elements (0 when none). */
    static double maxAbs(TensorCase x) {
        double m = 0;
        for (int i = 0; i < x.size(); i++) if (Double.isFinite(x.doubleAt(i))) m = Math.max(m, Math.abs(x.doubleAt(i)));
        return m;
    }

    /** A scalar case of dtype {@code t} holding {@code v} (wrapped or rounded to {@code t}). */
    static TensorCase scalar(DType t, long v) {
        return t.isFloat() ? TensorCase.ofDoubles(t, Shape.scalar(), v) : TensorCase.ofLongs(t, Shape.scalar(), v);
    }

    /** A case of dtype {@code t} and shape {@code s} with no elements ({@code s} has a zero axis). */
    static TensorCase empty(DType t, Shape s) {
        return t.isFloat() ? TensorCase.ofDoubles(t, s) : TensorCase.ofLongs(t, s);
    }

    /** Zeros of dtype {@code t} and shape {@code s}. */
    static TensorCase zeros(DType t, Shape s) {
        int n = Math.toIntExact(s.size());
        return t.isFloat() ? TensorCase.ofDoubles(t, s, new double[n]) : TensorCase.ofLongs(t, s, new long[n]);
    }
}
