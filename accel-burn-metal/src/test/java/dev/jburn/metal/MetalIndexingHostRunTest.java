package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Gather, indexed add/put and argmax/argmin on the metal backend ({@link MslIndexing}'s kernels run on
 * the CPU by clang, {@link SpiRun}) against the cpu engine, bit for bit: every dtype, index types of
 * every width, duplicate indices (sums in row order, the last put wins), an index out of range (the cpu
 * engine's error on both), rows of ties, NaN and ±0, both tie breaks, rank 0 and empty tensors.
 */
class MetalIndexingHostRunTest {
    private static final List<DType> INDEX = List.of(DType.S32, DType.S64, DType.U32, DType.U8, DType.U64, DType.S16);

    @BeforeAll
    static void needsClangOrAMac() { SpiRun.assumeRunnable(); }

    /** {@code rows × k} indices into {@code x} on {@code axes}, one of them out of range when {@code bad}. */
    private static long[] indices(Random rnd, Shape x, int[] axes, long rows, boolean bad) {
        long[] v = new long[(int) rows * axes.length];
        for (int e = 0; e < v.length; e++) v[e] = rnd.nextInt(x.dim(axes[e % axes.length]));
        if (bad && v.length > 0) v[rnd.nextInt(v.length)] = x.dim(axes[0]) + 3L;
        return v;
    }

    private static int[] someAxes(Random rnd, int rank) {
        List<Integer> a = new ArrayList<>();
        for (int k = 0; k < rank; k++) if (rnd.nextInt(3) == 0) a.add(k);
        if (a.isEmpty()) a.add(rnd.nextInt(rank));
        java.util.Collections.shuffle(a, rnd);
        return a.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void gatherAndIndexedUpdatesMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1804);
        long expected = 0; // calls the cpu engine is to run: out-of-range indices (its error), adds of f16, bf16, pred, f64
        try (SpiRun r = new SpiRun()) {
            DType[] types = DType.values();
            for (int c = 0; c < 120; c++) {
                DType t = types[c % types.length];
                DType it = INDEX.get(rnd.nextInt(INDEX.size()));
                Shape s = SpiRun.shape(rnd, 1 + rnd.nextInt(3), 1, 5);
                int[] axes = someAxes(rnd, s.rank());
                long rows = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(7);
                boolean bad = c % 17 == 5 && rows > 0;
                SpiRun.Input x = r.edges(t, s, rnd);
                if (c % 2 == 0) {
                    int[] lead = rnd.nextBoolean() ? new int[] {(int) rows} : new int[] {1, (int) rows};
                    int[] idims = java.util.Arrays.copyOf(lead, lead.length + 1);
                    idims[lead.length] = axes.length;
                    SpiRun.Input idx = r.of(it, Shape.of(idims), indices(rnd, s, axes, rows, bad));
                    if (bad) expected++;
                    r.compare("gather " + t + s + " axes " + java.util.Arrays.toString(axes) + " by " + it + Shape.of(idims), List.of(x, idx),
                            (b, xs) -> b.gather(xs.get(0), xs.get(1), axes));
                } else {
                    boolean add = rnd.nextBoolean();
                    if (bad || add && MslIndexing.accumulator(t) == null) expected++;
                    SpiRun.Input idx = r.of(it, Shape.of((int) rows, axes.length), indices(rnd, s, axes, rows, bad));
                    boolean[] indexed = new boolean[s.rank()];
                    for (int a : axes) indexed[a] = true;
                    List<Integer> ud = new ArrayList<>(List.of((int) rows));
                    for (int d = 0; d < s.rank(); d++) if (!indexed[d]) ud.add(s.dim(d));
                    SpiRun.Input up = r.edges(t, Shape.of(ud.stream().mapToInt(Integer::intValue).toArray()), rnd);
                    r.compare((add ? "indexedAdd " : "indexedPut ") + t + s + " axes " + java.util.Arrays.toString(axes) + " rows " + rows + " by " + it,
                            List.of(x, idx, up), (b, xs) -> b.indexedUpdate(xs.get(0), xs.get(1), xs.get(2), axes, add));
                }
            }
            System.out.println("metal indexing " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }

    @Test
    void argReductionsMatchTheCpuEngineBitForBit() throws Exception {
        Random rnd = new Random(1805);
        long expected = 0; // f64 (no MSL type) and empty axes: the cpu engine's
        try (SpiRun r = new SpiRun()) {
            DType[] types = DType.values();
            for (int c = 0; c < 90; c++) {
                DType t = types[c % types.length];
                int rank = rnd.nextInt(4);
                // long rows (past one group of 256) now and then, so the tree combines real candidates
                Shape s = rank > 0 && rnd.nextInt(5) == 0 ? SpiRun.shape(rnd, rank, 1, 3).withDim(rank - 1, 300 + rnd.nextInt(400))
                        : SpiRun.shape(rnd, rank, rnd.nextInt(8) == 0 ? 0 : 1, 5);
                int axis = rank == 0 ? -1 : rnd.nextInt(rank + 1) - 1;
                ReduceOp op = rnd.nextBoolean() ? ReduceOp.ARGMAX : ReduceOp.ARGMIN;
                boolean high = rnd.nextBoolean();
                DType out = rnd.nextInt(4) == 0 ? DType.S64 : DType.S32;
                if (t == DType.F64 || (axis < 0 ? s.size() : s.dim(axis)) == 0) expected++;
                SpiRun.Input x = new SpiRun.Input(t, s, MslValues.tied(java.lang.foreign.Arena.ofAuto(), t, s.size(), rnd));
                r.compare(op.opName() + " " + t + s + " axis " + axis + (high ? " high" : " low") + " -> " + out, List.of(x),
                        (b, xs) -> b.argReduce(op, xs.get(0), axis, high, out));
            }
            System.out.println("metal arg-reductions " + r.where() + ": " + r.runs + " calls, fallbacks " + r.metal.fallbackCounts());
            assertEquals(0, r.mismatches, "mismatches printed above");
            assertEquals(expected, r.fallbacks(), "fallbacks");
        }
    }
}
