package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sort and argsort on the metal backend ({@link MslSort} run on the CPU by clang, {@link SpiRun}) against
 * the cpu engine, bit for bit: every dtype (f64 included: keys come from the bits), both directions,
 * every axis, lines longer than a few merge passes, many ties, NaN payloads and both zeros, index types
 * of every width, empty tensors; none fall back.
 */
class MetalSortHostRunTest {
    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    @Test
    void sortsMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1809);
        List<DType> indexTypes = List.of(DType.S32, DType.S64, DType.U8, DType.U16);
        try (SpiRun r = new SpiRun(); Arena arena = Arena.ofConfined()) {
            DType[] types = DType.values();
            for (int c = 0; c < 104; c++) {
                DType t = types[c % types.length];
                int rank = 1 + rnd.nextInt(3);
                Shape s = c % 9 == 0 ? Shape.of(2, 300 + rnd.nextInt(100)) : SpiRun.shape(rnd, rank, rnd.nextInt(10) == 0 ? 0 : 1, 7);
                int axis = rnd.nextInt(s.rank());
                boolean descending = rnd.nextBoolean();
                SpiRun.Input x = c % 2 == 0 ? r.edges(t, s, rnd) : new SpiRun.Input(t, s, MslValues.tied(arena, t, s.size(), rnd));
                String label = t + "" + s + " axis " + axis + (descending ? " descending" : "");
                if (c % 3 == 0) {
                    r.compare("sort " + label, List.of(x), (b, xs) -> b.sort(xs.get(0), axis, descending));
                } else {
                    DType it = indexTypes.get(rnd.nextInt(indexTypes.size()));
                    r.compare("argsort " + label + " -> " + it, List.of(x), (b, xs) -> b.argsort(xs.get(0), axis, descending, it));
                }
            }
            System.out.println("metal sorts " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(Map.of(), r.metal.fallbackCounts());
        }
    }
}
