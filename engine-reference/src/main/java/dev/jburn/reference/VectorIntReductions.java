package dev.jburn.reference;

import dev.jburn.DType;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static dev.jburn.reference.VectorReductions.CHUNK;
import static dev.jburn.reference.VectorReductions.MAX;
import static dev.jburn.reference.VectorReductions.ORDER;
import static dev.jburn.reference.VectorReductions.SUM;

/**
 * S32 and S64 sums, maxima and minima, laid out as {@link VectorReductions}. Integer lanes
 * wrap exactly as the oracle's long arithmetic truncated to the width does, so both paths
 * agree bit for bit. Partials travel as longs (an S32 partial sign-extended).
 */
final class VectorIntReductions {
    private VectorIntReductions() {}

    static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Long> L = LongVector.SPECIES_PREFERRED;

    interface RunReducer { long reduce(long offset, long n); }

    static void reduce(Parallel parallel, DType t, MemorySegment src, AxisSplit run, MemorySegment dst, int code) {
        boolean s32 = t == DType.S32;
        if (run.inner() > 1) {
            VectorReductions.columns(parallel, run, (o, c0, w) -> {
                if (s32) columnsS32(src, dst, run, o, c0, w, code);
                else columnsS64(src, dst, run, o, c0, w, code);
            });
            return;
        }
        RunReducer reducer = s32 ? (off, n) -> runS32(src, off, n, code) : (off, n) -> runS64(src, off, n, code);
        long n = run.n();
        if (run.outer() == 1) {
            long chunks = (n + CHUNK - 1) / CHUNK;
            long[] partial = new long[(int) chunks];
            parallel.forRange(chunks, CHUNK, (lo, hi) -> {
                for (long c = lo; c < hi; c++) partial[(int) c] = reducer.reduce(c * CHUNK, Math.min(CHUNK, n - c * CHUNK));
            });
            long acc = partial[0];
            for (int c = 1; c < partial.length; c++) acc = combine(code, acc, partial[c]);
            write(dst, s32, 0, acc);
            return;
        }
        parallel.forRange(run.outer(), n, (lo, hi) -> {
            for (long r = lo; r < hi; r++) write(dst, s32, r, reducer.reduce(r * n, n));
        });
    }

    private static void write(MemorySegment dst, boolean s32, long i, long v) {
        if (s32) dst.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
        else dst.setAtIndex(ValueLayout.JAVA_LONG, i, v);
    }

    private static long combine(int code, long a, long b) {
        return code == SUM ? a + b : code == MAX ? Math.max(a, b) : Math.min(a, b);
    }

    private static VectorOperators.Associative lanes(int code) {
        return code == SUM ? VectorOperators.ADD : code == MAX ? VectorOperators.MAX : VectorOperators.MIN;
    }

    // ---- S32 ------------------------------------------------------------------------------------

    private static IntVector loadI(MemorySegment s, long index) {
        return IntVector.fromMemorySegment(I, s, index * Integer.BYTES, ORDER);
    }

    private static IntVector pick(int code, IntVector a, IntVector b) {
        return code == SUM ? a.add(b) : code == MAX ? a.max(b) : a.min(b);
    }

    static long runS32(MemorySegment s, long off, long n, int code) {
        int l = I.length();
        long step = 4L * l;
        long i = 0;
        int acc = code == SUM ? 0 : code == MAX ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        if (n >= step) {
            IntVector a0 = IntVector.broadcast(I, acc), a1 = a0, a2 = a0, a3 = a0;
            for (; i + step <= n; i += step) {
                a0 = pick(code, a0, loadI(s, off + i));
                a1 = pick(code, a1, loadI(s, off + i + l));
                a2 = pick(code, a2, loadI(s, off + i + 2L * l));
                a3 = pick(code, a3, loadI(s, off + i + 3L * l));
            }
            acc = pick(code, pick(code, a0, a1), pick(code, a2, a3)).reduceLanes(lanes(code));
        }
        for (; i < n; i++) acc = (int) combine(code, acc, s.getAtIndex(ValueLayout.JAVA_INT, off + i));
        return acc;
    }

    private static void columnsS32(MemorySegment s, MemorySegment dst, AxisSplit run, long o, long c0, int w, int code) {
        long inner = run.inner(), n = run.n();
        long base = o * n * inner + c0;
        int bound = I.loopBound(w);
        int[] acc = new int[w];
        MemorySegment.copy(s, ValueLayout.JAVA_INT, base * Integer.BYTES, acc, 0, w);
        for (long r = 1; r < n; r++) {
            long row = base + r * inner;
            int j = 0;
            for (; j < bound; j += I.length()) pick(code, IntVector.fromArray(I, acc, j), loadI(s, row + j)).intoArray(acc, j);
            for (; j < w; j++) acc[j] = (int) combine(code, acc[j], s.getAtIndex(ValueLayout.JAVA_INT, row + j));
        }
        MemorySegment.copy(acc, 0, dst, ValueLayout.JAVA_INT, (o * inner + c0) * Integer.BYTES, w);
    }

    // ---- S64 ------------------------------------------------------------------------------------

    private static LongVector loadL(MemorySegment s, long index) {
        return LongVector.fromMemorySegment(L, s, index * Long.BYTES, ORDER);
    }

    private static LongVector pick(int code, LongVector a, LongVector b) {
        return code == SUM ? a.add(b) : code == MAX ? a.max(b) : a.min(b);
    }

    static long runS64(MemorySegment s, long off, long n, int code) {
        int l = L.length();
        long step = 4L * l;
        long i = 0;
        long acc = code == SUM ? 0 : code == MAX ? Long.MIN_VALUE : Long.MAX_VALUE;
        if (n >= step) {
            LongVector a0 = LongVector.broadcast(L, acc), a1 = a0, a2 = a0, a3 = a0;
            for (; i + step <= n; i += step) {
                a0 = pick(code, a0, loadL(s, off + i));
                a1 = pick(code, a1, loadL(s, off + i + l));
                a2 = pick(code, a2, loadL(s, off + i + 2L * l));
                a3 = pick(code, a3, loadL(s, off + i + 3L * l));
            }
            acc = pick(code, pick(code, a0, a1), pick(code, a2, a3)).reduceLanes(lanes(code));
        }
        for (; i < n; i++) acc = combine(code, acc, s.getAtIndex(ValueLayout.JAVA_LONG, off + i));
        return acc;
    }

    private static void columnsS64(MemorySegment s, MemorySegment dst, AxisSplit run, long o, long c0, int w, int code) {
        long inner = run.inner(), n = run.n();
        long base = o * n * inner + c0;
        int bound = L.loopBound(w);
        long[] acc = new long[w];
        MemorySegment.copy(s, ValueLayout.JAVA_LONG, base * Long.BYTES, acc, 0, w);
        for (long r = 1; r < n; r++) {
            long row = base + r * inner;
            int j = 0;
            for (; j < bound; j += L.length()) pick(code, LongVector.fromArray(L, acc, j), loadL(s, row + j)).intoArray(acc, j);
            for (; j < w; j++) acc[j] = combine(code, acc[j], s.getAtIndex(ValueLayout.JAVA_LONG, row + j));
        }
        MemorySegment.copy(acc, 0, dst, ValueLayout.JAVA_LONG, (o * inner + c0) * Long.BYTES, w);
    }
}
