package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slice, pad, reverse, concatenate, put-slice, transpose and broadcast (f64: the strided copy; other
 * dtypes: the emitter's strided loads) and iota on the metal backend ({@link MslMovement}'s
 * kernels run on the CPU by clang, {@link SpiRun}) against the cpu engine, bit for bit, over every
 * element width and generated shapes with rank 0, empty axes, crops and interior padding; and that
 * none of them fell back.
 */
class MetalMovementHostRunTest {
    private static final List<DType> TYPES = List.of(DType.F32, DType.U8, DType.PRED, DType.S16, DType.F16, DType.BF16, DType.S64, DType.F64);

    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    private static Shape anyShape(Random rnd) {
        int rank = rnd.nextInt(4);
        return SpiRun.shape(rnd, rank, rnd.nextInt(6) == 0 ? 0 : 1, 5);
    }

    @Test
    void movementMatchesTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1803);
        try (SpiRun r = new SpiRun()) {
            for (int c = 0; c < 224; c++) {
                DType t = TYPES.get(c % TYPES.size());
                Shape s = anyShape(rnd);
                int rank = s.rank();
                SpiRun.Input x = r.edges(t, s, rnd);
                switch (c % 7) {
                    case 0 -> {
                        int[] st = new int[rank], len = new int[rank], step = new int[rank];
                        for (int k = 0; k < rank; k++) {
                            st[k] = rnd.nextInt(s.dim(k) + 1);
                            len[k] = rnd.nextInt(s.dim(k) - st[k] + 1);
                            step[k] = 1 + rnd.nextInt(3);
                        }
                        r.compare("slice " + t + s, List.of(x), (b, xs) -> b.slice(xs.get(0), st, len, step));
                    }
                    case 1 -> {
                        int[] lo = new int[rank], hi = new int[rank], in = new int[rank];
                        for (int k = 0; k < rank; k++) {
                            lo[k] = rnd.nextInt(5) - 2;
                            hi[k] = rnd.nextInt(5) - 2;
                            in[k] = rnd.nextInt(3);
                        }
                        SpiRun.Input v = r.edges(t, Shape.of(), rnd);
                        r.compare("pad " + t + s, List.of(x, v), (b, xs) -> b.pad(xs.get(0), xs.get(1), lo, hi, in));
                    }
                    case 2 -> {
                        List<Integer> axes = new ArrayList<>();
                        for (int k = 0; k < rank; k++) if (rnd.nextBoolean()) axes.add(k);
                        int[] ax = axes.stream().mapToInt(Integer::intValue).toArray();
                        r.compare("reverse " + t + s, List.of(x), (b, xs) -> b.reverse(xs.get(0), ax));
                    }
                    case 3 -> {
                        if (rank == 0) continue;
                        int axis = rnd.nextInt(rank);
                        List<SpiRun.Input> parts = new ArrayList<>(List.of(x));
                        for (int p = rnd.nextInt(3); p > 0; p--) {
                            int[] d = s.dims();
                            d[axis] = rnd.nextInt(4);
                            parts.add(r.edges(t, Shape.of(d), rnd));
                        }
                        r.compare("concatenate " + parts.size() + " along " + axis + " " + t + s, parts, (b, xs) -> b.concatenate(xs, axis));
                    }
                    case 5 -> {
                        List<Integer> p = new ArrayList<>();
                        for (int k = 0; k < rank; k++) p.add(k);
                        java.util.Collections.shuffle(p, rnd);
                        int[] perm = p.stream().mapToInt(Integer::intValue).toArray();
                        r.compare("transpose " + t + s + " " + java.util.Arrays.toString(perm), List.of(x), (b, xs) -> b.transpose(xs.get(0), perm));
                    }
                    case 6 -> {
                        // a new leading axis, and axes of size 1 expanded
                        int[] out = new int[rank + 1], axes = new int[rank];
                        out[0] = 1 + rnd.nextInt(3);
                        for (int k = 0; k < rank; k++) {
                            axes[k] = k + 1;
                            out[k + 1] = s.dim(k) == 1 ? 1 + rnd.nextInt(3) : s.dim(k);
                        }
                        r.compare("broadcast " + t + s + " to " + Shape.of(out), List.of(x), (b, xs) -> b.broadcast(xs.get(0), Shape.of(out), axes));
                    }
                    default -> {
                        int[] u = new int[rank], at = new int[rank];
                        for (int k = 0; k < rank; k++) {
                            u[k] = rnd.nextInt(s.dim(k) + 1);
                            at[k] = rnd.nextInt(s.dim(k) - u[k] + 1);
                        }
                        SpiRun.Input up = r.edges(t, Shape.of(u), rnd);
                        r.compare("putSlice " + t + s, List.of(x, up), (b, xs) -> b.putSlice(xs.get(0), at, xs.get(1)));
                    }
                }
            }
            for (DType t : DType.values()) {
                for (int c = 0; c < 3; c++) {
                    Shape s = anyShape(rnd);
                    int axis = s.rank() == 0 ? -1 : rnd.nextInt(s.rank() + 1) - 1;
                    r.compare("iota " + t + s + " axis " + axis, List.of(), (b, xs) -> b.iota(s, t, axis));
                }
            }
            System.out.println("metal movement " + r.where() + ": " + r.runs + " calls, fallbacks "
                    + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            // iota of pred and f64 (a cast MSL cannot write) are the cpu engine's
            for (String k : r.metal.fallbackCounts().keySet()) assertTrue(k.equals("iota:pred") || k.equals("iota:f64"), k);
        }
    }
}
