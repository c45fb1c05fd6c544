package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Unary element-wise ops: every op on every dtype matches the oracle (a dtype the op refuses
 * must fail naming the op) and follows {@link UnaryOp#resultType}; the bit ops, the rounding
 * functions, {@code sign} and {@code abs} follow their definitions exactly; negating twice is
 * the identity; {@code isNan(x) == notEqual(x, x)}; {@code exp(log(x)) ≈ x}.
 */
public interface UnaryContract extends EngineContract {

    @Test
    @Covers(families = UnaryOp.class)
    default void unaryOpsMatchTheOracleAndTheTypeRule() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            for (UnaryOp op : UnaryOp.values()) {
                String label = op.opName() + " of " + x;
                Oracle.check(engine(), label, x, ElementwiseCases.tolerance(op), in -> ElementwiseMethods.unary(op, in));
                DType want = resultTypeOrNull(op, x.dtype());
                if (want == null) {
                    JBurnException e = assertThrows(JBurnException.class, () -> t.apply(op), label);
                    assertEquals(op.opName(), e.op(), label);
                    continue;
                }
                Tensor r = ElementwiseMethods.unary(op, t);
                assertEquals(want, r.dtype(), () -> label + ": the type rule UnaryOp.resultType gives " + want);
                assertEquals(x.shape(), r.shape(), label);
                TensorAssert.assertSame(label + ": apply(" + op + ") and " + op.opName() + "() differ", TensorCase.of(r), t.apply(op));
            }
        });
    }

    @Test
    @Covers({"bitwiseNot", "populationCount", "countLeadingZeros"})
    default void bitOpsFollowTwosComplement() {
        Props.forAll(Generators.tensors(Generators.integerTypes()), x -> {
            Tensor t = x.on(engine());
            DType d = x.dtype();
            int w = d.bits();
            long mask = w == 64 ? -1L : (1L << w) - 1;
            long[] not = new long[(int) x.size()];
            long[] pop = new long[not.length];
            long[] clz = new long[not.length];
            for (int i = 0; i < not.length; i++) {
                long v = x.longAt(i) & mask;
                not[i] = ~x.longAt(i);
                pop[i] = Long.bitCount(v);
                clz[i] = Long.numberOfLeadingZeros(v) - (64 - w);
            }
            TensorAssert.assertSame("bitwiseNot of " + x, TensorCase.ofLongs(d, x.shape(), not), t.bitwiseNot());
            TensorAssert.assertSame("populationCount of " + x, TensorCase.ofLongs(d, x.shape(), pop), t.populationCount());
            TensorAssert.assertSame("countLeadingZeros of " + x, TensorCase.ofLongs(d, x.shape(), clz), t.countLeadingZeros());
        });
    }

    @Test
    @Covers({"bitwiseNot", "populationCount", "countLeadingZeros"})
    default void bitOpsRefuseFloatsNamingTheOpAndTheType() {
        Props.forAll(Generators.tensors(Generators.floatTypes()), x -> {
            Tensor t = x.on(engine());
            for (UnaryOp op : new UnaryOp[] {UnaryOp.BITWISE_NOT, UnaryOp.POPULATION_COUNT, UnaryOp.COUNT_LEADING_ZEROS}) {
                JBurnException e = assertThrows(JBurnException.class, () -> ElementwiseMethods.unary(op, t), () -> op.opName() + " of " + x);
                assertEquals(op.opName(), e.op());
                assertTrue(e.reason().contains(x.dtype().shortName()), () -> op.opName() + ": the reason should name the type: " + e.reason());
            }
        });
    }

    @Test
    @Covers({"floor", "ceil", "round", "sign", "abs"})
    default void roundingSignAndAbsFollowIeee() {
        Props.forAll(Generators.tensors(Generators.floatTypes()), x -> {
            Tensor t = x.on(engine());
            double[] v = x.doubles();
            double[] floor = new double[v.length], ceil = new double[v.length], round = new double[v.length];
            double[] sign = new double[v.length], abs = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                floor[i] = Math.floor(v[i]);
                ceil[i] = Math.ceil(v[i]);
                double whole = Math.floor(Math.abs(v[i]));
                round[i] = Math.copySign(Math.abs(v[i]) - whole >= 0.5 ? whole + 1 : whole, v[i]); // half away from zero
                sign[i] = Math.signum(v[i]);
                abs[i] = Math.abs(v[i]);
            }
            TensorAssert.assertSame("floor of " + x, TensorCase.ofDoubles(x.dtype(), x.shape(), floor), t.floor());
            TensorAssert.assertSame("ceil of " + x, TensorCase.ofDoubles(x.dtype(), x.shape(), ceil), t.ceil());
            TensorAssert.assertSame("round of " + x, TensorCase.ofDoubles(x.dtype(), x.shape(), round), t.round());
            TensorAssert.assertSame("sign of " + x, TensorCase.ofDoubles(x.dtype(), x.shape(), sign), t.sign());
            TensorAssert.assertSame("abs of " + x, TensorCase.ofDoubles(x.dtype(), x.shape(), abs), t.abs());
        });
    }

    @Test
    @Covers("abs")
    default void absOfAnIntegerIsNonNegativeExceptTheSignedMinimum() {
        Props.forAll(Generators.tensors(Generators.integerTypes()), x -> {
            TensorCase r = TensorCase.of(x.on(engine()).abs());
            StringBuilder bad = new StringBuilder();
            for (int i = 0; i < x.size(); i++) {
                long v = x.longAt(i);
                long want = x.dtype().isUnsigned() || v == x.dtype().minLong() ? v : Math.abs(v); // the minimum wraps to itself
                if (r.longAt(i) != want) bad.append("\n    at flat index ").append(i).append(": abs(").append(v).append(") gave ").append(r.longAt(i));
            }
            if (!bad.isEmpty()) Assertions.fail("abs of " + x + " on engine '" + engine().name() + "'" + bad);
        });
    }

    @Test
    @Covers("negate")
    default void negatingTwiceIsTheIdentity() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            TensorCase want = x.dtype().isPred() ? TensorCase.of(t.asType(DType.U8)) : x; // -pred is u8, wrapping
            TensorAssert.assertSame("negate(negate(x)) for x = " + x, want, t.negate().negate());
        });
    }

    @Test
    @Covers({"isNan", "notEqual"})
    default void isNanIsNotEqualToItself() {
        Props.forAll(Generators.tensors(), x -> {
            Tensor t = x.on(engine());
            long[] nan = new long[(int) x.size()];
            for (int i = 0; i < nan.length; i++) nan[i] = Double.isNaN(x.doubleAt(i)) ? 1 : 0;
            TensorCase want = TensorCase.ofLongs(DType.PRED, x.shape(), nan);
            TensorAssert.assertSame("isNan of " + x, want, t.isNan());
            TensorAssert.assertSame("notEqual(x, x) for x = " + x, want, t.notEqual(t));
        });
    }

    /**
     * {@code exp(log(x))} is within a bound of {@code x} for positive finite floats (and zero):
     * an error of {@code k} ulps in {@code log(x)} is an absolute error of about
     * {@code k * 2^-mantissaBits * |ln x|}, which {@code exp} turns into that relative error, so the
     * bound is {@code 4 * ulps * 2^-mantissaBits * (1 + |ln x|)} relative (ulps from
     * {@link Tolerance#TRANSCENDENTAL}), plus the smallest subnormal. It is loose for BF16 near
     * its extremes (8 bits of precision against {@code |ln x|} up to 92), as the arithmetic says.
     * Where the bound reaches past the largest finite value, +Inf is accepted.
     */
    @Test
    @Covers({"exp", "log"})
    default void expOfLogIsCloseToTheInput() {
        Gen<TensorCase> positive = Generators.tensors(Generators.floatTypes(), Shapes.any(), Elements.Mix.FINITE).map(c -> {
            double[] v = c.doubles();
            for (int i = 0; i < v.length; i++) v[i] = Math.abs(v[i]);
            return TensorCase.ofDoubles(c.dtype(), c.shape(), v);
        });
        Tolerance tol = Tolerance.TRANSCENDENTAL;
        Props.forAll(positive, x -> {
            DType d = x.dtype();
            TensorCase r = TensorCase.of(x.on(engine()).log().exp());
            int ulps = switch (d) {
                case F64 -> tol.f64Ulps();
                case F32 -> tol.f32Ulps();
                default -> tol.halfUlps();
            };
            StringBuilder bad = new StringBuilder();
            for (int i = 0; i < x.size(); i++) {
                double v = x.doubleAt(i);
                double y = r.doubleAt(i);
                double rel = 4.0 * ulps * Math.scalb(1.0, -FloatFormats.mantissaBits(d)) * (1 + Math.abs(Math.log(v)));
                double bound = (v == 0 ? 0 : rel * v) + FloatFormats.minSubnormal(d); // exp(log(0)) = exp(-Inf) = 0
                boolean overflowAllowed = y == Double.POSITIVE_INFINITY && v + bound > FloatFormats.maxFinite(d);
                // A result that may land below f32's smallest normal may be flushed to zero by an engine that flushes.
                boolean flushAllowed = y == 0 && Subnormals.flushed() && Subnormals.affects(d) && v - bound < Float.MIN_NORMAL;
                if (!(Math.abs(y - v) <= bound) && !overflowAllowed && !flushAllowed) {
                    bad.append("\n    at flat index ").append(i).append(": exp(log(").append(v).append(")) = ").append(y)
                            .append(", allowed |difference| <= ").append(bound);
                }
            }
            if (!bad.isEmpty()) Assertions.fail("exp(log(x)) for x = " + x + " on engine '" + engine().name() + "'" + bad);
        });
    }

    private static DType resultTypeOrNull(UnaryOp op, DType in) {
        try {
            return op.resultType(in);
        } catch (JBurnException e) {
            return null;
        }
    }
}
