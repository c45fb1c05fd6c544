package dev.jburn.reference;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One channels-last image {@code [s..., C]} zero-padded by {@code (lo, hi)} per spatial axis
 * (negative padding crops), as a heap array: the channels-last convolutions read it with no
 * bounds logic. {@link #stride(int)} is the distance in floats between neighbours on an axis.
 */
final class PaddedImage {
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

    final int rank, channels;
    final int[] in, lo, padded;
    private final long[] strides;
    /** Floats of one padded image. */
    final long size;

    PaddedImage(int[] in, int channels, int[] lo, int[] hi) {
        this.rank = in.length;
        this.in = in.clone();
        this.lo = lo.clone();
        this.channels = channels;
        padded = new int[rank];
        strides = new long[rank];
        long s = channels;
        for (int a = rank - 1; a >= 0; a--) {
            padded[a] = Math.max(0, in[a] + lo[a] + hi[a]);
            strides[a] = s;
            s *= padded[a];
        }
        size = s;
        boolean same = true;
        for (int a = 0; a < rank; a++) same &= lo[a] == 0 && padded[a] == in[a];
        unpadded = same;
    }

    /** No padding or cropping on any axis: the padded image is the image. */
    final boolean unpadded;

    /** Floats between neighbours on spatial axis {@code a} of the padded image. */
    long stride(int a) { return strides[a]; }

    /** Floats of one unpadded image. */
    long imageSize() {
        long n = channels;
        for (int d : in) n *= d;
        return n;
    }

    /** Image {@code b} of the channels-last {@code src} into {@code dst[0..size)}: zeros, then the rows that land inside. */
    void fill(MemorySegment src, long b, float[] dst) {
        if (unpadded) { // the image as it is: one copy, no zeros to write
            MemorySegment.copy(src, FL, b * size * Float.BYTES, dst, 0, (int) size);
            return;
        }
        java.util.Arrays.fill(dst, 0, (int) size, 0f);
        int last = rank - 1;
        int from = Math.max(0, -lo[last]), to = Math.min(in[last], padded[last] - lo[last]); // kept columns
        if (to <= from) return;
        int len = (to - from) * channels;
        long rows = 1;
        for (int a = 0; a < last; a++) rows *= in[a];
        long image = b * imageSize();
        for (long r = 0; r < rows; r++) {
            long rest = r, target = 0;
            boolean inside = true;
            for (int a = last - 1; a >= 0; a--) {
                int coord = (int) (rest % in[a]);
                rest /= in[a];
                int p = coord + lo[a];
                inside &= p >= 0 && p < padded[a];
                target += p * strides[a];
            }
            if (!inside) continue;
            long srcFloat = image + (r * in[last] + from) * channels;
            target += (long) (from + lo[last]) * channels;
            MemorySegment.copy(src, FL, srcFloat * Float.BYTES, dst, (int) target, len);
        }
    }
}
