package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PolyMathF32}: within a few ulp of the correctly rounded value over the whole float range
 * (special values, subnormals, the overflow and underflow edges), the vector lanes bit-equal to
 * the scalar twin, and the same bits before and after C2 compiles the caller.
 */
class PolyMathF32Test {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    /** Inputs: every exponent with random mantissas and both signs, plus the edges of each function. */
    private static float[] inputs() {
        Random r = new Random(42);
        float[] edges = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1f, -1f, 0.5f, 0.625f, -0.625f, 0.70710677f, 0.7071068f,
                88.72283f, 88.72284f, 88.7f, 89f, -87.33655f, -87.4f, -100f, -103.97f, -103.98f, -104f, 9.010913f, 9.02f, 1e-8f, -1e-8f};
        int n = edges.length + 256 * 2 * 40;
        float[] x = new float[n + (S.length() - n % S.length())];
        System.arraycopy(edges, 0, x, 0, edges.length);
        int k = edges.length;
        for (int e = 0; e < 256; e++) {
            for (int j = 0; j < 40; j++) {
                for (int sign = 0; sign < 2; sign++) x[k++] = Float.intBitsToFloat(sign << 31 | e << 23 | r.nextInt(1 << 23));
            }
        }
        for (; k < x.length; k++) x[k] = (float) (r.nextGaussian() * 20);
        return x;
    }

    private static long ulps(float got, double exact) {
        float want = (float) exact;
        if (Float.isNaN(want)) return Float.isNaN(got) ? 0 : Long.MAX_VALUE;
        if (Float.isInfinite(want) || Float.isInfinite(got)) return want == got ? 0 : Long.MAX_VALUE;
        if (want == got) return 0;
        return Math.abs(UlpOrder.of(got) - UlpOrder.of(want));
    }

    private static void check(String name, UnaryOperator<FloatVector> vector, java.util.function.Function<Float, Float> scalar,
                              DoubleUnaryOperator exact, long maxUlps) {
        float[] x = inputs();
        float[] v = new float[x.length];
        for (int i = 0; i < x.length; i += S.length()) vector.apply(FloatVector.fromArray(S, x, i)).intoArray(v, i);
        long worst = 0;
        float worstAt = 0;
        for (int i = 0; i < x.length; i++) {
            float s = scalar.apply(x[i]);
            assertEquals(Float.floatToIntBits(s), Float.floatToIntBits(v[i]), name + "(" + x[i] + "): lane " + v[i] + ", scalar " + s);
            long u = ulps(s, exact.applyAsDouble(x[i]));
            if (u > worst) {
                worst = u;
                worstAt = x[i];
            }
        }
        assertTrue(worst <= maxUlps, name + ": " + worst + " ulp at " + worstAt);
    }

    @Test
    void expIsWithinTwoUlp() { check("exp", PolyMathF32::exp, PolyMathF32::exp, StrictMath::exp, 2); }

    @Test
    void logIsWithinTwoUlp() { check("log", PolyMathF32::log, PolyMathF32::log, StrictMath::log, 2); }

    @Test
    void expm1IsWithinThreeUlp() { check("expm1", PolyMathF32::expm1, PolyMathF32::expm1, StrictMath::expm1, 3); }

    @Test
    void log1pIsWithinFourUlp() { check("log1p", PolyMathF32::log1p, PolyMathF32::log1p, StrictMath::log1p, 4); }

    @Test
    void tanhIsWithinThreeUlp() { check("tanh", PolyMathF32::tanh, PolyMathF32::tanh, StrictMath::tanh, 3); }

    @Test
    void sigmoidIsWithinThreeUlp() {
        check("sigmoid", PolyMathF32::sigmoid, PolyMathF32::sigmoid, x -> x >= 0 ? 1 / (1 + StrictMath.exp(-x)) : StrictMath.exp(x) / (1 + StrictMath.exp(x)), 3);
    }

    @Test
    void signsOfZeroAndSpecialValues() {
        assertEquals(1f, PolyMathF32.exp(-0f));
        assertEquals(Float.POSITIVE_INFINITY, PolyMathF32.exp(Float.POSITIVE_INFINITY));
        assertEquals(0f, PolyMathF32.exp(Float.NEGATIVE_INFINITY));
        assertEquals(Float.NEGATIVE_INFINITY, PolyMathF32.log(-0f));
        assertTrue(Float.isNaN(PolyMathF32.log(-1f)));
        assertEquals(0f, PolyMathF32.log(1f));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(PolyMathF32.tanh(-0f)));
        assertEquals(-1f, PolyMathF32.tanh(Float.NEGATIVE_INFINITY));
        assertEquals(0.5f, PolyMathF32.sigmoid(0f));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(PolyMathF32.expm1(-0f)));
        assertEquals(-1f, PolyMathF32.expm1(Float.NEGATIVE_INFINITY));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(PolyMathF32.log1p(-0f)));
        assertEquals(Float.NEGATIVE_INFINITY, PolyMathF32.log1p(-1f));
        assertEquals(Float.POSITIVE_INFINITY, PolyMathF32.log1p(Float.POSITIVE_INFINITY));
        assertTrue(Float.isNaN(PolyMathF32.log1p(-2f)));
    }

    @Test
    void theSameBitsBeforeAndAfterTheCallerIsCompiled() {
        float[] x = new float[S.length()];
        Random r = new Random(3);
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextGaussian() * 30);
        FloatVector v = FloatVector.fromArray(S, x, 0);
        float[] first = new float[x.length], now = new float[x.length];
        PolyMathF32.exp(v).add(PolyMathF32.log(v.abs())).add(PolyMathF32.tanh(v)).intoArray(first, 0);
        for (int round = 0; round < 30_000; round++) {
            PolyMathF32.exp(v).add(PolyMathF32.log(v.abs())).add(PolyMathF32.tanh(v)).intoArray(now, 0);
            for (int i = 0; i < x.length; i++) assertEquals(Float.floatToRawIntBits(first[i]), Float.floatToRawIntBits(now[i]), "round " + round);
        }
    }
}
