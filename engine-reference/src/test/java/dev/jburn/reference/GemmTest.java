package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.HostElements;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link Gemm} against a naive triple loop in double: edge sizes around the panel and block
 * sizes, transposed and strided views of A, B and C, accumulate, every float dtype, one
 * thread and many. Problems of at most {@link Gemm#SMALL} fmas take the unpacked path; the
 * others the packed one (or matrix·vector when m or n is 1).
 */
class GemmTest {
    private static final int MR = GemmKernels.F32_MR, NR = GemmKernels.F32_NR;
    private static final int MR64 = GemmKernels.F64_MR, NR64 = GemmKernels.F64_NR;
    private static final Parallel ONE = new Parallel(1, Long.MAX_VALUE);
    /** Four threads from 16 elements of work on: every parallel split runs even for tiny problems. */
    private static final Parallel MANY = new Parallel(4, 16);

    /** How a matrix sits in its segment: transposed or not, with a leading-dimension pad and an element step. */
    private record Layout(boolean transposed, int pad, int step) {
        static final Layout PLAIN = new Layout(false, 0, 1);
    }

    /** One matrix: its view, the memory behind it, and its values as stored (exact doubles). */
    private record Matrix(Gemm.View view, double[][] values) {}

    private static Matrix matrix(Arena arena, Random rnd, DType t, int rows, int cols, Layout l) {
        // stored as a row-major (or column-major when transposed) array with padded leading dimension
        int outer = l.transposed() ? cols : rows, inner = l.transposed() ? rows : cols;
        long ld = (long) inner * l.step() + l.pad();
        long offset = 3;
        long elements = offset + (long) outer * ld + 1;
        MemorySegment seg = arena.allocate(elements * t.byteSize(), 8);
        for (long e = 0; e < elements; e++) HostElements.setDouble(seg, t, e, Double.NaN); // gaps must never be read
        double[][] v = new double[rows][cols];
        long rs = l.transposed() ? l.step() : ld, cs = l.transposed() ? ld : l.step();
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                long at = offset + i * rs + j * cs;
                HostElements.setDouble(seg, t, at, rnd.nextGaussian());
                v[i][j] = HostElements.getDouble(seg, t, at);
            }
        }
        return new Matrix(new Gemm.View(seg, offset, rs, cs), v);
    }

    private static void run(DType t, int m, int n, int k, Gemm.View a, Gemm.View b, Gemm.View c, boolean acc, Parallel p) {
        switch (t) {
            case F32 -> Gemm.sgemm(m, n, k, a, b, c, acc, p);
            case F64 -> Gemm.dgemm(m, n, k, a, b, c, acc, p);
            default -> Gemm.hgemm(t, m, n, k, a, b, c, acc, p);
        }
    }

    /** Runs one case and checks every element against the double triple loop within the summation bound. */
    private static void check(DType t, int m, int n, int k, Layout la, Layout lb, Layout lc, boolean accumulate, Parallel p, long seed) {
        Random rnd = new Random(seed);
        try (Arena arena = Arena.ofShared()) {
            Matrix a = matrix(arena, rnd, t, m, k, la), b = matrix(arena, rnd, t, k, n, lb), c = matrix(arena, rnd, t, m, n, lc);
            run(t, m, n, k, a.view(), b.view(), c.view(), accumulate, p);
            double eps = t == DType.F64 ? 0x1p-52 : 0x1p-23;
            String what = t + " " + m + "x" + n + "x" + k + " " + la + lb + lc + " acc=" + accumulate + " threads=" + p.threads();
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double exact = accumulate ? c.values()[i][j] : 0, mag = Math.abs(exact);
                    for (int q = 0; q < k; q++) {
                        exact += a.values()[i][q] * b.values()[q][j];
                        mag += Math.abs(a.values()[i][q] * b.values()[q][j]);
                    }
                    double got = HostElements.getDouble(c.view().segment(), t, c.view().offset() + i * c.view().rowStride() + j * c.view().colStride());
                    double bound = 2 * (k + 2) * eps * mag + roundingOf(t, exact);
                    if (!(Math.abs(got - exact) <= bound)) fail(what + ": C[" + i + "," + j + "] = " + got + ", exact " + exact + ", bound " + bound);
                }
            }
            // the padding between rows and after the matrix was never written
            MemorySegment cs = c.view().segment();
            assertTrue(Double.isNaN(HostElements.getDouble(cs, t, 0)), what + ": wrote before C");
            assertTrue(Double.isNaN(HostElements.getDouble(cs, t, cs.byteSize() / t.byteSize() - 1)), what + ": wrote after C");
        }
    }

    /** The final rounding to a narrow output type: one ulp of it (0 for F32/F64, which the sum bound covers). */
    private static double roundingOf(DType t, double v) {
        return switch (t) {
            case F16 -> Math.max(Math.ulp((float) v) * 8192, 0x1p-24);
            case BF16 -> Math.max(Math.ulp((float) v) * 65536, 0x1p-133);
            default -> 0;
        };
    }

    @Test
    void edgeSizesAroundPanelsF32() {
        int[] ms = {1, 2, MR - 1, MR, MR + 1, 2 * MR + 5};
        int[] ns = {1, 2, NR - 1, NR, NR + 1, 2 * NR + 3};
        int[] ks = {0, 1, 2, 17};
        long seed = 1;
        for (int m : ms) for (int n : ns) for (int k : ks) {
            check(DType.F32, m, n, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, ONE, seed++);
            check(DType.F32, m, n, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, true, MANY, seed++);
        }
    }

    @Test
    void shallowProblemsJustAboveTheUnpackedPath() {
        // k = 1 and 2 with partial last panels in both directions, all above Gemm.SMALL fmas
        int[][] sizes = {{2 * MR + 1, 2 * NR + 1}, {MR - 1, 3 * NR + 5}, {5 * MR + 2, NR - 1}};
        long seed = 50;
        for (int[] mn : sizes) {
            for (int k : new int[] {1, 2}) {
                // MR and NR follow the vector width (6x16 on 256-bit, 12x32 on 512-bit); grow m by whole
                // panels, which keeps the partial last panel, until the problem is above the unpacked path.
                int m = mn[0];
                while ((long) m * mn[1] * k <= Gemm.SMALL) m += MR;
                assertTrue((long) m * mn[1] * k > Gemm.SMALL);
                check(DType.F32, m, mn[1], k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, k == 2, MANY, seed++);
                check(DType.F64, m, mn[1], k, new Layout(true, 0, 1), Layout.PLAIN, Layout.PLAIN, k == 1, ONE, seed++);
            }
        }
    }

    @Test
    void edgeSizesAroundPanelsF64() {
        int[] ms = {1, MR64 - 1, MR64 + 1, 2 * MR64 + 5};
        int[] ns = {1, NR64 - 1, NR64 + 1, 2 * NR64 + 3};
        int[] ks = {0, 1, 9};
        long seed = 100;
        for (int m : ms) for (int n : ns) for (int k : ks) {
            check(DType.F64, m, n, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, k % 2 == 1, seed % 2 == 0 ? ONE : MANY, seed++);
        }
    }

    @Test
    void narrowOutputsRunAsTheirTranspose() {
        // a classifier layer's [128,256]·[256,10] and its relatives: C is computed as Bᵀ·Aᵀ, stored element by element
        // the choice depends on the tile: AVX-512's 12x32 tiles pad [128,10] to 132x32 and its transpose fills better;
        // AVX2's 6x16 tiles pad it to 132x16, which the straight path already fills (the checks below run either path)
        assertTrue(GemmF32.transposeFills(128, 10, 12, 32));
        assertFalse(GemmF32.transposeFills(128, 10, 6, 16));
        assertFalse(GemmF32.transposeFills(256, 256, MR, NR));
        assertFalse(GemmF32.transposeFills(6272, 16, MR, NR), "an im2col GEMM with 16 channels keeps vector stores");
        long seed = 700;
        for (int[] mnk : new int[][] {{128, 10, 256}, {5 * MR + 1, 3, 40}, {200, NR / 2 - 1, 7}}) {
            for (Layout lc : List.of(Layout.PLAIN, new Layout(false, 3, 1))) {
                check(DType.F32, mnk[0], mnk[1], mnk[2], Layout.PLAIN, Layout.PLAIN, lc, false, MANY, seed++);
                check(DType.F32, mnk[0], mnk[1], mnk[2], new Layout(true, 0, 1), new Layout(true, 1, 1), lc, true, ONE, seed++);
                check(DType.BF16, mnk[0], mnk[1], mnk[2], Layout.PLAIN, Layout.PLAIN, lc, true, MANY, seed++);
            }
        }
    }

    @Test
    void concurrentCallersShareTheHelpers() throws Exception {
        // several threads run parallel GEMMs on one engine's helpers at once: one gets them, the others run alone
        Parallel two = new Parallel(2, 16);
        try {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < 4; w++) {
                long seed = 800 + 10L * w;
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < 5; i++) check(DType.F32, 3 * MR + 2, 2 * NR + 3, 50, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, i % 2 == 0, two, seed + i);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) t.join();
            assertTrue(failures.isEmpty(), () -> failures.get(0).toString());
        } finally {
            two.shutdown();
        }
        // after shutdown a GEMM still runs (on the caller alone)
        check(DType.F32, 2 * MR, NR, 9, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, two, 850);
    }

    @Test
    void aHelpersFailureReachesTheCaller() {
        Parallel two = new Parallel(2, 1);
        try {
            Thread caller = Thread.currentThread();
            int surfaced = 0;
            for (int i = 0; i < 20; i++) {
                java.util.concurrent.atomic.AtomicBoolean helperIn = new java.util.concurrent.atomic.AtomicBoolean();
                Runnable participant = () -> {
                    if (Thread.currentThread() != caller) {
                        helperIn.set(true);
                        throw new IllegalStateException("helper failed");
                    }
                    // the caller's part succeeds once the helper has come (or after a second on a starved machine)
                    long until = System.nanoTime() + 1_000_000_000L;
                    while (!helperIn.get() && System.nanoTime() < until) Thread.onSpinWait();
                };
                try {
                    two.runParticipants(Long.MAX_VALUE, participant);
                    assertFalse(helperIn.get(), "a helper failed and the caller did not hear of it");
                } catch (IllegalStateException e) {
                    assertEquals("helper failed", e.getMessage());
                    surfaced++;
                }
            }
            assertTrue(surfaced > 0, "no helper ever joined");
        } finally {
            two.shutdown();
        }
    }

    @Test
    void deepContractionCrossesKcBlocks() {
        for (int k : new int[] {Gemm.F32_KC - 1, Gemm.F32_KC, Gemm.F32_KC + 1, 2 * Gemm.F32_KC + 7}) {
            check(DType.F32, MR + 3, NR + 5, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, MANY, k);
            check(DType.F32, MR + 3, NR + 5, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, true, ONE, k + 1);
            check(DType.BF16, 5, NR + 1, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, true, MANY, k + 2);
        }
        for (int k : new int[] {Gemm.F64_KC + 1, 2 * Gemm.F64_KC + 3}) {
            check(DType.F64, MR64 + 1, NR64 + 3, k, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, true, MANY, k);
        }
    }

    @Test
    void wideAndTallProblemsCrossNcAndMcBlocks() {
        check(DType.F32, 3, Gemm.F32_NC + NR + 1, 5, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, MANY, 21);
        check(DType.F32, 2 * MR + 1, 2 * Gemm.F32_NC + 3, 9, Layout.PLAIN, new Layout(true, 1, 1), Layout.PLAIN, true, MANY, 22);
        check(DType.F32, Gemm.F32_MC + MR + 1, 2 * NR + 1, 7, new Layout(true, 0, 1), Layout.PLAIN, Layout.PLAIN, false, MANY, 23);
        check(DType.F64, Gemm.F64_MC + 5, NR64 + 1, 3, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, true, MANY, 24);
        check(DType.F64, 4, Gemm.F64_NC + 9, 6, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, ONE, 25);
        // several threads over several column blocks, each packing its own B block (rows and columns of B contiguous)
        check(DType.F64, 3 * MR64 + 1, 2 * Gemm.F64_NC + 3, 9, Layout.PLAIN, new Layout(true, 1, 1), Layout.PLAIN, true, MANY, 26);
        check(DType.F64, 5 * MR64 + 2, Gemm.F64_NC + NR64 + 1, 2 * Gemm.F64_KC + 1, Layout.PLAIN, Layout.PLAIN, Layout.PLAIN, false, MANY, 27);
    }

    @Test
    void transposedPaddedAndSteppedViews() {
        List<Layout> layouts = List.of(Layout.PLAIN, new Layout(true, 0, 1), new Layout(false, 3, 1),
                new Layout(true, 2, 1), new Layout(false, 1, 2), new Layout(true, 0, 3));
        long seed = 300;
        for (DType t : List.of(DType.F32, DType.F64, DType.F16, DType.BF16)) {
            for (Layout la : layouts) for (Layout lb : layouts) {
                Layout lc = layouts.get((int) (seed % layouts.size()));
                check(t, 2 * MR + 1, NR + 7, 23, la, lb, lc, seed % 2 == 0, seed % 3 == 0 ? ONE : MANY, seed++);
            }
        }
    }

    @Test
    void matrixVectorShapesEveryLayout() {
        List<Layout> layouts = List.of(Layout.PLAIN, new Layout(true, 0, 1), new Layout(false, 2, 3));
        long seed = 500;
        for (DType t : List.of(DType.F32, DType.F64, DType.F16, DType.BF16)) {
            for (Layout la : layouts) for (Layout lb : layouts) {
                // n == 1 (matrix·vector), m == 1 (vector·matrix), both (dot product); k crosses the gemv chunk
                check(t, 150, 1, Gemm.GEMV_CHUNK + 3, la, lb, Layout.PLAIN, seed % 2 == 0, MANY, seed++);
                check(t, 1, 131, 70, la, lb, new Layout(true, 0, 1), seed % 2 == 0, MANY, seed++);
                check(t, 1, 1, 1000, la, lb, Layout.PLAIN, true, ONE, seed++);
            }
        }
    }

    @Test
    void randomShapesEveryFloatType() {
        Random rnd = new Random(7);
        List<Layout> layouts = new ArrayList<>(List.of(Layout.PLAIN, new Layout(true, 0, 1), new Layout(false, 5, 1), new Layout(true, 1, 2)));
        for (int trial = 0; trial < 80; trial++) {
            DType t = List.of(DType.F32, DType.F64, DType.F16, DType.BF16).get(trial % 4);
            int m = 1 + rnd.nextInt(70), n = 1 + rnd.nextInt(90), k = rnd.nextInt(60);
            check(t, m, n, k, layouts.get(rnd.nextInt(4)), layouts.get(rnd.nextInt(4)), layouts.get(rnd.nextInt(4)),
                    rnd.nextBoolean(), rnd.nextBoolean() ? ONE : MANY, trial);
        }
    }

    @Test
    void nanAndInfinityPropagate() {
        try (Arena arena = Arena.ofShared()) {
            int m = MR + 1, n = NR + 1, k = 3;
            MemorySegment a = arena.allocate((long) m * k * 4), b = arena.allocate((long) k * n * 4), c = arena.allocate((long) m * n * 4);
            for (int i = 0; i < m * k; i++) a.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, 1f);
            for (int i = 0; i < k * n; i++) b.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, 1f);
            a.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) m * k - 1, Float.NaN);      // last row of A
            b.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, n - 1, Float.POSITIVE_INFINITY);  // last column of B
            Gemm.sgemm(m, n, k, Gemm.View.rowMajor(a, 0, k), Gemm.View.rowMajor(b, 0, n), Gemm.View.rowMajor(c, 0, n), false, MANY);
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    float v = c.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, (long) i * n + j);
                    if (i == m - 1) assertTrue(Float.isNaN(v), "row " + i);
                    else if (j == n - 1) assertEquals(Float.POSITIVE_INFINITY, v, "col " + j);
                    else assertEquals(3f, v);
                }
            }
        }
    }

    @Test
    void aFailingParticipantStopsTheOthersAndRethrows() {
        // B's view runs past its segment halfway down: the packing item that reads it throws,
        // the other participants must stop waiting for it, and the caller sees the cause.
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            try (Arena arena = Arena.ofShared()) {
                int m = 8 * MR, n = 4 * NR, k = 2 * Gemm.F32_KC + 5;
                MemorySegment a = arena.allocate((long) m * k * 4), b = arena.allocate((long) k * n * 4 / 2), c = arena.allocate((long) m * n * 4);
                for (Parallel p : List.of(ONE, MANY)) {
                    assertThrows(IndexOutOfBoundsException.class, () -> Gemm.sgemm(m, n, k, Gemm.View.rowMajor(a, 0, k),
                            Gemm.View.rowMajor(b, 0, n), Gemm.View.rowMajor(c, 0, n), false, p));
                }
            }
        });
    }

    @Test
    void fullTilesStoredByTheKernelMatchTheTilePath() {
        // Full tiles of row-major C are stored, or added to C, by the kernel (GemmKernels.float12Into, float6Into, float6AddInto); a panel of
        // fewer than MR rows goes through the heap tile and GemmF32.store. The reference runs the same product in
        // blocks of MR - 1 rows, so every tile of it takes the tile path: same bits expected, infinities and zeros
        // included, in C and in the operands, for C = A·B and C += A·B over one and several kc blocks. NaN is
        // compared as NaN: which NaN operand an fma passes on (the sign of inf·0's NaN against Float.NaN) follows
        // the register order C2 picks for each compiled kernel.
        Random rnd = new Random(11);
        float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, Float.MIN_VALUE};
        for (int[] mnk : new int[][] {{3 * MR, 2 * NR, 40}, {2 * MR + 5, 3 * NR + 7, Gemm.F32_KC + 9}, {MR, NR, 3}, {4 * MR, NR, 2 * Gemm.F32_KC + 1}}) {
            int m = mnk[0], n = mnk[1], k = mnk[2];
            try (Arena arena = Arena.ofShared()) {
                MemorySegment a = arena.allocate((long) m * k * 4), b = arena.allocate((long) k * n * 4), c0 = arena.allocate((long) m * n * 4);
                MemorySegment direct = arena.allocate((long) m * n * 4), viaTile = arena.allocate((long) m * n * 4);
                for (MemorySegment s : List.of(a, b, c0)) {
                    for (long i = 0; i < s.byteSize() / 4; i++) s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, rnd.nextInt(50) == 0 ? special[rnd.nextInt(6)] : (float) rnd.nextGaussian());
                }
                for (boolean accumulate : new boolean[] {false, true}) {
                    for (Parallel p : List.of(ONE, MANY)) {
                        direct.copyFrom(c0);
                        viaTile.copyFrom(c0);
                        Gemm.sgemm(m, n, k, Gemm.View.rowMajor(a, 0, k), Gemm.View.rowMajor(b, 0, n), Gemm.View.rowMajor(direct, 0, n), accumulate, p);
                        for (int i0 = 0; i0 < m; i0 += MR - 1) {
                            Gemm.sgemm(Math.min(MR - 1, m - i0), n, k, Gemm.View.rowMajor(a, (long) i0 * k, k), Gemm.View.rowMajor(b, 0, n),
                                    Gemm.View.rowMajor(viaTile, (long) i0 * n, n), accumulate, p);
                        }
                        for (long i = 0; i < (long) m * n; i++) {
                            int d = Float.floatToIntBits(direct.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i));
                            int t = Float.floatToIntBits(viaTile.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i));
                            if (d != t) fail(m + "x" + n + "x" + k + (accumulate ? " += " : " = ") + "threads=" + p.threads() + ": C[" + i / n + "," + i % n + "] "
                                    + Float.intBitsToFloat(d) + " vs " + Float.intBitsToFloat(t));
                        }
                    }
                }
            }
        }
    }

    @Test
    void aPhaseIsUnclaimedUntilItsLastItemIsTaken() {
        // a participant packs its own B block only while the block's compute phase has items left (GemmF32.participate)
        GemmPhases phases = new GemmPhases(2);
        assertTrue(phases.unclaimed(0, 3));
        List<Integer> ran = new ArrayList<>();
        phases.run(0, 3, ran::add);
        assertEquals(List.of(0, 1, 2), ran);
        assertFalse(phases.unclaimed(0, 3), "every item claimed (and the failed claim past the end counted too)");
        assertTrue(phases.unclaimed(1, 1));
        assertFalse(phases.unclaimed(1, 0), "an empty phase has nothing to claim");
    }

    @Test
    void blockingSplitsEvenly() {
        Gemm.Blocking b = Gemm.blocking(1000, 2000, 390, MR, NR, 384, 4096, 768);
        assertEquals(195, b.kc());                   // 390 = 2 × 195, not 384 + 6
        assertEquals(0, b.mc() % MR);
        assertTrue(b.mc() >= 1000);
        assertEquals(0, b.nc() % NR);
        assertTrue(b.nc() * 3 >= 2000 && b.nc() <= 768);
        assertEquals(1, Gemm.nSplits(100, 10, 2));
        assertEquals(4, Gemm.nSplits(1, 10, 2));
        assertEquals(3, Gemm.nSplits(1, 3, 2));
    }
}
