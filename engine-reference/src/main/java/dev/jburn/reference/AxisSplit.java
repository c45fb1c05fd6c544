package dev.jburn.reference;

import dev.jburn.Shape;

/**
 * A shape seen as {@code outer × n × inner} around one axis or one contiguous run of axes:
 * element {@code (o, k, i)} sits at {@code (o * n + k) * inner + i}. Kernels that work along
 * an axis (scans, arg reductions, sorts, most reductions) loop over this view.
 */
record AxisSplit(long outer, long n, long inner) {
    /** Around {@code axis}; {@code axis == -1} means the flattened tensor. */
    static AxisSplit around(Shape s, int axis) {
        if (axis < 0) return new AxisSplit(1, s.size(), 1);
        long outer = 1, inner = 1;
        for (int i = 0; i < axis; i++) outer *= s.dim(i);
        for (int i = axis + 1; i < s.rank(); i++) inner *= s.dim(i);
        return new AxisSplit(outer, s.dim(axis), inner);
    }

    /**
     * Around sorted {@code axes} when they are one contiguous run once size-1 axes are ignored
     * (so {@code [4,1,5]} over {@code [0,2]} qualifies); {@code null} otherwise.
     */
    static AxisSplit aroundRun(Shape s, int[] axes) {
        boolean[] reduced = new boolean[s.rank()];
        for (int a : axes) reduced[a] = true;
        long outer = 1, n = 1, inner = 1;
        int phase = 0; // 0: before the run, 1: inside, 2: after
        for (int i = 0; i < s.rank(); i++) {
            int d = s.dim(i);
            if (d == 1) continue;
            if (reduced[i]) {
                if (phase == 2) return null;
                phase = 1;
                n *= d;
            } else if (phase == 0) {
                outer *= d;
            } else {
                phase = 2;
                inner *= d;
            }
        }
        return new AxisSplit(outer, n, inner);
    }

    /** Number of (outer, inner) lines along the axis. */
    long lines() { return outer * inner; }

    /** Offset of element 0 of line {@code line} (numbered {@code o * inner + i}). */
    long lineStart(long line) { return (line / inner) * n * inner + line % inner; }
}
