package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.WindowSpec;

/**
 * Where the elements of each window lie in the input: per axis, a table from (output index,
 * window index) to the input index along that axis, or -1 where the window sits on padding.
 * Windows are walked in row-major window order, the order that decides ties.
 */
final class WindowGeometry {
    final int rank;
    final int[] inDims;
    final int[] outDims;
    final int[] winDims;
    final long[] inStrides;
    final long windowSize;
    private final int[][] table;
    /** {@link #relativeOffsets()}, worked out once: {@link #offsets} then needs no table walk per window. */
    private final long[] relative;

    WindowGeometry(Shape in, WindowSpec spec) {
        rank = in.rank();
        inDims = in.dims();
        winDims = spec.dims().clone();
        inStrides = in.strides();
        outDims = outputDims(in, spec);
        table = new int[rank][];
        long w = 1;
        for (int a = 0; a < rank; a++) {
            int wd = winDims[a];
            w *= wd;
            table[a] = new int[outDims[a] * wd];
            for (int o = 0; o < outDims[a]; o++) {
                for (int k = 0; k < wd; k++) {
                    long p = (long) o * spec.strides()[a] + (long) k * spec.dilations()[a] - spec.padLow()[a];
                    table[a][o * wd + k] = p >= 0 && p < inDims[a] ? (int) p : -1;
                }
            }
        }
        windowSize = w;
        relative = relativeOffsets();
    }

    /** The pooled shape: {@code floor((n + lo + hi - w_eff)/s) + 1} per axis, never negative. */
    static int[] outputDims(Shape in, WindowSpec spec) {
        int[] out = new int[in.rank()];
        for (int a = 0; a < out.length; a++) {
            long eff = (long) (spec.dims()[a] - 1) * spec.dilations()[a] + 1;
            long span = (long) in.dim(a) + spec.padLow()[a] + spec.padHigh()[a] - eff;
            out[a] = (int) Math.max(0, Math.floorDiv(span, spec.strides()[a]) + 1);
        }
        return out;
    }

    /** Input index along {@code axis} of window element {@code k} of output index {@code o}, or -1 on padding. */
    int index(int axis, int o, int k) { return table[axis][o * winDims[axis] + k]; }

    /**
     * Input element offset of window element {@code k} (row-major over the window) of the output
     * at {@code outCoord}, or -1 when it lies on padding.
     */
    long offset(int[] outCoord, long k) {
        long off = 0;
        for (int a = rank - 1; a >= 0; a--) {
            int wd = winDims[a];
            int idx = table[a][outCoord[a] * wd + (int) (k % wd)];
            if (idx < 0) return -1;
            off += idx * inStrides[a];
            k /= wd;
        }
        return off;
    }

    /**
     * When no window touches padding, every window is the first one shifted: the offsets of its elements
     * (row-major window order) relative to its first element, so that {@link #offsets} is
     * {@code base(outCoord) + relative[k]}; else (or for windows over 2^16 elements, whose walk costs
     * little beside their work) {@code null}.
     */
    private long[] relativeOffsets() {
        if (windowSize > 1 << 16) return null;
        for (int a = 0; a < rank; a++) if (outDims[a] == 0 || winDims[a] == 0) return null; // no windows to walk
        for (int a = 0; a < rank; a++) {
            int wd = winDims[a];
            for (int o = 0; o < outDims[a]; o++) {
                for (int k = 0; k < wd; k++) {
                    int idx = table[a][o * wd + k];
                    if (idx < 0 || idx - table[a][o * wd] != table[a][k] - table[a][0]) return null;
                }
            }
        }
        long[] rel = new long[(int) windowSize];
        int[] k = new int[rank];
        for (int e = 0; e < rel.length; e++) {
            long off = 0;
            for (int a = 0; a < rank; a++) off += (long) (table[a][k[a]] - table[a][0]) * inStrides[a];
            rel[e] = off;
            next(k, winDims);
        }
        return rel;
    }

    /**
     * The offsets of the window elements relative to the window's first one (row-major window order), when no window
     * touches padding; else {@code null}. With {@link #origins}, every window's elements without a walk per window.
     */
    long[] relative() { return relative == null ? null : relative.clone(); }

    /**
     * The input offsets of the first elements of the windows at the first {@code count} row-major positions over
     * {@code dims} (output dims, trivial axes set to 1), or {@code null} when windows touch padding. Without padding a
     * window's offset is linear in its coordinates, so a kernel that walks positions plane by plane (planes: the leading
     * axes) works these out once for the first plane and shifts them by each plane's offset, instead of a walk over
     * every axis per window (which took as long as the pooling itself for 2x2 windows over 32 channels).
     */
    long[] origins(int[] dims, int count) {
        if (relative == null) return null;
        long[] o = new long[count];
        int[] coord = new int[rank];
        for (int i = 0; i < count; i++) {
            o[i] = base(coord);
            next(coord, dims);
        }
        return o;
    }

    /** The input offset of the first element of the window at {@code outCoord} (with {@link #relative}: no padding). */
    private long base(int[] outCoord) {
        long off = 0;
        for (int a = 0; a < rank; a++) off += (long) table[a][outCoord[a] * winDims[a]] * inStrides[a];
        return off;
    }

    /**
     * The input offsets of every non-padding element of the window at {@code outCoord}, in row-major
     * window order, into {@code out}; returns their count. {@code k} is scratch of length rank.
     */
    int offsets(int[] outCoord, int[] k, long[] out) {
        if (relative != null) {
            long first = base(outCoord);
            for (int i = 0; i < relative.length; i++) out[i] = first + relative[i];
            return relative.length;
        }
        java.util.Arrays.fill(k, 0);
        int n = 0;
        for (long e = 0; e < windowSize; e++) {
            long off = 0;
            int a = 0;
            for (; a < rank; a++) {
                int idx = table[a][outCoord[a] * winDims[a] + k[a]];
                if (idx < 0) break;
                off += idx * inStrides[a];
            }
            if (a == rank) out[n++] = off;
            next(k, winDims);
        }
        return n;
    }

    /** Advances a row-major coordinate over {@code dims}. */
    static void next(int[] coord, int[] dims) {
        for (int a = dims.length - 1; a >= 0; a--) {
            if (++coord[a] < dims[a]) return;
            coord[a] = 0;
        }
    }

    /** Sets {@code coord} to the row-major coordinate of {@code linear} over {@code dims}. */
    static void seek(int[] coord, int[] dims, long linear) {
        for (int a = dims.length - 1; a >= 0; a--) {
            coord[a] = dims[a] == 0 ? 0 : (int) (linear % dims[a]);
            linear = dims[a] == 0 ? 0 : linear / dims[a];
        }
    }

    /**
     * Number of leading axes whose windows are trivial (size 1, stride 1, no padding): each
     * index along them is an independent plane, so planes can run in parallel.
     */
    static int trivialLeadingAxes(WindowSpec spec) {
        int a = 0;
        while (a < spec.rank() && spec.dims()[a] == 1 && spec.strides()[a] == 1 && spec.padLow()[a] == 0
                && spec.padHigh()[a] == 0) {
            a++;
        }
        return a;
    }
}
