package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.op.ReduceOp;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Vector API sums, maxima and minima over one contiguous run of axes ({@link AxisSplit}
 * {@code outer × n × inner}, reducing {@code n}) for F32 and F64; S32 and S64 live in
 * {@link VectorIntReductions}. Three shapes of work:
 * <ul>
 *   <li>everything ({@code outer == inner == 1}): fixed chunks reduced in parallel, partials
 *       combined in chunk order, so the result does not depend on the thread count;</li>
 *   <li>innermost run ({@code inner == 1}): each row reduced with four independent vector
 *       accumulators (to hide add latency), one lane reduction, a scalar tail;</li>
 *   <li>outer run ({@code inner > 1}): rows added vector-wise into a tile of accumulators.</li>
 * </ul>
 * F32 sums accumulate in F32 lanes within blocks of {@link #BLOCK} elements (or {@link #FLUSH}
 * rows) and add the blocks in double, so their error stays near the double oracle's: the
 * tests allow {@code 1e-5 * sqrt(n) * sum(|x|)}.
 */
final class VectorReductions {
    private VectorReductions() {}

    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Elements per parallel chunk of a full reduction; a multiple of every unrolled stride. */
    static final long CHUNK = 1 << 16;
    /** F32 elements summed in float lanes before the partial goes into a double. */
    static final long BLOCK = 1 << 12;
    /** F32 rows summed in float lanes before the tile goes into doubles. */
    static final int FLUSH = 64;
    /** Columns per task of an outer-run reduction. */
    static final int TILE = 2048;

    static final int SUM = 0, MAX = 1, MIN = 2;

    /** Runs the reduction if a fast kernel exists for {@code op} and {@code t}; false otherwise. */
    static boolean reduce(Parallel parallel, ReduceOp op, DType t, MemorySegment src, AxisSplit run, MemorySegment dst) {
        int code = switch (op) {
            case SUM -> SUM;
            case REDUCE_MAX -> MAX;
            case REDUCE_MIN -> MIN;
            case PRODUCT, ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> -1;
        };
        if (code < 0) return false;
        switch (t) {
            case F32 -> {
                if (run.inner() == 1) rows(parallel, run, (off, n) -> runF32(src, off, n, code), (i, v) -> dst.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v), code);
                else if (code == SUM && splitsRows(parallel, run)) columnSumsF32(parallel, src, dst, run);
                else columns(parallel, run, (o, c0, w) -> columnsF32(src, dst, run, o, c0, w, code));
            }
            case F64 -> {
                if (run.inner() == 1) rows(parallel, run, (off, n) -> runF64(src, off, n, code), (i, v) -> dst.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v), code);
                else columns(parallel, run, (o, c0, w) -> columnsF64(src, dst, run, o, c0, w, code));
            }
            case S32, S64 -> VectorIntReductions.reduce(parallel, t, src, run, dst, code);
            default -> { return false; }
        }
        return true;
    }

    // ---- work splitting (shared with the integer kernels) -------------------------------------

    interface RunReducer { double reduce(long offset, long n); }

    interface Writer { void write(long index, double value); }

    interface TileReducer { void reduce(long outer, long firstColumn, int width); }

    /** Contiguous rows of {@code run.n()}; a single row is split into chunks reduced in parallel. */
    static void rows(Parallel parallel, AxisSplit run, RunReducer reducer, Writer writer, int code) {
        long n = run.n();
        if (run.outer() == 1) {
            long chunks = (n + CHUNK - 1) / CHUNK;
            double[] partial = new double[(int) chunks];
            parallel.forRange(chunks, CHUNK, (lo, hi) -> {
                for (long c = lo; c < hi; c++) partial[(int) c] = reducer.reduce(c * CHUNK, Math.min(CHUNK, n - c * CHUNK));
            });
            double acc = partial[0];
            for (int c = 1; c < partial.length; c++) acc = combine(code, acc, partial[c]);
            writer.write(0, acc);
            return;
        }
        parallel.forRange(run.outer(), n, (lo, hi) -> {
            for (long r = lo; r < hi; r++) writer.write(r, reducer.reduce(r * n, n));
        });
    }

    /** Outer runs: tasks are (outer index, tile of columns). */
    static void columns(Parallel parallel, AxisSplit run, TileReducer reducer) {
        long tiles = (run.inner() + TILE - 1) / TILE;
        parallel.forRange(run.outer() * tiles, run.n() * Math.min(TILE, run.inner()), (lo, hi) -> {
            for (long task = lo; task < hi; task++) {
                long c0 = (task % tiles) * TILE;
                reducer.reduce(task / tiles, c0, (int) Math.min(TILE, run.inner() - c0));
            }
        });
    }

    static double combine(int code, double a, double b) {
        return code == SUM ? a + b : code == MAX ? Math.max(a, b) : Math.min(a, b);
    }

    // ---- F32 ------------------------------------------------------------------------------------

    private static FloatVector loadF(MemorySegment s, long index) {
        return FloatVector.fromMemorySegment(F, s, index * Float.BYTES, ORDER);
    }

    private static FloatVector pick(int code, FloatVector a, FloatVector b) {
        return code == MAX ? a.max(b) : a.min(b);
    }

    /** One contiguous run of F32 starting at element {@code off}. */
    static double runF32(MemorySegment s, long off, long n, int code) {
        int l = F.length();
        long step = 4L * l;
        long i = 0;
        if (code == SUM) {
            double total = 0;
            while (i + step <= n) {
                long blockEnd = Math.min(n, i + BLOCK);
                FloatVector a0 = FloatVector.zero(F), a1 = a0, a2 = a0, a3 = a0;
                for (; i + step <= blockEnd; i += step) {
                    a0 = a0.add(loadF(s, off + i));
                    a1 = a1.add(loadF(s, off + i + l));
                    a2 = a2.add(loadF(s, off + i + 2L * l));
                    a3 = a3.add(loadF(s, off + i + 3L * l));
                }
                total += LaneSums.inOrder(a0.add(a1).add(a2.add(a3)));
            }
            for (; i < n; i++) total += s.getAtIndex(ValueLayout.JAVA_FLOAT, off + i);
            return total;
        }
        float acc = code == MAX ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
        if (n >= step) {
            FloatVector a0 = FloatVector.broadcast(F, acc), a1 = a0, a2 = a0, a3 = a0;
            for (; i + step <= n; i += step) {
                a0 = pick(code, a0, loadF(s, off + i));
                a1 = pick(code, a1, loadF(s, off + i + l));
                a2 = pick(code, a2, loadF(s, off + i + 2L * l));
                a3 = pick(code, a3, loadF(s, off + i + 3L * l));
            }
            acc = pick(code, pick(code, a0, a1), pick(code, a2, a3))
                    .reduceLanes(code == MAX ? VectorOperators.MAX : VectorOperators.MIN);
        }
        for (; i < n; i++) {
            float v = s.getAtIndex(ValueLayout.JAVA_FLOAT, off + i);
            acc = code == MAX ? Math.max(acc, v) : Math.min(acc, v);
        }
        return acc;
    }

    /** Columns {@code [c0, c0 + w)} of outer block {@code o}, reduced over the run's rows. */
    static void columnsF32(MemorySegment s, MemorySegment dst, AxisSplit run, long o, long c0, int w, int code) {
        long inner = run.inner(), n = run.n();
        long base = o * n * inner + c0;
        int bound = F.loopBound(w);
        float[] acc = new float[w];
        double[] total = code == SUM ? new double[w] : null;
        for (int j = 0; j < w; j++) acc[j] = s.getAtIndex(ValueLayout.JAVA_FLOAT, base + j);
        for (long r = 1; r < n; r++) {
            long row = base + r * inner;
            int j = 0;
            for (; j < bound; j += F.length()) {
                FloatVector a = FloatVector.fromArray(F, acc, j);
                FloatVector v = loadF(s, row + j);
                (code == SUM ? a.add(v) : pick(code, a, v)).intoArray(acc, j);
            }
            for (; j < w; j++) {
                float v = s.getAtIndex(ValueLayout.JAVA_FLOAT, row + j);
                acc[j] = code == SUM ? acc[j] + v : code == MAX ? Math.max(acc[j], v) : Math.min(acc[j], v);
            }
            if (code == SUM && r % FLUSH == 0) {
                for (int k = 0; k < w; k++) {
                    total[k] += acc[k];
                    acc[k] = 0;
                }
            }
        }
        long out = o * inner + c0;
        for (int j = 0; j < w; j++) {
            float v = code == SUM ? (float) (total[j] + acc[j]) : acc[j];
            dst.setAtIndex(ValueLayout.JAVA_FLOAT, out + j, v);
        }
    }

    /**
     * Whether an F32 column sum has too few (outer, tile) tasks for the threads but many rows (a per-channel
     * sum over N, H, W of a channels-last tensor: one task), so {@link #columnSumsF32} splits its rows.
     */
    private static boolean splitsRows(Parallel parallel, AxisSplit run) {
        long tasks = run.outer() * ((run.inner() + TILE - 1) / TILE);
        return parallel.threads() > 1 && tasks < parallel.threads() && run.inner() <= TILE && run.n() >= 4L * FLUSH;
    }

    /**
     * {@link #columnsF32}'s sums, bit for bit, with the rows split over the threads: its float tiles restart at
     * fixed row segments (rows {@code [0, FLUSH]}, then each next {@code FLUSH}), so each segment's float partial
     * is computed on its own (in parallel) and the partials are added into doubles in segment order afterwards,
     * the same operations in the same order as the one-thread loop.
     */
    static void columnSumsF32(Parallel parallel, MemorySegment s, MemorySegment dst, AxisSplit run) {
        long inner = run.inner(), n = run.n();
        int w = (int) inner;
        long segments = segments(n);
        for (long o = 0; o < run.outer(); o++) {
            long base = o * n * inner;
            float[] partial = new float[Math.toIntExact(segments * w)];
            parallel.forRange(segments, FLUSH * inner, (lo, hi) -> {
                for (long k = lo; k < hi; k++) segmentF32(s, base, inner, w, segmentStart(k), segmentEnd(k, n), k == 0, partial, (int) (k * w));
            });
            addSegments(partial, n, w, dst, o * inner);
        }
    }

    /**
     * How many row segments {@link #columnsF32}'s sum of {@code n} rows has: rows {@code [0, FLUSH]}, then each next
     * {@code FLUSH} rows (the float tile moves into doubles after row {@code r} when {@code r % FLUSH == 0}); at least one.
     */
    static long segments(long n) { return Math.max(1, (n - 1 + FLUSH - 1) / FLUSH); }

    /** The first row of segment {@code k} (see {@link #segments}). */
    static long segmentStart(long k) { return k == 0 ? 0 : k * FLUSH + 1; }

    /** The row after segment {@code k} of {@code n} rows (see {@link #segments}). */
    static long segmentEnd(long k, long n) { return Math.min(n, (k + 1) * FLUSH + 1); }

    /**
     * The column sums from the float partials of {@link #segments}{@code (n)} segments ({@code w} columns each):
     * the segments that ended in a flush added in double in order, then the last, unflushed one, rounded once, as
     * {@link #columnsF32} does; into {@code dst[at, at + w)}.
     */
    static void addSegments(float[] partial, long n, int w, MemorySegment dst, long at) {
        long flushes = (n - 1) / FLUSH, segments = segments(n);
        double[] total = new double[w];
        for (long k = 0; k < flushes; k++) for (int j = 0; j < w; j++) total[j] += partial[(int) (k * w) + j];
        for (int j = 0; j < w; j++) {
            float last = segments > flushes ? partial[(int) (flushes * w) + j] : 0f;
            dst.setAtIndex(ValueLayout.JAVA_FLOAT, at + j, (float) (total[j] + last));
        }
    }

    /**
     * {@link #addRows} of {@code rows} contiguous rows of {@code w} columns at element {@code at}, where the block holds the
     * first row of the whole sum when {@code firstOfSum}: that row is copied into {@code acc}, not added, as
     * {@link #columnsF32}'s loop starts from it (so a -0.0 column stays -0.0). The fused column sums' step per block of rows.
     */
    static void addBlockRows(float[] acc, MemorySegment s, long at, boolean firstOfSum, int rows, int w) {
        int first = 0;
        if (firstOfSum) {
            MemorySegment.copy(s, ValueLayout.JAVA_FLOAT, at * Float.BYTES, acc, 0, w);
            first = 1;
        }
        addRows(acc, s, at + (long) first * w, rows - first, w, w);
    }

    /**
     * {@code acc[j] += s[at + r·pitch + j]} for rows {@code r < rows} in order and {@code j < w}: the same adds in the same
     * order as {@link #columnsF32}'s row by row loop, so the same bits, with up to four vectors of columns held in registers across
     * the rows instead of a load and a store of {@code acc} per row and vector (whose store-to-load chain made the
     * per-channel sums of a batch-norm layer run at 13 GB/s, less than half of what the memory gives).
     */
    static void addRows(float[] acc, MemorySegment s, long at, int rows, long pitch, int w) {
        int l = F.length(), j = 0;
        for (; j + 4 * l <= w; j += 4 * l) {
            FloatVector a0 = FloatVector.fromArray(F, acc, j), a1 = FloatVector.fromArray(F, acc, j + l);
            FloatVector a2 = FloatVector.fromArray(F, acc, j + 2 * l), a3 = FloatVector.fromArray(F, acc, j + 3 * l);
            long p = at + j;
            for (int r = 0; r < rows; r++, p += pitch) {
                a0 = a0.add(loadF(s, p));
                a1 = a1.add(loadF(s, p + l));
                a2 = a2.add(loadF(s, p + 2 * l));
                a3 = a3.add(loadF(s, p + 3 * l));
            }
            a0.intoArray(acc, j);
            a1.intoArray(acc, j + l);
            a2.intoArray(acc, j + 2 * l);
            a3.intoArray(acc, j + 3 * l);
        }
        for (; j + 2 * l <= w; j += 2 * l) {
            FloatVector a0 = FloatVector.fromArray(F, acc, j), a1 = FloatVector.fromArray(F, acc, j + l);
            long p = at + j;
            for (int r = 0; r < rows; r++, p += pitch) {
                a0 = a0.add(loadF(s, p));
                a1 = a1.add(loadF(s, p + l));
            }
            a0.intoArray(acc, j);
            a1.intoArray(acc, j + l);
        }
        for (; j + l <= w; j += l) {
            FloatVector a0 = FloatVector.fromArray(F, acc, j);
            long p = at + j;
            for (int r = 0; r < rows; r++, p += pitch) a0 = a0.add(loadF(s, p));
            a0.intoArray(acc, j);
        }
        for (; j < w; j++) {
            float a = acc[j];
            long p = at + j;
            for (int r = 0; r < rows; r++, p += pitch) a = a + s.getAtIndex(ValueLayout.JAVA_FLOAT, p);
            acc[j] = a;
        }
    }

    /** Rows {@code [from, to)} of {@code w} columns summed as {@link #columnsF32} does: from row {@code from} itself, or from 0. */
    private static void segmentF32(MemorySegment s, long base, long inner, int w, long from, long to, boolean first, float[] out, int at) {
        float[] acc = new float[w];
        long r = from;
        if (first) {
            for (int j = 0; j < w; j++) acc[j] = s.getAtIndex(ValueLayout.JAVA_FLOAT, base + j);
            r++;
        }
        addRows(acc, s, base + r * inner, (int) (to - r), inner, w);
        System.arraycopy(acc, 0, out, at, w);
    }

    // ---- F64 ------------------------------------------------------------------------------------

    private static DoubleVector loadD(MemorySegment s, long index) {
        return DoubleVector.fromMemorySegment(D, s, index * Double.BYTES, ORDER);
    }

    private static DoubleVector pick(int code, DoubleVector a, DoubleVector b) {
        return code == SUM ? a.add(b) : code == MAX ? a.max(b) : a.min(b);
    }

    static double runF64(MemorySegment s, long off, long n, int code) {
        int l = D.length();
        long step = 4L * l;
        long i = 0;
        double acc = code == SUM ? 0.0 : code == MAX ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (n >= step) {
            DoubleVector a0 = DoubleVector.broadcast(D, acc), a1 = a0, a2 = a0, a3 = a0;
            for (; i + step <= n; i += step) {
                a0 = pick(code, a0, loadD(s, off + i));
                a1 = pick(code, a1, loadD(s, off + i + l));
                a2 = pick(code, a2, loadD(s, off + i + 2L * l));
                a3 = pick(code, a3, loadD(s, off + i + 3L * l));
            }
            DoubleVector v = pick(code, pick(code, a0, a1), pick(code, a2, a3));
            acc = code == SUM ? LaneSums.inOrder(v) : v.reduceLanes(code == MAX ? VectorOperators.MAX : VectorOperators.MIN);
        }
        for (; i < n; i++) acc = combine(code, acc, s.getAtIndex(ValueLayout.JAVA_DOUBLE, off + i));
        return acc;
    }

    private static void columnsF64(MemorySegment s, MemorySegment dst, AxisSplit run, long o, long c0, int w, int code) {
        long inner = run.inner(), n = run.n();
        long base = o * n * inner + c0;
        int bound = D.loopBound(w);
        double[] acc = new double[w];
        for (int j = 0; j < w; j++) acc[j] = s.getAtIndex(ValueLayout.JAVA_DOUBLE, base + j);
        for (long r = 1; r < n; r++) {
            long row = base + r * inner;
            int j = 0;
            for (; j < bound; j += D.length()) {
                pick(code, DoubleVector.fromArray(D, acc, j), loadD(s, row + j)).intoArray(acc, j);
            }
            for (; j < w; j++) acc[j] = combine(code, acc[j], s.getAtIndex(ValueLayout.JAVA_DOUBLE, row + j));
        }
        MemorySegment.copy(acc, 0, dst, ValueLayout.JAVA_DOUBLE, (o * inner + c0) * Double.BYTES, w);
    }
}
