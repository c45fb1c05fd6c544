package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.QuickTheory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kit's own pieces: tolerances, float formats, generators and failure messages. */
class KitSelfTest {

    @Test
    void toleranceCountsUlpsInTheResultFormat() {
        float one = 1f;
        double fourUp = Math.nextUp(Math.nextUp(Math.nextUp(Math.nextUp(one))));
        assertTrue(Tolerance.ARITHMETIC.accepts(DType.F32, one, fourUp));
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.F32, one, Math.nextUp((float) fourUp)));
        assertTrue(Tolerance.TRANSCENDENTAL.accepts(DType.F32, one, Math.nextUp((float) fourUp)));
        assertTrue(Tolerance.ARITHMETIC.accepts(DType.BF16, 1.0, 1.0078125));       // 1 bf16 ulp
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.BF16, 1.0, 1.015625));       // 2 bf16 ulps
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.F16, 1.0, 1.0 + 2 * 0x1p-10));
        assertFalse(Tolerance.EXACT.accepts(DType.F64, 1.0, Math.nextUp(1.0)));
        assertTrue(Tolerance.ARITHMETIC.accepts(DType.F64, 1e300, 1e300 * (1 + 1e-13)));
    }

    @Test
    void toleranceHandlesNaNInfinityAndSignedZero() {
        assertTrue(Tolerance.ARITHMETIC.accepts(DType.F32, Double.NaN, Double.NaN));
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.F32, Double.NaN, 0));
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.F32, 0, Double.NaN));
        assertFalse(Tolerance.TRANSCENDENTAL.accepts(DType.F32, Float.MAX_VALUE, Double.POSITIVE_INFINITY));
        assertFalse(Tolerance.ARITHMETIC.accepts(DType.F16, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertTrue(Tolerance.ARITHMETIC.accepts(DType.F32, 0.0, -0.0));
        assertFalse(Tolerance.ARITHMETIC.signSensitive().accepts(DType.F32, 0.0, -0.0));
        assertFalse(Tolerance.EXACT.accepts(DType.F64, 0.0, -0.0));
        assertTrue(Tolerance.ARITHMETIC.withAbsolute(1e-3).accepts(DType.F32, 0.0, 1e-4));
    }

    @Test
    void floatFormatsKnowTheirExtremes() {
        assertEquals(65504.0, FloatFormats.maxFinite(DType.F16));
        assertEquals(0x1p-24, FloatFormats.minSubnormal(DType.F16));
        assertEquals(0x1p-133, FloatFormats.minSubnormal(DType.BF16));
        assertEquals(Float.MIN_NORMAL, FloatFormats.minNormal(DType.F32));
        assertEquals(Double.MIN_VALUE, FloatFormats.minSubnormal(DType.F64));
        assertEquals(1, FloatFormats.ulpDistance(DType.F16, -FloatFormats.minSubnormal(DType.F16), 0.0));
        assertEquals(2, FloatFormats.ulpDistance(DType.F32, -Float.MIN_VALUE, Float.MIN_VALUE));
        assertEquals(0, FloatFormats.ulpDistance(DType.F64, -0.0, 0.0));
        assertEquals(Double.POSITIVE_INFINITY, FloatFormats.nextUp(DType.F16, 65504.0));
        assertTrue(FloatFormats.representable(DType.BF16, 1.0078125));
        assertFalse(FloatFormats.representable(DType.BF16, 1.00390625));
    }

    @Test
    void castSpecKnowsWhichTypesHoldOthers() {
        assertTrue(CastSpec.holdsExactly(DType.U8, DType.BF16));
        assertTrue(CastSpec.holdsExactly(DType.S16, DType.F32));
        assertFalse(CastSpec.holdsExactly(DType.U16, DType.F16));
        assertTrue(CastSpec.holdsExactly(DType.U32, DType.S64));
        assertFalse(CastSpec.holdsExactly(DType.U64, DType.S64));
        assertFalse(CastSpec.holdsExactly(DType.S8, DType.U64));
        assertTrue(CastSpec.holdsExactly(DType.F16, DType.F32));
        assertFalse(CastSpec.holdsExactly(DType.F16, DType.BF16));
        assertFalse(CastSpec.holdsExactly(DType.BF16, DType.F16));
        assertTrue(CastSpec.holdsExactly(DType.PRED, DType.U8));
    }

    @Test
    void shapeGeneratorsReachTheEdges() {
        List<Shape> shapes = sample(Shapes.any(), 2000);
        assertTrue(shapes.stream().allMatch(s -> s.rank() <= 4 && s.size() <= Shapes.MAX_ELEMENTS));
        assertSome(shapes, s -> s.rank() == 0, "rank 0");
        assertSome(shapes, s -> s.size() == 0, "an empty shape");
        assertSome(shapes, s -> s.rank() == 4, "rank 4");
        assertSome(shapes, s -> s.size() > 128, "more than 128 elements");
        for (BroadcastShapes p : sample(Shapes.broadcastable(), 500)) p.result("test");
        for (BroadcastShapes p : sample(Shapes.incompatible(), 200)) {
            assertThrows(dev.jburn.JBurnException.class, () -> p.result("test"), p::toString);
        }
        for (long n : new long[] {0, 1, 7, 12, 300}) {
            for (Shape s : sample(Shapes.withSize(n), 50)) assertEquals(n, s.size(), s::toString);
        }
    }

    @Test
    void valueGeneratorsMixInTheEdgeValues() {
        List<Double> f16 = sample(Elements.floats(DType.F16, Elements.Mix.ALL), 3000);
        assertSome(f16, d -> Double.isNaN(d), "NaN");
        assertSome(f16, d -> d == Double.NEGATIVE_INFINITY, "-Inf");
        assertSome(f16, d -> d == 0 && Math.copySign(1, d) < 0, "-0.0");
        assertSome(f16, d -> d != 0 && Math.abs(d) < FloatFormats.minNormal(DType.F16), "a subnormal");
        assertTrue(f16.stream().allMatch(d -> FloatFormats.representable(DType.F16, d)), "every value is an f16");
        assertTrue(sample(Elements.floats(DType.F32, Elements.Mix.FINITE), 2000).stream().allMatch(Double::isFinite));
        List<Long> u8 = sample(Elements.integers(DType.U8, Elements.Mix.ALL), 2000);
        assertTrue(u8.stream().allMatch(v -> v >= 0 && v <= 255));
        assertSome(u8, v -> v == 255, "255");
        List<Long> s64 = sample(Elements.integers(DType.S64, Elements.Mix.ALL), 2000);
        assertSome(s64, v -> v == Long.MIN_VALUE, "Long.MIN_VALUE");
        assertSome(s64, v -> v == -1, "-1");
    }

    @Test
    void boundedAndPowerOfTwoMixesKeepTheirPromises() {
        for (DType t : List.of(DType.F16, DType.BF16, DType.F32, DType.F64)) {
            List<Double> finite = sample(Elements.floats(t, Elements.Mix.FINITE), 1000);
            assertTrue(finite.stream().allMatch(Double::isFinite), t + ": FINITE has no NaN or Inf");
            List<Double> bounded = sample(Elements.floats(t, Elements.Mix.BOUNDED), 2000);
            double cap = Math.scalb(1.0, Elements.boundExponent(t));
            assertTrue(bounded.stream().allMatch(d -> !Double.isFinite(d) || Math.abs(d) < cap), t + ": BOUNDED stays below " + cap);
            assertTrue(bounded.stream().allMatch(d -> FloatFormats.representable(t, d)), t + ": BOUNDED values are " + t);
            assertSome(bounded, d -> Double.isNaN(d), t + " NaN in BOUNDED");
            assertSome(bounded, d -> d != 0 && Math.abs(d) < FloatFormats.minNormal(t), t + " subnormal in BOUNDED");
            assertSome(bounded, d -> Math.abs(d) > cap / 4 && Double.isFinite(d), t + " large value in BOUNDED");
            List<Double> powers = sample(Elements.floats(t, Elements.Mix.POWERS_OF_TWO), 2000);
            assertTrue(powers.stream().allMatch(d -> !Double.isFinite(d) || d == 0 || Math.abs(d) == 0.5 || Math.abs(d) == 1 || Math.abs(d) == 2));
            assertSome(powers, d -> Double.isInfinite(d), t + " Inf in POWERS_OF_TWO");
        }
        assertSome(sample(Elements.integers(DType.S8, Elements.Mix.BOUNDED), 1000), v -> v == Byte.MIN_VALUE, "BOUNDED integers keep the extremes");
    }

    @Test
    void axisGeneratorsWriteValidAxesBothWays() {
        for (int r = 0; r <= 4; r++) {
            int rank = r;
            for (int[] a : sample(Axes.subset(rank), 300)) {
                int[] n = Axes.normalized(a, rank);
                assertEquals(n.length, java.util.Arrays.stream(n).distinct().count(), java.util.Arrays.toString(a));
                assertTrue(java.util.Arrays.stream(a).allMatch(x -> x >= -rank && x < rank), java.util.Arrays.toString(a));
            }
            for (int[] p : sample(Axes.permutation(rank), 100)) {
                int[] sorted = Axes.normalized(p, rank);
                java.util.Arrays.sort(sorted);
                assertArrayEquals(java.util.stream.IntStream.range(0, rank).toArray(), sorted, java.util.Arrays.toString(p));
                int[] inv = Axes.inverse(p);
                for (int i = 0; i < rank; i++) assertEquals(i, Axes.normalized(p, rank)[inv[i]]);
            }
            for (int[] a : sample(Axes.increasing(rank, 2), 100)) {
                int[] n = Axes.normalized(a, rank);
                for (int i = 1; i < n.length; i++) assertTrue(n[i - 1] < n[i], java.util.Arrays.toString(a));
            }
        }
        assertSome(sample(Axes.subset(3), 300), a -> java.util.Arrays.stream(a).anyMatch(x -> x < 0), "a negative axis");
        assertSome(sample(Axes.subset(3), 300), a -> a.length == 3, "every axis");
    }

    @Test
    void smallShapesStaySmallEvenWithEmptyAxes() {
        for (Shape s : sample(Shapes.upTo(40), 2000)) {
            long nonEmpty = 1;
            for (int d : s.dims()) nonEmpty *= Math.max(d, 1);
            assertTrue(nonEmpty <= 40, s::toString);
        }
    }

    @Test
    void accumulationToleranceGrowsWithTheTermsAndTheMagnitude() {
        Tolerance t = Tolerance.accumulation(DType.F32, 100, 1000);
        assertTrue(t.accepts(DType.F32, 1.0, 1.0 + 0.01), "2·100·2^-24·1000 ≈ 0.012");
        assertFalse(t.accepts(DType.F32, 1.0, 1.0 + 0.02));
        assertFalse(t.accepts(DType.F32, 1.0, Double.NaN));
        assertEquals(Tolerance.ARITHMETIC, Tolerance.accumulation(DType.S32, 100, 1000));
        assertTrue(Tolerance.SELECTION.accepts(DType.F16, -0.0, 0.0));
        assertFalse(Tolerance.SELECTION.accepts(DType.F16, 1.0, 1.0009765625));
    }

    @Test
    void tensorCasesRoundTripAndPrintThemselves() {
        TensorCase c = TensorCase.ofDoubles(DType.BF16, Shape.of(2, 2), 1.0, Double.NaN, -0.0, 1.00390625);
        assertEquals("bf16[2,2] [1.0, NaN, -0.0, 1.0]", c.toString());
        Tensor t = c.on(Oracle.engine());
        TensorAssert.assertSame("round trip", c, t);
        assertEquals("u64[1] [18446744073709551615]", TensorCase.ofLongs(DType.U64, Shape.of(1), -1).toString());
    }

    @Test
    void assertionMessagesNameTheIndexAndTheUlps() {
        TensorCase want = TensorCase.ofDoubles(DType.F32, Shape.of(2, 2), 1, 2, 3, 4);
        Tensor got = TensorCase.ofDoubles(DType.F32, Shape.of(2, 2), 1, 2, 3, Math.nextUp(4f) + 0x1p-20).tensor();
        AssertionError e = assertThrows(AssertionError.class, () -> TensorAssert.assertClose("case X", want, got, Tolerance.EXACT, want));
        assertTrue(e.getMessage().contains("case X"), e.getMessage());
        assertTrue(e.getMessage().contains("at [1, 1]: expected 4.0"), e.getMessage());
        assertTrue(e.getMessage().contains("ulp)"), e.getMessage());
        AssertionError shape = assertThrows(AssertionError.class,
                () -> TensorAssert.assertSame("s", want, got.reshape(4)));
        assertTrue(shape.getMessage().contains("shape [4], expected [2, 2]"), shape.getMessage());
    }

    /** {@code n} values of {@code gen}, drawn by QuickTheories with a fixed seed. */
    private static <T> List<T> sample(Gen<T> gen, int n) {
        List<T> out = new ArrayList<>();
        QuickTheory.qt().withFixedSeed(42).withExamples(n).forAll(gen).checkAssert(out::add);
        return out;
    }

    private static <T> void assertSome(List<T> values, Predicate<T> p, String what) {
        assertTrue(values.stream().anyMatch(p), "no " + what + " in " + values.size() + " samples");
    }
}
