package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.generators.Generate;

import java.util.List;

/**
 * Shared pieces of the element-wise contracts: the tolerance of each op, weakly typed Java
 * scalars, three operands that broadcast together, and the broadcast index rule used by the
 * properties that compute expected values themselves.
 */
final class ElementwiseCases {
    private ElementwiseCases() {}

    /** A tensor with a weakly typed Java integer. */
    record LongScalar(TensorCase x, long s) {
        @Override public String toString() { return "x = " + x + ", scalar " + s + "L"; }
    }

    /** A tensor with a weakly typed Java double. */
    record DoubleScalar(TensorCase x, double s) {
        @Override public String toString() { return "x = " + x + ", scalar " + s; }
    }

    /** Three operands whose shapes broadcast together (select's predicate and branches, clip's x and bounds). */
    record Triple(TensorCase a, TensorCase b, TensorCase c) {
        @Override public String toString() { return "a = " + a + ", b = " + b + ", c = " + c; }

        List<TensorCase> list() { return List.of(a, b, c); }

        Shape result(String op) { return Shape.broadcast(op, Shape.broadcast(op, a.shape(), b.shape()), c.shape()); }
    }

    /**
     * How close each unary op must be to the oracle. Ops that are exact in IEEE arithmetic (abs,
     * negate, sign, rounding) must also keep the sign of zero; float math gets the
     * transcendental allowance; predicates and bit ops give integers, compared exactly.
     */
    static Tolerance tolerance(UnaryOp op) {
        return switch (op) {
            case ABS, NEGATE, SIGN, FLOOR, CEIL, ROUND -> Tolerance.ARITHMETIC.signSensitive();
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> Tolerance.TRANSCENDENTAL;
            case IS_NAN, IS_INFINITY, LOGICAL_NOT, BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> Tolerance.EXACT;
        };
    }

    /**
     * How close each binary op must be to the oracle: one correctly rounded IEEE operation
     * ({@code +, -, *, /, fmod, min, max}) within {@link Tolerance#ARITHMETIC}, with the sign of
     * zero (IEEE fixes it; {@code min(-0.0, 0.0)} is {@code -0.0}); {@code pow} and {@code atan2}
     * are library math; comparisons, logical and integer-only ops are exact.
     */
    static Tolerance tolerance(BinaryOp op) {
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, REMAINDER, MIN, MAX -> Tolerance.ARITHMETIC.signSensitive();
            case POW, ATAN2 -> Tolerance.TRANSCENDENTAL;
            case QUOTIENT, EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR,
                 LOGICAL_XOR, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LEFT_SHIFT, RIGHT_SHIFT -> Tolerance.EXACT;
        };
    }

    /**
     * Java integers for the weak-typing rules: values that fit every type, the edges of each
     * width (so {@code u8 + 256 -> u16}, {@code u8 + -1 -> s16}), shift counts past the width,
     * and anything in the long range.
     */
    static Gen<Long> longScalars() {
        Gen<Long> edges = Generate.pick(List.of(0L, 1L, -1L, 2L, 3L, 7L, 8L, 31L, 64L, 127L, 128L, -128L, -129L, 255L, 256L,
                32767L, 32768L, -32769L, 65535L, 65536L, (long) Integer.MAX_VALUE, 1L << 31, (long) Integer.MIN_VALUE,
                (long) Integer.MIN_VALUE - 1, 0xFFFF_FFFFL, 1L << 32, 1L << 53, (1L << 53) + 1, Long.MAX_VALUE, Long.MIN_VALUE));
        return Generate.frequency(List.of(Pair.of(4, edges), Pair.of(4, Generate.longRange(-20, 20)),
                Pair.of(2, Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE))));
    }

    /**
     * Java doubles: small values and halves, and every F64 edge value (NaN, ±Inf, ±0, subnormals,
     * extremes). A weakly typed double becomes the tensor's type, so for an engine that flushes f32
     * subnormals none lies below f32's smallest normal ({@link Subnormals}).
     */
    static Gen<Double> doubleScalars() {
        return Generate.frequency(List.of(Pair.of(1, Elements.floats(DType.F64, Elements.Mix.ALL)),
                Pair.of(1, Elements.floats(DType.F64, Elements.Mix.SMALL)))).map(v -> Subnormals.generated(DType.F32, v));
    }

    /** A tensor with a weakly typed Java integer. */
    static Gen<LongScalar> withLongScalar(Gen<DType> types) {
        return Generators.tensors(types).zip(longScalars(), LongScalar::new);
    }

    /** A tensor with a weakly typed Java double. */
    static Gen<DoubleScalar> withDoubleScalar(Gen<DType> types) {
        return Generators.tensors(types).zip(doubleScalars(), DoubleScalar::new);
    }

    /** Three operands of independently drawn dtypes whose shapes broadcast together. */
    static Gen<Triple> triples(Gen<DType> a, Gen<DType> b, Gen<DType> c, Elements.Mix mix) {
        Gen<BroadcastShapes> pairs = Shapes.broadcastable();
        Gen<Integer> place = Generate.range(0, 2);
        return rs -> {
            BroadcastShapes p = pairs.generate(rs);
            Shape third = derive(p.result("triple"), rs);
            Shape[] s = switch (place.generate(rs)) {
                case 0 -> new Shape[] {third, p.a(), p.b()};
                case 1 -> new Shape[] {p.a(), third, p.b()};
                default -> new Shape[] {p.a(), p.b(), third};
            };
            return new Triple(Generators.values(a.generate(rs), s[0], mix).generate(rs),
                    Generators.values(b.generate(rs), s[1], mix).generate(rs),
                    Generators.values(c.generate(rs), s[2], mix).generate(rs));
        };
    }

    /** A shape that broadcasts to {@code out}: some leading axes dropped, some axes set to 1. */
    private static Shape derive(Shape out, RandomnessSource rs) {
        int keep = Generate.range(0, out.rank()).generate(rs);
        Gen<Integer> toOne = Generate.range(0, 2);
        int[] d = new int[keep];
        for (int i = 0; i < keep; i++) {
            int src = out.dim(out.rank() - keep + i);
            d[i] = toOne.generate(rs) == 0 ? 1 : src;
        }
        return Shape.of(d);
    }

    /** The row-major index in {@code operand} that broadcasting reads for element {@code outFlat} of {@code out}. */
    static int sourceIndex(Shape operand, Shape out, int outFlat) {
        int[] idx = TensorAssert.index(out, outFlat);
        int[] d = operand.dims();
        int shift = out.rank() - d.length;
        int flat = 0;
        for (int k = 0; k < d.length; k++) flat = flat * d[k] + (d[k] == 1 ? 0 : idx[k + shift]);
        return flat;
    }
}
