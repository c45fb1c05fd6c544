package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Data in and out: every dtype's values survive {@code fromArray}, the trip to the engine
 * and back ({@code to}), and the read-back methods ({@code toDoubleArray}, {@code toLongArray},
 * {@code toFloatArray}, {@code toIntArray}, {@code toBooleanArray}, {@code item}).
 */
public interface TransferContract extends EngineContract {

    @Test
    default void valuesSurviveTheTripToTheEngineAndBack() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor host = x.tensor();
            TensorAssert.assertSame(x + " from a Java array", x, host);
            Tensor there = host.to(engine());
            assertEquals(engine(), there.engine(), "to(engine) gives a tensor on that engine");
            TensorAssert.assertSame(x + " on the engine", x, there);
            TensorAssert.assertSame(x + " moved to the engine and back", x, there.to(Oracle.engine()));
            TensorAssert.assertSame(x + " after an identity reshape on the engine", x, there.reshape(x.shape()));
        });
    }

    @Test
    default void readBackMethodsConvertLikeACast() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            Engine oracle = Oracle.engine();
            Tensor o = x.on(oracle);
            assertArrayEquals(TensorCase.of(o.asType(DType.F32)).doubles(), widen(t.toFloatArray()), x + ": toFloatArray");
            assertArrayEquals(TensorCase.of(o.asType(DType.S32)).longs(), widen(t.toIntArray()), x + ": toIntArray");
            assertArrayEquals(TensorCase.of(o.asType(DType.PRED)).longs(), widen(t.toBooleanArray()), x + ": toBooleanArray");
            if (x.size() == 1) {
                Number item = t.item();
                if (x.dtype().isFloat()) assertEquals(x.doubleAt(0), item.doubleValue(), x + ": item()");
                else assertEquals(x.longAt(0), item.longValue(), x + ": item()");
            }
        });
    }

    private static double[] widen(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i];
        return d;
    }

    private static long[] widen(int[] v) {
        long[] d = new long[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i];
        return d;
    }

    private static long[] widen(boolean[] v) {
        long[] d = new long[v.length];
        for (int i = 0; i < v.length; i++) d[i] = v[i] ? 1 : 0;
        return d;
    }
}
