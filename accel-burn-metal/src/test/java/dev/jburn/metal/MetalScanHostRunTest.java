package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.CumulativeOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cumulative sum, product, max and min on the metal backend ({@link MslScans} run on the CPU by clang,
 * {@link SpiRun}) against the cpu engine, bit for bit: every dtype, both directions, every axis, edge
 * values (NaN, ±0, ±Inf, type extremes that wrap) and tied ones, empty tensors; only PRED and F64 fall back.
 */
class MetalScanHostRunTest {
    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    @Test
    void scansMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1808);
        long expected = 0;
        try (SpiRun r = new SpiRun(); Arena arena = Arena.ofConfined()) {
            DType[] types = DType.values();
            CumulativeOp[] ops = CumulativeOp.values();
            for (int c = 0; c < 120; c++) {
                DType t = types[c % types.length];
                CumulativeOp op = ops[(c / types.length) % ops.length];
                int rank = 1 + rnd.nextInt(3);
                Shape s = SpiRun.shape(rnd, rank, rnd.nextInt(10) == 0 ? 0 : 1, 6);
                int axis = rnd.nextInt(rank);
                boolean reverse = rnd.nextBoolean();
                if (t == DType.PRED || t == DType.F64) expected++;
                SpiRun.Input x = c % 2 == 0 ? r.edges(t, s, rnd) : new SpiRun.Input(t, s, MslValues.tied(arena, t, s.size(), rnd));
                r.compare(op.opName() + " " + t + s + " axis " + axis + (reverse ? " reverse" : ""), List.of(x),
                        (b, xs) -> b.cumulative(op, xs.get(0), axis, reverse));
            }
            System.out.println("metal scans " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }
}
