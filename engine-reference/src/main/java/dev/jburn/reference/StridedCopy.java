package dev.jburn.reference;

import java.lang.foreign.MemorySegment;

/**
 * The one loop behind every movement kernel: copy a box of {@code dims} elements from
 * {@code src[srcBase + i·srcStrides]} to {@code dst[dstBase + i·dstStrides]} (element strides,
 * possibly negative). The oracle plan walks element by element; the fast plan first merges
 * axes that are contiguous on both sides, then copies whole inner runs with
 * {@link MemorySegment#copy} when the innermost axis is contiguous on both sides, or walks
 * cache-sized 2-D tiles when a transpose moved the contiguous source axis away from the end.
 */
final class StridedCopy {
    /** Tile edge, in elements: a 32x32 tile of 8-byte elements is 8 KiB on each side, within L1. */
    private static final int TILE = 32;

    private enum Mode { ELEMENTS, RUNS, TILES }

    private final int[] dims;
    private final long[] srcStrides;
    private final long[] dstStrides;
    private final int width;
    private final Mode mode;
    private final long count;
    /** TILES: the axis whose source stride is 1 (the other tile axis is the last one). */
    private final int tileAxis;
    /** Walk dims of the outer loop: the box without its inner run (RUNS) or tile axes (TILES). */
    private final int[] outerDims;
    private final long[] outerSrc;
    private final long[] outerDst;

    private StridedCopy(int[] dims, long[] srcStrides, long[] dstStrides, int width, Mode mode, int tileAxis) {
        this.dims = dims;
        this.srcStrides = srcStrides;
        this.dstStrides = dstStrides;
        this.width = width;
        this.mode = mode;
        this.tileAxis = tileAxis;
        long n = 1;
        for (int d : dims) n *= d;
        this.count = n;
        int r = dims.length;
        int[] od = dims.clone();
        long[] os = srcStrides.clone();
        long[] ot = dstStrides.clone();
        if (mode == Mode.RUNS && r > 0) od[r - 1] = 1;
        if (mode == Mode.TILES) {
            od[r - 1] = 1;
            od[tileAxis] = 1;
        }
        this.outerDims = od;
        this.outerSrc = os;
        this.outerDst = ot;
    }

    /**
     * A copy plan. {@code fast} false gives the oracle: no axis merging, one element at a time.
     * The arrays are not modified.
     */
    static StridedCopy plan(int[] dims, long[] srcStrides, long[] dstStrides, int width, boolean fast) {
        if (!fast) return new StridedCopy(dims.clone(), srcStrides.clone(), dstStrides.clone(), width, Mode.ELEMENTS, -1);
        // Drop size-1 axes, then merge neighbours that are contiguous on both sides.
        int r = 0;
        int[] d = new int[dims.length];
        long[] s = new long[dims.length];
        long[] t = new long[dims.length];
        boolean empty = false;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) empty = true;
            if (dims[i] == 1) continue;
            if (r > 0 && s[r - 1] == srcStrides[i] * dims[i] && t[r - 1] == dstStrides[i] * dims[i]) {
                d[r - 1] *= dims[i];
                s[r - 1] = srcStrides[i];
                t[r - 1] = dstStrides[i];
                continue;
            }
            d[r] = dims[i];
            s[r] = srcStrides[i];
            t[r] = dstStrides[i];
            r++;
        }
        if (empty) return new StridedCopy(new int[] {0}, new long[] {0}, new long[] {0}, width, Mode.ELEMENTS, -1);
        d = java.util.Arrays.copyOf(d, r);
        s = java.util.Arrays.copyOf(s, r);
        t = java.util.Arrays.copyOf(t, r);
        if (r > 0 && s[r - 1] == 1 && t[r - 1] == 1) return new StridedCopy(d, s, t, width, Mode.RUNS, -1);
        if (r > 1 && t[r - 1] == 1 && d[r - 1] >= TILE / 4) {
            for (int q = 0; q < r - 1; q++) {
                if (s[q] == 1 && d[q] >= TILE / 4) return new StridedCopy(d, s, t, width, Mode.TILES, q);
            }
        }
        return new StridedCopy(d, s, t, width, Mode.ELEMENTS, -1);
    }

    /** Elements in the box. */
    long count() { return count; }

    /** Copies on the calling thread. */
    void run(MemorySegment src, long srcBase, MemorySegment dst, long dstBase) {
        if (count == 0) return;
        switch (mode) {
            case ELEMENTS -> {
                if (dims.length == 0) {
                    Elements.copy(src, srcBase, dst, dstBase, width);
                } else if (dims.length == 1) {
                    long ss = srcStrides[0], ds = dstStrides[0];
                    for (long i = 0, n = dims[0]; i < n; i++) Elements.copy(src, srcBase + i * ss, dst, dstBase + i * ds, width);
                } else {
                    elements(src, srcBase, dst, dstBase, 0, count);
                }
            }
            case RUNS -> runs(src, srcBase, dst, dstBase, 0, outerCount());
            case TILES -> tiles(src, srcBase, dst, dstBase, 0, outerCount() * tileBlocks());
        }
    }

    /** Copies, split across threads when the box is large. */
    void run(MemorySegment src, long srcBase, MemorySegment dst, long dstBase, Parallel parallel) {
        if (count == 0) return;
        switch (mode) {
            case ELEMENTS -> parallel.forRange(count, width, (lo, hi) -> elements(src, srcBase, dst, dstBase, lo, hi));
            case RUNS -> parallel.forRange(outerCount(), (long) dims[dims.length - 1] * width,
                    (lo, hi) -> runs(src, srcBase, dst, dstBase, lo, hi));
            case TILES -> parallel.forRange(outerCount() * tileBlocks(), (long) TILE * dims[dims.length - 1] * width,
                    (lo, hi) -> tiles(src, srcBase, dst, dstBase, lo, hi));
        }
    }

    private long outerCount() {
        long n = 1;
        for (int d : outerDims) n *= d;
        return n;
    }

    private long tileBlocks() { return (dims[tileAxis] + TILE - 1) / TILE; }

    /**
     * Elements {@code [lo, hi)} in row-major order: the last axis as an inner loop, the walker over the others (a step of
     * the walker per element made a kernel reversal, {@code [64,32,3,3]} reversed on its 3×3 axes, cost ~7 ns an element).
     */
    private void elements(MemorySegment src, long srcBase, MemorySegment dst, long dstBase, long lo, long hi) {
        if (lo >= hi) return; // nothing (an empty shape has a 0 extent, which the row arithmetic below divides by)
        int last = dims.length - 1;
        if (last < 0) { // a scalar: one element
            if (lo < hi) Elements.copy(src, srcBase, dst, dstBase, width);
            return;
        }
        long n = dims[last], ss = srcStrides[last], ds = dstStrides[last];
        if (last == 0) {
            for (long k = lo; k < hi; k++) Elements.copy(src, srcBase + k * ss, dst, dstBase + k * ds, width);
            return;
        }
        Strides.Walker w = new Strides.Walker(java.util.Arrays.copyOf(dims, last), java.util.Arrays.copyOf(srcStrides, last),
                java.util.Arrays.copyOf(dstStrides, last));
        long row = lo / n;
        w.seek(row);
        for (long i = lo; i < hi; row++) {
            long k0 = i - row * n, k1 = Math.min(n, k0 + (hi - i));
            long sb = srcBase + w.offsets[0], db = dstBase + w.offsets[1];
            for (long k = k0; k < k1; k++) Elements.copy(src, sb + k * ss, dst, db + k * ds, width);
            i += k1 - k0;
            if (i < hi) w.next();
        }
    }

    private void runs(MemorySegment src, long srcBase, MemorySegment dst, long dstBase, long lo, long hi) {
        long run = dims[dims.length - 1];
        Strides.Walker w = new Strides.Walker(outerDims, outerSrc, outerDst);
        w.seek(lo);
        for (long i = lo; i < hi; i++) {
            Elements.copyRun(src, srcBase + w.offsets[0], dst, dstBase + w.offsets[1], run, width);
            w.next();
        }
    }

    /**
     * Unit {@code u} is (outer index {@code u / blocks}, rows {@code [TILE·(u % blocks), +TILE)} of the tile axis). 4-byte
     * elements between native segments move by {@link Transpose32}'s vector tiles, anything else element by element.
     */
    private void tiles(MemorySegment src, long srcBase, MemorySegment dst, long dstBase, long lo, long hi) {
        int last = dims.length - 1;
        long blocks = tileBlocks();
        int rows = dims[tileAxis];
        int cols = dims[last];
        long srcCol = srcStrides[last];
        long dstRow = dstStrides[tileAxis];
        int[] tile = width == Integer.BYTES && Transpose32.applies(src, dst) ? Transpose32.scratch() : null;
        Strides.Walker w = new Strides.Walker(outerDims, outerSrc, outerDst);
        long outer = lo / blocks;
        w.seek(outer);
        for (long u = lo; u < hi; u++) {
            if (u / blocks != outer) {
                outer = u / blocks;
                w.next();
            }
            int r0 = (int) (u % blocks) * TILE;
            int r1 = Math.min(rows, r0 + TILE);
            long sb = srcBase + w.offsets[0];
            long db = dstBase + w.offsets[1];
            if (tile != null) Transpose32.block(src, sb + r0, srcCol, dst, db + r0 * dstRow, dstRow, r1 - r0, cols, tile);
            else elementBlock(src, sb, dst, db, r0, r1, cols, srcCol, dstRow);
        }
    }

    /** Rows {@code [r0, r1)} of one unit of {@link #tiles}, element by element in {@code TILE × TILE} blocks, any width. */
    private void elementBlock(MemorySegment src, long sb, MemorySegment dst, long db, int r0, int r1, int cols, long srcCol, long dstRow) {
        for (int c0 = 0; c0 < cols; c0 += TILE) {
            int c1 = Math.min(cols, c0 + TILE);
            for (int r = r0; r < r1; r++) {
                long s = sb + r + c0 * srcCol;
                long d = db + r * dstRow + c0;
                for (int c = c0; c < c1; c++, s += srcCol, d++) Elements.copy(src, s, dst, d, width);
            }
        }
    }

    /** Fills elements {@code [0, n)} of {@code dst} with the one element at {@code value[0]}, doubling copies. */
    static void fill(MemorySegment value, MemorySegment dst, long n, int width) {
        if (n == 0) return;
        Elements.copy(value, 0, dst, 0, width);
        for (long done = 1; done < n; done *= 2) Elements.copyRun(dst, 0, dst, done, Math.min(done, n - done), width);
    }
}
