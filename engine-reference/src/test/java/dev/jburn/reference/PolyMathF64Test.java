package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PolyMathF64}: within 1-2 ulp of StrictMath over the whole double range (special values, subnormals, the
 * overflow and underflow edges), the vector lanes bit-equal to the scalar twin, and the same bits before and after C2
 * compiles the caller.
 */
class PolyMathF64Test {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;

    /** Inputs: every exponent with random mantissas and both signs, plus the edges of each function. */
    static double[] inputs() {
        Random r = new Random(42);
        double[] edges = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1.0, -1.0, 0.5, -0.5, 2.0, Math.sqrt(2), Math.sqrt(0.5),
                709.782712893384, 709.7827128933841, 709.5, 710.0, -708.39, -708.4, -745.1332191019411, -745.1332191019412, -746.0,
                40.0, 40.000000000000007, -40.0, -40.000000000000007, 20.0, 19.999999999999996, 1e-300, -1e-300, 1e-17, -1e-17,
                0.3465735902799726, -0.3465735902799726, 1.3800001, 1.4199999, 0.9999999999999999, 1.0000000000000002};
        int n = edges.length + 2048 * 2 * 12;
        double[] x = new double[n + (S.length() - n % S.length()) + 40_000];
        System.arraycopy(edges, 0, x, 0, edges.length);
        int k = edges.length;
        for (long e = 0; e < 2048; e++) {
            for (int j = 0; j < 12; j++) {
                for (long sign = 0; sign < 2; sign++) x[k++] = Double.longBitsToDouble(sign << 63 | e << 52 | (r.nextLong() & 0xfffffffffffffL));
            }
        }
        for (int i = 0; k < x.length; k++, i++) x[k] = i % 2 == 0 ? r.nextGaussian() * 30 : r.nextDouble() * 4 - 2;
        return x;
    }

    private static long ulps(double got, double want) {
        if (Double.isNaN(want)) return Double.isNaN(got) ? 0 : Long.MAX_VALUE;
        if (Double.isInfinite(want) || Double.isInfinite(got)) return want == got ? 0 : Long.MAX_VALUE;
        if (want == got) return 0;
        return Math.abs(UlpOrder.of(got) - UlpOrder.of(want));
    }

    private static void check(String name, UnaryOperator<DoubleVector> vector, DoubleUnaryOperator scalar,
                              DoubleUnaryOperator exact, long maxUlps) {
        double[] x = inputs();
        double[] v = new double[x.length];
        for (int i = 0; i + S.length() <= x.length; i += S.length()) vector.apply(DoubleVector.fromArray(S, x, i)).intoArray(v, i);
        compare(name, x, v, scalar, exact, maxUlps);
    }

    /** {@link PolyMathF64#logs}'s loop over the inputs (whole vectors), against the scalar twin and the exact value. */
    private static void checkLogs(String name, boolean onePlus, DoubleUnaryOperator scalar, DoubleUnaryOperator exact, long maxUlps) {
        double[] x = inputs();
        double[] v = new double[x.length];
        long done = PolyMathF64.logs(onePlus, MemorySegment.ofArray(x), 0, MemorySegment.ofArray(v), 0, x.length);
        assertEquals(x.length - x.length % S.length(), done);
        compare(name, x, v, scalar, exact, maxUlps);
    }

    private static void compare(String name, double[] x, double[] v, DoubleUnaryOperator scalar, DoubleUnaryOperator exact, long maxUlps) {
        long worst = 0;
        double worstAt = 0;
        for (int i = 0; i < x.length - x.length % S.length(); i++) {
            double s = scalar.applyAsDouble(x[i]);
            assertEquals(Double.doubleToLongBits(s), Double.doubleToLongBits(v[i]), name + "(" + x[i] + "): lane " + v[i] + ", scalar " + s);
            long u = ulps(s, exact.applyAsDouble(x[i]));
            if (u > worst) {
                worst = u;
                worstAt = x[i];
            }
        }
        System.out.println("PolyMathF64Test: " + name + " worst " + worst + " ulp at " + worstAt);
        assertTrue(worst <= maxUlps, name + ": " + worst + " ulp at " + worstAt);
    }

    @Test
    void expIsWithinOneUlp() { check("exp", PolyMathF64::exp, PolyMathF64::exp, StrictMath::exp, 1); }

    @Test
    void logIsWithinOneUlp() { checkLogs("log", false, PolyMathF64::log, StrictMath::log, 1); }

    @Test
    void expm1IsWithinTwoUlp() { check("expm1", PolyMathF64::expm1, PolyMathF64::expm1, StrictMath::expm1, 2); }

    @Test
    void log1pIsWithinTwoUlp() { checkLogs("log1p", true, PolyMathF64::log1p, StrictMath::log1p, 2); }

    @Test
    void tanhIsWithinThreeUlp() { check("tanh", PolyMathF64::tanh, PolyMathF64::tanh, StrictMath::tanh, 3); }

    @Test
    void sigmoidIsWithinThreeUlpOfTheOraclesFormula() {
        check("sigmoid", PolyMathF64::sigmoid, PolyMathF64::sigmoid, dev.jburn.spi.ScalarMath::sigmoid, 3);
    }

    @Test
    void signsOfZeroAndSpecialValues() {
        assertEquals(1.0, PolyMathF64.exp(-0.0));
        assertEquals(Double.POSITIVE_INFINITY, PolyMathF64.exp(Double.POSITIVE_INFINITY));
        assertEquals(0.0, PolyMathF64.exp(Double.NEGATIVE_INFINITY));
        assertEquals(Double.NEGATIVE_INFINITY, PolyMathF64.log(-0.0));
        assertTrue(Double.isNaN(PolyMathF64.log(-1.0)));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(PolyMathF64.log(1.0)));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(PolyMathF64.tanh(-0.0)));
        assertEquals(-1.0, PolyMathF64.tanh(Double.NEGATIVE_INFINITY));
        assertEquals(0.5, PolyMathF64.sigmoid(0.0));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(PolyMathF64.expm1(-0.0)));
        assertEquals(-1.0, PolyMathF64.expm1(Double.NEGATIVE_INFINITY));
        assertEquals(Double.POSITIVE_INFINITY, PolyMathF64.expm1(Double.POSITIVE_INFINITY));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(PolyMathF64.log1p(-0.0)));
        assertEquals(Double.NEGATIVE_INFINITY, PolyMathF64.log1p(-1.0));
        assertEquals(Double.POSITIVE_INFINITY, PolyMathF64.log1p(Double.POSITIVE_INFINITY));
        assertTrue(Double.isNaN(PolyMathF64.log1p(-2.0)));
        assertEquals(Double.MIN_VALUE, PolyMathF64.exp(-745.1332191019411));
    }

    @Test
    void theSameBitsBeforeAndAfterTheCallerIsCompiled() {
        double[] x = new double[S.length()];
        Random r = new Random(3);
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian() * 30;
        DoubleVector v = DoubleVector.fromArray(S, x, 0);
        double[] first = new double[x.length], now = new double[x.length];
        PolyMathF64.exp(v).add(PolyMathF64.sigmoid(v)).add(PolyMathF64.tanh(v)).add(PolyMathF64.expm1(v)).intoArray(first, 0);
        for (int round = 0; round < 30_000; round++) {
            PolyMathF64.exp(v).add(PolyMathF64.sigmoid(v)).add(PolyMathF64.tanh(v)).add(PolyMathF64.expm1(v)).intoArray(now, 0);
            for (int i = 0; i < x.length; i++) assertEquals(Double.doubleToRawLongBits(first[i]), Double.doubleToRawLongBits(now[i]), "round " + round);
        }
    }
}
