package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PolyMathTrig}: the vector lanes bit-equal to the scalar twin, within 1 ulp of StrictMath below the
 * bounds (F32 against {@code (float) StrictMath.sin((double) x)}), exactly StrictMath's value beyond them
 * and for NaN and ±Inf, and the same bits before and after C2 compiles the caller. Inputs: every exponent,
 * the ranges the engine meets, and the floats and doubles nearest multiples of π/2 (where the reduction
 * cancels most).
 */
class PolyMathTrigTest {
    private static final VectorSpecies<Float> SF = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> SD = DoubleVector.SPECIES_PREFERRED;
    private static final int N = 100_000;
    private static final double PIO2_HI = 1.5707963267948966, PIO2_LO = 6.123233995736766e-17;

    private static float[] floatInputs() {
        Random r = new Random(7);
        float b = PolyMathTrig.F32_BOUND;
        float[] edges = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, -Float.MIN_NORMAL, Float.MAX_VALUE,
                -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 1f, -1f, 1e-5f, -3e-4f,
                0.7853982f, -0.7853982f, 0.78539807f, b, -b, Math.nextUp(b), Math.nextDown(-b), 1e6f, -3e7f, 1e30f};
        float[] x = new float[N];
        System.arraycopy(edges, 0, x, 0, edges.length);
        int k = edges.length;
        for (int e = 0; e < 256; e++) {
            for (int j = 0; j < 40; j++) {
                for (int sign = 0; sign < 2; sign++) x[k++] = Float.intBitsToFloat(sign << 31 | e << 23 | r.nextInt(1 << 23));
            }
        }
        // The floats nearest k·π/2 and their neighbours, k up to the bound: the reduced argument is smallest there.
        long kmax = (long) (b / PIO2_HI);
        for (int i = 0; i < 20_000; i++) {
            long m = i < 5_000 ? i / 5 + 1 : 1 + (long) (r.nextDouble() * kmax);
            float near = (float) (m * PIO2_HI);
            int step = r.nextInt(5) - 2;
            x[k++] = (r.nextBoolean() ? 1 : -1) * Float.intBitsToFloat(Float.floatToRawIntBits(near) + step);
        }
        while (k < 80_000) x[k++] = (float) (r.nextDouble() * 20 - 10);
        while (k < N) x[k++] = (float) ((r.nextDouble() * 2 - 1) * b * 1.01);
        return x;
    }

    private static double[] doubleInputs() {
        Random r = new Random(11);
        double b = PolyMathTrig.F64_BOUND;
        double[] edges = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1.0, -1.0, 1e-9, -3e-200, Math.PI / 4, -Math.PI / 4,
                Math.PI / 2, Math.PI, b, -b, Math.nextUp(b), Math.nextDown(-b), 1e10, -3e15, 1e300};
        double[] x = new double[N];
        System.arraycopy(edges, 0, x, 0, edges.length);
        int k = edges.length;
        for (int e = 0; e < 2048; e++) {
            for (int j = 0; j < 5; j++) {
                for (int sign = 0; sign < 2; sign++) x[k++] = Double.longBitsToDouble((long) sign << 63 | (long) e << 52 | r.nextLong() >>> 12);
            }
        }
        long kmax = (long) (b / PIO2_HI);
        for (int i = 0; i < 20_000; i++) {
            long m = i < 5_000 ? i / 5 + 1 : 1 + (long) (r.nextDouble() * kmax);
            double near = Math.fma((double) m, PIO2_HI, m * PIO2_LO);
            int step = r.nextInt(5) - 2;
            x[k++] = (r.nextBoolean() ? 1 : -1) * Double.longBitsToDouble(Double.doubleToRawLongBits(near) + step);
        }
        while (k < 80_000) x[k++] = r.nextDouble() * 20 - 10;
        while (k < N) x[k++] = (r.nextDouble() * 2 - 1) * b * 1.01;
        return x;
    }

    private static void checkFloat(String name, UnaryOperator<FloatVector> vector, UnaryOperator<Float> scalar, DoubleUnaryOperator strict) {
        float[] x = floatInputs();
        float[] v = new float[x.length];
        int i = 0;
        for (; i <= x.length - SF.length(); i += SF.length()) vector.apply(FloatVector.fromArray(SF, x, i)).intoArray(v, i);
        for (; i < x.length; i++) v[i] = scalar.apply(x[i]);
        long worst = 0;
        float worstAt = 0;
        for (i = 0; i < x.length; i++) {
            float s = scalar.apply(x[i]);
            assertEquals(Float.floatToRawIntBits(s), Float.floatToRawIntBits(v[i]), name + "(" + x[i] + "): lane " + v[i] + ", scalar " + s);
            float want = (float) strict.applyAsDouble(x[i]);
            if (!(Math.abs(x[i]) <= PolyMathTrig.F32_BOUND)) {
                assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(s), name + "(" + x[i] + ") beyond the bound is StrictMath's");
                continue;
            }
            long u = Math.abs(UlpOrder.of(s) - UlpOrder.of(want));
            if (u > worst) {
                worst = u;
                worstAt = x[i];
            }
        }
        assertTrue(worst <= 1, name + ": " + worst + " ulp at " + worstAt);
    }

    private static void checkDouble(String name, UnaryOperator<DoubleVector> vector, DoubleUnaryOperator scalar, DoubleUnaryOperator strict) {
        double[] x = doubleInputs();
        double[] v = new double[x.length];
        int i = 0;
        for (; i <= x.length - SD.length(); i += SD.length()) vector.apply(DoubleVector.fromArray(SD, x, i)).intoArray(v, i);
        for (; i < x.length; i++) v[i] = scalar.applyAsDouble(x[i]);
        long worst = 0;
        double worstAt = 0;
        for (i = 0; i < x.length; i++) {
            double s = scalar.applyAsDouble(x[i]);
            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(v[i]), name + "(" + x[i] + "): lane " + v[i] + ", scalar " + s);
            double want = strict.applyAsDouble(x[i]);
            if (!(Math.abs(x[i]) <= PolyMathTrig.F64_BOUND)) {
                assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(s), name + "(" + x[i] + ") beyond the bound is StrictMath's");
                continue;
            }
            long u = Math.abs(UlpOrder.of(s) - UlpOrder.of(want));
            if (u > worst) {
                worst = u;
                worstAt = x[i];
            }
        }
        assertTrue(worst <= 1, name + ": " + worst + " ulp at " + worstAt);
    }

    @Test
    void f32SinIsWithinOneUlp() { checkFloat("sin", PolyMathTrig::sin, PolyMathTrig::sin, StrictMath::sin); }

    @Test
    void f32CosIsWithinOneUlp() { checkFloat("cos", PolyMathTrig::cos, PolyMathTrig::cos, StrictMath::cos); }

    @Test
    void f64SinIsWithinOneUlp() { checkDouble("sin", PolyMathTrig::sin, PolyMathTrig::sin, StrictMath::sin); }

    @Test
    void f64CosIsWithinOneUlp() { checkDouble("cos", PolyMathTrig::cos, PolyMathTrig::cos, StrictMath::cos); }

    @Test
    void signsOfZeroAndSpecialValues() {
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(PolyMathTrig.sin(-0f)));
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(PolyMathTrig.sin(0f)));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(PolyMathTrig.sin(-0.0)));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(PolyMathTrig.sin(0.0)));
        assertEquals(1f, PolyMathTrig.cos(-0f));
        assertEquals(1.0, PolyMathTrig.cos(-0.0));
        for (float v : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            assertTrue(Float.isNaN(PolyMathTrig.sin(v)) && Float.isNaN(PolyMathTrig.cos(v)));
        }
        for (double v : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertTrue(Double.isNaN(PolyMathTrig.sin(v)) && Double.isNaN(PolyMathTrig.cos(v)));
        }
        // One lane of each kind in one vector: the patched lanes do not disturb the others.
        float[] x = new float[SF.length()];
        x[0] = -0f;
        if (x.length > 1) x[1] = Float.NaN;
        for (int i = 2; i < x.length; i++) x[i] = i;
        float[] got = PolyMathTrig.sin(FloatVector.fromArray(SF, x, 0)).toArray();
        for (int i = 0; i < x.length; i++) assertEquals(Float.floatToRawIntBits(PolyMathTrig.sin(x[i])), Float.floatToRawIntBits(got[i]));
    }

    @Test
    void theSameBitsBeforeAndAfterTheCallerIsCompiled() {
        float[] x = new float[SF.length()];
        double[] y = new double[SD.length()];
        Random r = new Random(3);
        for (int i = 0; i < x.length; i++) x[i] = (float) (r.nextGaussian() * 30);
        for (int i = 0; i < y.length; i++) y[i] = r.nextGaussian() * 30;
        FloatVector v = FloatVector.fromArray(SF, x, 0);
        DoubleVector w = DoubleVector.fromArray(SD, y, 0);
        float[] first = PolyMathTrig.sin(v).add(PolyMathTrig.cos(v)).toArray();
        double[] firstD = PolyMathTrig.sin(w).add(PolyMathTrig.cos(w)).toArray();
        for (int round = 0; round < 30_000; round++) {
            float[] now = PolyMathTrig.sin(v).add(PolyMathTrig.cos(v)).toArray();
            double[] nowD = PolyMathTrig.sin(w).add(PolyMathTrig.cos(w)).toArray();
            for (int i = 0; i < x.length; i++) assertEquals(Float.floatToRawIntBits(first[i]), Float.floatToRawIntBits(now[i]), "round " + round);
            for (int i = 0; i < y.length; i++) assertEquals(Double.doubleToRawLongBits(firstD[i]), Double.doubleToRawLongBits(nowD[i]), "round " + round);
        }
    }
}
