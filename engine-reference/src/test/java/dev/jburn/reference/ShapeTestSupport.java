package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.spi.EngineConfig;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Engines and helpers shared by the shape, index and dot tests. */
final class ShapeTestSupport {
    private ShapeTestSupport() {}

    /** Scalar oracle kernels only. */
    static final Engine ORACLE = Engine.create(new ReferenceProvider(), EngineConfig.defaults().withVectorKernels(false));
    /** Fast kernels, split across threads from 16 elements on. */
    static final Engine PARALLEL = Engine.create(new ReferenceProvider(),
            EngineConfig.defaults().withThreads(4).withParallelThreshold(16));

    /** {@code 0, 1, 2, ...} in row-major order, as S32. */
    static Tensor iota(int... dims) {
        Shape s = Shape.of(dims);
        int[] v = new int[(int) s.size()];
        for (int i = 0; i < v.length; i++) v[i] = i;
        return Tensor.of(v).reshape(s);
    }

    /** Random integers in [-50, 50) of the given type and shape. */
    static Tensor random(Random rnd, DType type, int... dims) {
        Shape s = Shape.of(dims);
        long[] v = new long[(int) s.size()];
        for (int i = 0; i < v.length; i++) v[i] = rnd.nextInt(100) - 50;
        return Tensor.of(v).reshape(s).asType(type);
    }

    /** Random normal floats of the given float type and shape. */
    static Tensor randomFloat(Random rnd, DType type, int... dims) {
        Shape s = Shape.of(dims);
        double[] v = new double[(int) s.size()];
        for (int i = 0; i < v.length; i++) v[i] = rnd.nextGaussian();
        return Tensor.of(v).reshape(s).asType(type);
    }

    static void assertValues(Tensor t, DType type, int[] shape, long... values) {
        assertEquals(type, t.dtype(), "dtype");
        assertEquals(Shape.of(shape), t.shape(), "shape");
        assertArrayEquals(values, t.toLongArray());
    }

    /** Same dtype, shape and raw bits (NaN payloads included). */
    static void assertSameBits(Tensor expected, Tensor actual) {
        assertEquals(expected.dtype(), actual.dtype());
        assertEquals(expected.shape(), actual.shape());
        if (expected.dtype().isFloat()) {
            double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
            for (int i = 0; i < e.length; i++) {
                assertEquals(Double.doubleToLongBits(e[i]), Double.doubleToLongBits(a[i]), "element " + i + ": " + e[i] + " vs " + a[i]);
            }
        } else {
            assertArrayEquals(expected.toLongArray(), actual.toLongArray());
        }
    }

    static int[] shape(int... dims) { return dims; }
}
