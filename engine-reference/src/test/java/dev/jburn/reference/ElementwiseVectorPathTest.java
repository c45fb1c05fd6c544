package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static dev.jburn.reference.ElementwiseTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Vector API kernels against the scalar oracle on random data: every layout with a fast path
 * (same shape, scalar on either side, a block repeated over leading axes) and one without, sizes
 * around the vector width and large enough to run in parallel, with NaN, ±0 and ±Inf mixed in.
 */
class ElementwiseVectorPathTest {
    private static final int[] SIZES = {1, 15, 16, 17, 1000, 300_000};
    private static final DType[] TYPES = {DType.F32, DType.F64, DType.S32, DType.S64};
    private static final BinaryOp[] VECTOR_BINARY = {
        BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.DIVIDE, BinaryOp.MIN, BinaryOp.MAX,
        BinaryOp.EQUAL, BinaryOp.NOT_EQUAL, BinaryOp.LESS, BinaryOp.LESS_EQUAL, BinaryOp.GREATER, BinaryOp.GREATER_EQUAL};
    private static final UnaryOp[] VECTOR_UNARY = {
        UnaryOp.NEGATE, UnaryOp.ABS, UnaryOp.SQRT, UnaryOp.RSQRT, UnaryOp.EXP, UnaryOp.EXPM1, UnaryOp.LOG,
        UnaryOp.LOG1P, UnaryOp.SIN, UnaryOp.COS, UnaryOp.TANH, UnaryOp.SIGMOID};

    /** The default cpu engine: vector kernels, parallel only above its (large) threshold. */
    private static final Engine DEFAULT = Engine.defaultEngine();

    private static Tensor random(DType t, Shape shape, long seed) {
        Random rnd = new Random(seed);
        int n = (int) shape.size();
        if (t.isFloat()) {
            double[] v = new double[n];
            double[] specials = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0};
            for (int i = 0; i < n; i++) {
                v[i] = rnd.nextInt(16) == 0 ? specials[rnd.nextInt(specials.length)] : (rnd.nextDouble() * 20 - 10);
            }
            return Tensor.fromArray(v, t).reshape(shape);
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextLong();                 // wraps on add and multiply
                case 1 -> rnd.nextInt(7) - 3;             // many ties for the comparisons
                default -> rnd.nextInt(2001) - 1000;
            };
        }
        return Tensor.fromArray(v, t).reshape(shape);
    }

    private static void compareBinary(DType t, Shape sa, Shape sb, long seed) {
        Tensor a = random(t, sa, seed), b = random(t, sb, seed + 1);
        Tensor ao = a.to(ORACLE), bo = b.to(ORACLE);
        Tensor av = a.to(VECTOR), bv = b.to(VECTOR);
        for (BinaryOp op : VECTOR_BINARY) {
            if (op == BinaryOp.DIVIDE && !t.isFloat()) continue; // integer divide computes in F32: covered elsewhere
            String what = op.opName() + " " + t.shortName() + sa + " with " + sb;
            try (Tensor expected = ao.apply(op, bo)) {
                assertClose(expected, av.apply(op, bv), 0, what + " (parallel vector)");
                assertClose(expected, a.apply(op, b), 0, what + " (default engine)");
            }
        }
    }

    @Test
    void sameShape() {
        for (DType t : TYPES) for (int n : SIZES) compareBinary(t, Shape.of(n), Shape.of(n), n);
    }

    @Test
    void scalarOnEitherSide() {
        for (DType t : TYPES) {
            for (int n : SIZES) {
                compareBinary(t, Shape.of(n), Shape.scalar(), 3L * n);
                compareBinary(t, Shape.scalar(), Shape.of(n), 5L * n);
                if (n <= 1000) compareBinary(t, Shape.of(1), Shape.of(2, n), 7L * n);
            }
        }
    }

    @Test
    void blockRepeatedOverLeadingAxes() {
        for (DType t : TYPES) {
            for (int n : new int[] {1, 15, 16, 17, 1000}) {
                compareBinary(t, Shape.of(3, n), Shape.of(n), 11L * n);
                compareBinary(t, Shape.of(1, n), Shape.of(4, 2, n), 13L * n);
            }
            compareBinary(t, Shape.of(300, 1000), Shape.of(1, 1000), 17);
            compareBinary(t, Shape.of(2, 3, 4), Shape.of(3, 4), 19);
        }
    }

    @Test
    void layoutsWithoutFastPathStillAgree() {
        for (DType t : TYPES) {
            compareBinary(t, Shape.of(17, 1), Shape.of(1, 33), 23);
            compareBinary(t, Shape.of(8, 1, 6, 1), Shape.of(7, 1, 5), 29);
            compareBinary(t, Shape.of(5, 1), Shape.of(5, 16), 31);
            compareBinary(t, Shape.of(0, 16), Shape.of(16), 37);
        }
    }

    @Test
    void unaryOps() {
        for (DType t : TYPES) {
            for (int n : SIZES) {
                Tensor x = random(t, Shape.of(n), 41L * n);
                Tensor xo = x.to(ORACLE), xv = x.to(VECTOR);
                for (UnaryOp op : VECTOR_UNARY) {
                    String what = op.opName() + " " + t.shortName() + "[" + n + "]";
                    int ulps = unaryUlps(t, op);
                    try (Tensor expected = xo.apply(op)) {
                        assertClose(expected, xv.apply(op), ulps, what + " (parallel vector)");
                        assertClose(expected, x.apply(op), ulps, what + " (default engine)");
                    }
                }
            }
        }
    }

    /**
     * How far the vector kernel may be from the oracle: F64 sin and cos are PolyMathTrig's (measured within 1 ulp
     * of StrictMath); the other transcendental functions come from PolyMathF32/PolyMathF64 (within a few ulps).
     */
    private static int unaryUlps(DType t, UnaryOp op) {
        return t == DType.F64 && (op == UnaryOp.SIN || op == UnaryOp.COS) ? 1 : 4;
    }

    @Test
    void maskFallbackWritesOneBytePerLane() {
        // the toLong() fallback runs where no byte species matches the lane count (F64 on AVX2: 4 lanes)
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment out = arena.allocate(20);
            VectorLanes.storeMask(out, 1, 0b1010_0000_0000_0101L, 16);
            VectorLanes.storeMask(out, 17, 0b0110L, 3);
            byte[] b = out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            assertArrayEquals(new byte[] {0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 1}, b);
        }
    }

    @Test
    void exactArithmeticIsBitIdentical() {
        // +, -, *, / and sqrt are correctly rounded in both paths: not even an ulp apart
        Tensor a = random(DType.F32, Shape.of(1000), 43), b = random(DType.F32, Shape.of(1000), 44);
        for (BinaryOp op : new BinaryOp[] {BinaryOp.ADD, BinaryOp.SUBTRACT, BinaryOp.MULTIPLY, BinaryOp.DIVIDE}) {
            float[] expected = a.to(ORACLE).apply(op, b.to(ORACLE)).toFloatArray();
            float[] actual = a.to(VECTOR).apply(op, b.to(VECTOR)).toFloatArray();
            for (int i = 0; i < expected.length; i++) {
                assertEquals(Float.floatToIntBits(expected[i]), Float.floatToIntBits(actual[i]), op + " at " + i);
            }
        }
    }
}
