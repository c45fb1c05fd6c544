package dev.jburn.conformance;

import dev.jburn.DType;

/**
 * How the kit treats f32 subnormals for the engine under test. An engine whose
 * {@code Capabilities.flushesF32Subnormals()} is true (a GPU driver with no way to keep them)
 * gets no F32 or BF16 subnormal inputs, and its F32/BF16 results compare a subnormal expected value
 * as zero of either sign. Every other engine is held to exact subnormal arithmetic. Set per test by
 * {@link EngineContract} from the engine's capabilities.
 */
public final class Subnormals {
    private Subnormals() {}

    private static volatile boolean flushed;

    /** Whether the engine under test flushes f32 subnormals. */
    public static boolean flushed() { return flushed; }

    static void setFlushed(boolean on) { flushed = on; }

    /** Whether {@code t} computes in f32 with f32's exponent range (so a flushing engine flushes it). */
    static boolean affects(DType t) { return t == DType.F32 || t == DType.BF16; }

    /** A nonzero finite value below f32's smallest normal. */
    static boolean isF32Subnormal(double v) { return v != 0 && Math.abs(v) < Float.MIN_NORMAL; }

    /** A generated value of {@code t} as the kit hands it out: a signed zero in place of an f32 subnormal when flushed. */
    static double generated(DType t, double v) {
        return flushed && affects(t) && isF32Subnormal(v) ? Math.copySign(0.0, v) : v;
    }

    /**
     * Whether {@code actual} is what a flushing engine may give for a subnormal {@code expected} of {@code t}: zero of
     * either sign. For BF16 also for an expected smallest normal: a flushing engine computes BF16 in f32, whose more
     * precise result just below f32's smallest normal is subnormal and flushed before it is rounded to BF16, where
     * it would have rounded up to that normal (an H100 gave -0.0 for the product -1.1754944E-38 of two BF16 values).
     */
    static boolean flushedMatch(DType t, double expected, double actual) {
        if (!flushed || !affects(t)) return false;
        if (actual != 0) return isF32Subnormal(expected) && actual == expected;
        return isF32Subnormal(expected) || t == DType.BF16 && Math.abs(expected) == Float.MIN_NORMAL;
    }
}
