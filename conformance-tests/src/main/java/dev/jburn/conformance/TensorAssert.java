package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;

import java.util.Arrays;

/**
 * Compares tensors with a {@link Tolerance} and fails with a message a person can act on:
 * the case, the dtype and shape, the tolerance, and the first mismatching elements by index
 * (with the input values at that index when the inputs have the result's shape).
 *
 * <pre>{@code
 * TensorAssert.assertClose("exp of " + x, expected, actual, Tolerance.TRANSCENDENTAL, x);
 * }</pre>
 */
public final class TensorAssert {
    private TensorAssert() {}

    /** How many mismatching elements a message lists. */
    static final int LISTED = 8;

    /** {@code actual} has {@code expected}'s dtype and shape, and its values within {@code tol}. */
    public static void assertClose(Object context, Tensor expected, Tensor actual, Tolerance tol, TensorCase... inputs) {
        assertClose(context, TensorCase.of(expected), actual, tol, inputs);
    }

    /** {@code actual} has exactly the dtype, shape and values of {@code expected} (NaN meets NaN). */
    public static void assertSame(Object context, TensorCase expected, Tensor actual) {
        assertClose(context, expected, actual, Tolerance.EXACT);
    }

    /** {@code actual} has {@code expected}'s dtype and shape, and its values within {@code tol}. */
    public static void assertClose(Object context, TensorCase expected, Tensor actual, Tolerance tol, TensorCase... inputs) {
        String where = context + "\n  result on engine '" + actual.engine().name() + "'";
        if (actual.dtype() != expected.dtype()) {
            fail(where + ": dtype " + actual.dtype().shortName() + ", expected " + expected.dtype().shortName()
                    + " (shape " + actual.shape() + ", expected " + expected.shape() + ")");
        }
        if (!actual.shape().equals(expected.shape())) {
            fail(where + ": shape " + actual.shape() + ", expected " + expected.shape() + " (" + actual.dtype().shortName() + ")");
        }
        TensorCase got = TensorCase.of(actual);
        DType t = expected.dtype();
        int n = (int) expected.size();
        StringBuilder bad = new StringBuilder();
        int mismatches = 0;
        for (int i = 0; i < n; i++) {
            if (matches(t, expected, got, i, tol)) continue;
            if (++mismatches <= LISTED) bad.append(describe(t, expected, got, i, inputs));
        }
        if (mismatches > 0) {
            fail(where + ": " + mismatches + " of " + n + " elements of " + t.shortName() + shapeText(expected.shape())
                    + " differ (tolerance: " + tol.describe(t) + ")" + bad
                    + (mismatches > LISTED ? "\n    ... and " + (mismatches - LISTED) + " more" : ""));
        }
    }

    private static boolean matches(DType t, TensorCase e, TensorCase a, int i, Tolerance tol) {
        if (!t.isFloat()) return e.longAt(i) == a.longAt(i);
        return tol.accepts(t, e.doubleAt(i), a.doubleAt(i)) || Subnormals.flushedMatch(t, e.doubleAt(i), a.doubleAt(i));
    }

    private static String describe(DType t, TensorCase e, TensorCase a, int i, TensorCase[] inputs) {
        StringBuilder sb = new StringBuilder("\n    at ").append(Arrays.toString(index(e.shape(), i)))
                .append(": expected ").append(element(t, e, i)).append(", got ").append(element(t, a, i));
        if (t.isFloat() && Double.isFinite(e.doubleAt(i)) && Double.isFinite(a.doubleAt(i))) {
            sb.append(" (").append(FloatFormats.ulpDistance(t, e.doubleAt(i), a.doubleAt(i))).append(" ulp)");
        }
        for (int k = 0; k < inputs.length; k++) {
            if (inputs[k].shape().equals(e.shape())) {
                sb.append(k == 0 ? "; input " : ", ").append(element(inputs[k].dtype(), inputs[k], i));
            }
        }
        return sb.toString();
    }

    private static String element(DType t, TensorCase c, int i) {
        return Elements.format(t, t.isFloat() ? Double.doubleToRawLongBits(c.doubleAt(i)) : c.longAt(i));
    }

    /** The multi-index of row-major flat index {@code flat}. */
    static int[] index(Shape s, long flat) {
        int[] d = s.dims();
        int[] idx = new int[d.length];
        long rest = flat;
        for (int k = d.length - 1; k >= 0; k--) {
            idx[k] = (int) (rest % d[k]);
            rest /= d[k];
        }
        return idx;
    }

    private static String shapeText(Shape s) { return s.toString().replace(" ", ""); }

    private static void fail(String message) { Assertions.fail(message); }
}
