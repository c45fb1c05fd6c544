package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.spi.EngineConfig;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Engines and assertions shared by the element-wise tests. */
final class ElementwiseTestSupport {
    private ElementwiseTestSupport() {}

    /** Scalar oracle kernels only. */
    static final Engine ORACLE = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));

    /** Vector kernels, split across threads from 16 elements so small tests exercise the parallel paths. */
    static final Engine VECTOR = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withParallelThreshold(16));

    static Stream<Engine> engines() { return Stream.of(ORACLE, VECTOR); }

    /** A vector of {@code type} from Java longs (converted with Nx cast rules) on {@code e}. */
    static Tensor ints(Engine e, DType type, long... values) { return Tensor.fromArray(values, type).to(e); }

    /** A vector of {@code type} from Java doubles (converted with Nx cast rules) on {@code e}. */
    static Tensor reals(Engine e, DType type, double... values) { return Tensor.fromArray(values, type).to(e); }

    static void assertType(DType expected, Tensor t) { assertEquals(expected, t.dtype(), () -> "dtype of " + t); }

    static void assertLongs(Tensor t, DType type, long... expected) {
        assertType(type, t);
        assertArrayEquals(expected, t.toLongArray(), () -> t.toString());
    }

    static void assertDoubles(Tensor t, DType type, double... expected) {
        assertType(type, t);
        assertArrayEquals(expected, t.toDoubleArray(), () -> t.toString());
    }

    static void assertBools(Tensor t, boolean... expected) {
        assertType(DType.PRED, t);
        assertArrayEquals(expected, t.toBooleanArray(), () -> t.toString());
    }

    /**
     * Same dtype and shape; integers and PRED equal exactly; floats equal within {@code ulps} units
     * in the last place of the dtype (NaN matches NaN, infinities match exactly).
     */
    static void assertClose(Tensor expected, Tensor actual, int ulps, String what) {
        assertEquals(expected.dtype(), actual.dtype(), what + ": dtype");
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        if (!expected.dtype().isFloat()) {
            assertArrayEquals(expected.toLongArray(), actual.toLongArray(), what);
            return;
        }
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i]) && Double.isNaN(a[i])) continue;
            if (e[i] == a[i]) continue;
            double ulp = ulp(expected.dtype(), e[i]);
            if (Double.isInfinite(e[i]) || Double.isInfinite(a[i]) || Double.isNaN(e[i]) || Double.isNaN(a[i])
                    || Math.abs(e[i] - a[i]) > ulps * ulp) {
                fail(what + ": element " + i + " expected " + e[i] + " but was " + a[i] + " (" + ulps + " ulps allowed)");
            }
        }
    }

    private static double ulp(DType t, double v) {
        return switch (t) {
            case F64 -> Math.ulp(v);
            case F32 -> Math.ulp((float) v);
            case F16 -> Math.max(Math.ulp((float) v) * 8192, 0x1p-24);
            case BF16 -> Math.max(Math.ulp((float) v) * 65536, 0x1p-133);
            default -> 0;
        };
    }
}
