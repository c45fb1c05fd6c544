package dev.jburn.conformance;

import dev.jburn.DType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;
import static org.quicktheories.QuickTheory.qt;

class SubnormalsTest {
    @AfterEach
    void reset() { Subnormals.setFlushed(false); }

    @Test
    void aFlushingEngineGetsNoF32OrBf16Subnormals() {
        Subnormals.setFlushed(true);
        for (DType t : new DType[] {DType.F32, DType.BF16}) {
            qt().withExamples(2000).forAll(Elements.floats(t, Elements.Mix.ALL))
                    .check(v -> !Subnormals.isF32Subnormal(v));
        }
    }

    @Test
    void otherEnginesAndOtherTypesStillGetThem() {
        boolean[] seen = new boolean[1];
        qt().withExamples(2000).forAll(Elements.floats(DType.F32, Elements.Mix.ALL)).checkAssert(v -> {
            if (Subnormals.isF32Subnormal(v)) seen[0] = true;
        });
        assertTrue(seen[0], "f32 subnormals are generated for an engine that keeps them");
        Subnormals.setFlushed(true);
        assertEquals(FloatFormats.minSubnormal(DType.F64), Subnormals.generated(DType.F64, FloatFormats.minSubnormal(DType.F64)));
    }

    @Test
    void aSubnormalResultMatchesZeroOnlyWhenFlushed() {
        double tiny = FloatFormats.minSubnormal(DType.F32);
        assertFalse(Subnormals.flushedMatch(DType.F32, tiny, 0.0));
        Subnormals.setFlushed(true);
        assertTrue(Subnormals.flushedMatch(DType.F32, tiny, 0.0));
        assertTrue(Subnormals.flushedMatch(DType.BF16, -tiny, -0.0));
        assertFalse(Subnormals.flushedMatch(DType.F32, tiny, 2 * tiny), "a wrong subnormal is still wrong");
        assertFalse(Subnormals.flushedMatch(DType.F32, 1.0, 0.0), "normal results are not excused");
        assertFalse(Subnormals.flushedMatch(DType.F64, 1e-310, 0.0), "f64 is not flushed");
        // BF16 computed in f32: a product just below f32's smallest normal flushes before it would round up to it
        assertTrue(Subnormals.flushedMatch(DType.BF16, -Float.MIN_NORMAL, -0.0));
        assertFalse(Subnormals.flushedMatch(DType.F32, Float.MIN_NORMAL, 0.0), "f32 rounds before it flushes");
        assertFalse(Subnormals.flushedMatch(DType.BF16, 2.0 * Float.MIN_NORMAL, 0.0), "larger bf16 normals are not excused");
        Subnormals.setFlushed(false);
        assertFalse(Subnormals.flushedMatch(DType.BF16, Float.MIN_NORMAL, 0.0), "only a flushing engine");
    }
}
