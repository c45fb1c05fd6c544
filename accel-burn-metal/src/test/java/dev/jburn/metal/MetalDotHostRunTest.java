package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Dots MPS does not run, on {@link MslGemm}'s simdgroup matrices (the shim's emulation, run on the CPU
 * by clang, {@link SpiRun}) against the cpu engine within a tolerance (the sums' order differs):
 * batched, stored transposed, contracted axes apart (permuted first), f32, f16 and bf16, sizes on
 * both sides of the 32-wide tiles and of K's steps of 32, and empty ones; none fell back. Without
 * simdgroup matrices (an older GPU family) they fall back, counted. Integer dots ({@link MslGemm#integer})
 * bit for bit, on edge values whose sums wrap.
 */
class MetalDotHostRunTest {
    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    /** One dot: its label, operand shapes, contracted and batch axes. */
    private record Dot(String label, Shape a, int[] contractA, int[] batchA, Shape b, int[] contractB, int[] batchB) {}

    private static List<Dot> dots() {
        return List.of(
                new Dot("batched [b,m,k]·[b,k,n]", Shape.of(3, 33, 40), new int[] {2}, new int[] {0}, Shape.of(3, 40, 17), new int[] {1}, new int[] {0}),
                new Dot("a stored [k,m]", Shape.of(65, 9), new int[] {0}, new int[0], Shape.of(65, 31), new int[] {0}, new int[0]),
                new Dot("b stored [b,n,k] (attention's q·kᵀ)", Shape.of(2, 5, 8), new int[] {2}, new int[] {0}, Shape.of(2, 6, 8), new int[] {2}, new int[] {0}),
                new Dot("contracted axes apart, permuted first", Shape.of(2, 3, 5, 4), new int[] {1, 3}, new int[] {0}, Shape.of(2, 3, 4, 6), new int[] {1, 2}, new int[] {0}),
                new Dot("two contracted axes", Shape.of(2, 3, 4, 5), new int[] {2, 3}, new int[] {0}, Shape.of(2, 4, 5, 6), new int[] {1, 2}, new int[] {0}),
                new Dot("vector · matrix", Shape.of(37), new int[] {0}, new int[0], Shape.of(37, 3), new int[] {0}, new int[0]),
                new Dot("k = 0", Shape.of(2, 3, 0), new int[] {2}, new int[] {0}, Shape.of(2, 0, 4), new int[] {1}, new int[] {0}),
                new Dot("m = 0", Shape.of(2, 0, 5), new int[] {2}, new int[] {0}, Shape.of(2, 5, 4), new int[] {1}, new int[] {0}));
    }

    @Test
    void dotsOnSimdgroupMatricesMatchTheCpuEngine() throws Exception {
        Random rnd = new Random(1807);
        try (SpiRun r = new SpiRun()) {
            for (DType t : List.of(DType.F32, DType.F16, DType.BF16)) {
                double tol = t == DType.F32 ? 1e-5 : t == DType.F16 ? 2e-3 : 1.6e-2;
                for (Dot d : dots()) {
                    r.compareClose(d.label() + " " + t, List.of(r.uniform(t, d.a(), rnd), r.uniform(t, d.b(), rnd)), t, tol,
                            (b, xs) -> b.dot(xs.get(0), d.contractA(), d.batchA(), xs.get(1), d.contractB(), d.batchB(), t));
                }
            }
            System.out.println("metal dots " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            if (r.metal.features().simdgroupMatrix()) assertEquals(Map.of(), r.metal.fallbackCounts()); // on a Mac, its GPU decides
        }
    }

    @Test
    void integerDotsMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1811);
        try (SpiRun r = new SpiRun()) {
            for (DType t : List.of(DType.S32, DType.U8, DType.S8, DType.S16, DType.U16, DType.U32, DType.S64, DType.U64)) {
                for (Dot d : dots()) {
                    // edge values: the sums wrap, and must keep the low bits the cpu engine's 64-bit sums keep
                    r.compare(d.label() + " " + t, List.of(r.edges(t, d.a(), rnd), r.edges(t, d.b(), rnd)),
                            (b, xs) -> b.dot(xs.get(0), d.contractA(), d.batchA(), xs.get(1), d.contractB(), d.batchB(), t));
                }
                Shape a = Shape.of(5, 7), b = Shape.of(7, 3); // a plain product: no MPS for integers
                r.compare("plain " + t, List.of(r.edges(t, a, rnd), r.edges(t, b, rnd)),
                        (be, xs) -> be.dot(xs.get(0), new int[] {1}, new int[0], xs.get(1), new int[] {0}, new int[0], t));
            }
            System.out.println("metal integer dots " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(Map.of(), r.metal.fallbackCounts());
        }
    }

    @Test
    void withoutSimdgroupMatricesTheyFallBack() throws Exception {
        try (SpiRun r = new SpiRun(java.util.Set.of(MetalFeatures.METAL3))) {
            Dot d = dots().getFirst();
            Random rnd = new Random(1);
            r.compareClose(d.label(), List.of(r.uniform(DType.F32, d.a(), rnd), r.uniform(DType.F32, d.b(), rnd)), DType.F32, 0,
                    (b, xs) -> b.dot(xs.get(0), d.contractA(), d.batchA(), xs.get(1), d.contractB(), d.batchB(), DType.F32));
            assertEquals(0, r.mismatches);
            assertEquals(Map.of("dot:f32", 1L), r.metal.fallbackCounts());
        }
    }
}
