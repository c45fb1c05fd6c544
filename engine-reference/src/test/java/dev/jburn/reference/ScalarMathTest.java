package dev.jburn.reference;

import dev.jburn.spi.ScalarMath;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** erf, erfc, erfInv and the inverse hyperbolic functions of {@link ScalarMath}. */
class ScalarMathTest {
    private static void assertUlps(double expected, double actual, int ulps) {
        assertTrue(Math.abs(expected - actual) <= ulps * Math.ulp(expected), () -> "expected " + expected + " but was " + actual);
    }

    @Test
    void knownValues() {
        assertUlps(0.5204998778130465, ScalarMath.erf(0.5), 1);
        assertUlps(2.209049699858544e-05, ScalarMath.erfc(3), 2);
        assertUlps(0.4769362762044699, ScalarMath.erfInv(0.5), 2);
        assertUlps(0.8427007929497149, ScalarMath.erf(1), 1);
        assertUlps(1.5374597944280349e-12, ScalarMath.erfc(5), 2);
        assertUlps(-0.9999779095030014, ScalarMath.erf(-3), 1);
        assertUlps(1.1630871536766743, ScalarMath.erfInv(0.9), 2);
        assertUlps(-1.8213863677184496, ScalarMath.erfInv(-0.99), 2);
    }

    @Test
    void specialValues() {
        assertEquals(1.0, ScalarMath.erf(Double.POSITIVE_INFINITY));
        assertEquals(-1.0, ScalarMath.erf(Double.NEGATIVE_INFINITY));
        assertEquals(0.0, ScalarMath.erfc(Double.POSITIVE_INFINITY));
        assertEquals(2.0, ScalarMath.erfc(Double.NEGATIVE_INFINITY));
        assertTrue(Double.isNaN(ScalarMath.erf(Double.NaN)));
        assertEquals(0.0, ScalarMath.erfc(30));
        assertEquals(Double.POSITIVE_INFINITY, ScalarMath.erfInv(1));
        assertEquals(Double.NEGATIVE_INFINITY, ScalarMath.erfInv(-1));
        assertTrue(Double.isNaN(ScalarMath.erfInv(1.5)));
        assertTrue(Double.isNaN(ScalarMath.erfInv(Double.NaN)));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(ScalarMath.erfInv(-0.0)));
        assertEquals(Float.POSITIVE_INFINITY, ScalarMath.erfInvF32(1f));
        assertEquals(Float.NEGATIVE_INFINITY, ScalarMath.erfInvF32(-1f));
        assertTrue(Float.isNaN(ScalarMath.erfInvF32(1.5f)));
    }

    @Test
    void erfInvInvertsErf() {
        Random rnd = new Random(7);
        for (int i = 0; i < 20000; i++) {
            double x = (rnd.nextDouble() * 2 - 1) * (i % 2 == 0 ? 1 : 5.5);
            double y = ScalarMath.erf(x);
            if (Math.abs(y) == 1) continue;
            double back = ScalarMath.erfInv(y);
            // the inverse is ill-conditioned near |y| = 1: compare in y, where erf is well conditioned
            assertUlps(y, ScalarMath.erf(back), 2);
        }
        for (double y : new double[] {1e-300, 1e-20, 1e-8, 0.1, 0.3, 0.5, 0.75, 0.999, 1 - 1e-12, Math.nextDown(1.0)}) {
            double x = ScalarMath.erfInv(y);
            double f = y < 0.5 ? ScalarMath.erf(x) : 1 - ScalarMath.erfc(x);
            assertUlps(y, f, 2);
        }
    }

    @Test
    void singlePrecisionErfInvIsCloseToDouble() {
        Random rnd = new Random(11);
        for (int i = 0; i < 20000; i++) {
            float y = (float) (rnd.nextDouble() * 2 - 1);
            double exact = ScalarMath.erfInv(y);
            float approx = ScalarMath.erfInvF32(y);
            // XLA squares y in float, which costs digits as |y| -> 1 (2.622051 vs 2.6220442 at 0.9997912)
            double tol = 8 * Math.ulp((float) exact) + 4e-6 * Math.abs(exact);
            assertTrue(Math.abs(approx - exact) <= tol, () -> y + ": " + approx + " vs " + exact);
        }
        float nearOne = Math.nextDown(1f);
        assertEquals(ScalarMath.erfInv(nearOne), ScalarMath.erfInvF32(nearOne), 1e-5);
    }

    @Test
    void nxVariantReproducesNxNormalSample() {
        // 0.8291474f is the uniform that Threefry draws for Nx.Random.normal(Nx.Random.key(42));
        // Nx's doctest answer is sqrt(2) * erf_inv(u) = 1.3694695.
        float u = 0.8291474f;
        assertEquals(1.3694695f, (float) Math.sqrt(2) * (float) ScalarMath.erfInvNx(u));
        assertEquals(1.3694694f, (float) Math.sqrt(2) * ScalarMath.erfInvF32(u)); // XLA's float arithmetic
        assertEquals(Double.POSITIVE_INFINITY, ScalarMath.erfInvNx(1));
        assertTrue(Double.isNaN(ScalarMath.erfInvNx(-1.5)));
        Random rnd = new Random(5);
        for (int i = 0; i < 5000; i++) {
            double y = rnd.nextDouble() * 2 - 1;
            double exact = ScalarMath.erfInv(y);
            assertEquals(exact, ScalarMath.erfInvNx(y), 4e-7 * Math.max(1, Math.abs(exact)), () -> "y = " + y);
        }
    }

    @Test
    void inverseHyperbolics() {
        // y -> f^-1(f(y)) is well conditioned in these ranges
        for (double y : new double[] {-700, -30, -2.5, -1, -1e-5, 0, 1e-10, 0.3, 1, 2, 3.7, 20, 700}) {
            assertUlps(y, ScalarMath.asinh(StrictMath.sinh(y)), 4);
        }
        for (double y : new double[] {0.5, 1, 1.5, 2, 10, 100, 700}) {
            assertUlps(y, ScalarMath.acosh(StrictMath.cosh(y)), 4);
        }
        for (double y : new double[] {-1.5, -0.5, -1e-9, 0, 0.25, 0.75, 1.2}) {
            assertUlps(y, ScalarMath.atanh(StrictMath.tanh(y)), 8);
        }
        assertUlps(StrictMath.log(1e300) + StrictMath.log(2), ScalarMath.asinh(1e300), 2);
        assertUlps(0.881373587019543, ScalarMath.asinh(1), 1);
        assertUlps(1.3169578969248166, ScalarMath.acosh(2), 1);
        assertUlps(0.5493061443340549, ScalarMath.atanh(0.5), 1);
    }
}
