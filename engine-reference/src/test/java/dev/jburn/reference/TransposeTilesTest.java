package dev.jburn.reference;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link StridedCopy}'s tiles of 4-byte elements between native segments ({@link Transpose32}'s vector tiles) against the
 * oracle plan (element by element, no merging), bit for bit: generated 2-D transposes and batched {@code [b, a, plane] →
 * [b, plane, a]} / {@code [a, b, plane] → [b, plane, a]} copies with extents of 1, odd sizes and sizes that are not
 * multiples of the tile, reversed axes, offsets into the segments, and NaN payloads among the bits; serial and split
 * across two threads.
 */
class TransposeTilesTest {
    private static final int[] SIZES = {1, 3, 8, 15, 16, 17, 31, 32, 33, 64, 70, 129};

    /** Random bits, among them NaNs with assorted payloads (a float copy that canonicalised them would show). */
    private static MemorySegment bits(Arena arena, Random rnd, long n) {
        MemorySegment s = arena.allocate(n * 4 + 64, 64);
        for (long i = 0; i < s.byteSize() / 4; i++) {
            int v = rnd.nextInt();
            if (rnd.nextInt(4) == 0) v = 0x7f800001 | (v & 0x803fffff) | 0x00400000 * rnd.nextInt(2); // a NaN, quiet or signalling
            s.setAtIndex(ValueLayout.JAVA_INT, i, v);
        }
        return s;
    }

    /** Copies the box both ways (fast plan, with {@code parallel}; oracle) and compares every destination int. */
    private static void check(int[] dims, long[] from, long[] to, long srcBase, long dstBase, Random rnd, Parallel parallel) {
        long n = 1;
        for (int d : dims) n *= d;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment src = bits(arena, rnd, n + srcBase + 2 * n);
            MemorySegment fast = arena.allocate((n + dstBase + 2 * n) * 4, 64), oracle = arena.allocate(fast.byteSize(), 64);
            StridedCopy.plan(dims, from, to, 4, true).run(src, srcBase, fast, dstBase, parallel);
            StridedCopy.plan(dims, from, to, 4, false).run(src, srcBase, oracle, dstBase);
            for (long i = 0; i < fast.byteSize() / 4; i++) {
                int want = oracle.getAtIndex(ValueLayout.JAVA_INT, i), got = fast.getAtIndex(ValueLayout.JAVA_INT, i);
                if (want != got) fail(java.util.Arrays.toString(dims) + " from " + java.util.Arrays.toString(from) + " to "
                        + java.util.Arrays.toString(to) + ": int " + i + " is " + Integer.toHexString(got) + ", want " + Integer.toHexString(want));
            }
        }
    }

    @Test
    void transposesMatchTheOracleBitForBit() {
        Random rnd = new Random(16);
        Parallel one = new Parallel(1, 1), two = new Parallel(2, 1);
        try {
            for (int a : SIZES) {
                for (int p : SIZES) {
                    Parallel par = rnd.nextBoolean() ? one : two;
                    // [a, p] -> [p, a]
                    check(new int[] {p, a}, new long[] {1, p}, new long[] {a, 1}, rnd.nextInt(3), rnd.nextInt(3), rnd, par);
                    // [b, a, p] -> [b, p, a] and [a, b, p] -> [b, p, a] (KernelCotangentConvF32's channels-last copies)
                    int b = 1 + rnd.nextInt(3);
                    check(new int[] {b, p, a}, new long[] {(long) a * p, 1, p}, new long[] {(long) p * a, a, 1}, 0, 0, rnd, par);
                    check(new int[] {b, p, a}, new long[] {p, 1, (long) b * p}, new long[] {(long) p * a, a, 1}, 1, 0, rnd, par);
                }
            }
            // reversed source columns and destination rows (a flip folded into a transpose)
            check(new int[] {40, 19}, new long[] {1, -40}, new long[] {19, 1}, 40L * 18, 0, rnd, two);
            check(new int[] {37, 48}, new long[] {1, 37}, new long[] {-48, 1}, 0, 48L * 36, rnd, two);
        } finally {
            one.shutdown();
            two.shutdown();
        }
    }

    @Test
    void heapSegmentsTakeTheElementPath() {
        int a = 20, p = 33;
        int[] src = new int[a * p];
        for (int i = 0; i < src.length; i++) src[i] = 0x7fa00000 + i; // NaN payloads
        int[] dst = new int[a * p];
        StridedCopy.plan(new int[] {p, a}, new long[] {1, p}, new long[] {a, 1}, 4, true)
                .run(MemorySegment.ofArray(src), 0, MemorySegment.ofArray(dst), 0);
        for (int i = 0; i < a; i++) {
            for (int j = 0; j < p; j++) assertEquals(src[i * p + j], dst[j * a + i]);
        }
    }
}
