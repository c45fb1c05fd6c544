package dev.jburn.reference;

import dev.jburn.spi.ConvSpec;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A channels-last image with two spatial axes laid out for {@link ChannelsLastTile#run12}: entry {@code (r, j)} holds the
 * {@code runLength} floats from padded position {@code (r, j·colStride)} on (a kernel row's taps × channels, consecutive
 * in the channels-last image), at {@code (r·cols + j)·STRIDE}, for every padded row {@code r} and output column {@code j}.
 * With unit row stride, output position {@code q = i·cols + j} meets kernel row {@code t} in entry {@code q + t·dilation·cols}:
 * a tile's rows, consecutive positions even across the end of an output row, are {@link #STRIDE} apart in every run (in
 * the padded image they are {@code C·stride} apart within an output row, and jump at its end). Neighbouring columns'
 * runs overlap, so each float is copied about {@code kw} times, once per image for all tiles and column blocks.
 */
final class RunImage {
    static final int STRIDE = ChannelsLastTile.RUN_STRIDE;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private final PaddedImage img;
    private final int rows, cols, runLength, colStep, rowStep;
    /** Floats of the whole layout. */
    final long size;
    /** Per output position, where its entry starts (as {@link ChannelsLastTile#run} takes row bases). */
    final int[] rowBase;
    /** Per tap group, its runs' offsets from a position's entry (the padded image's kernel rows, here). */
    final List<int[]> runs;
    /** Per tap group, each reduction step's offset from a position's entry ({@link ChannelsLastTile#run12}'s steps). */
    final List<int[]> steps;

    private RunImage(PaddedImage img, int[] out, ConvSpec spec, int runLength, List<ChannelsLastConvF32.TapGroup> groups, int kw) {
        this.img = img;
        rows = img.padded[0];
        cols = out[1];
        this.runLength = runLength;
        colStep = spec.strides()[1] * img.channels;
        rowStep = (int) img.stride(0);
        size = (long) rows * cols * STRIDE;
        rowBase = new int[out[0] * cols];
        for (int q = 0; q < rowBase.length; q++) rowBase[q] = q * STRIDE;
        int dilation = spec.kernelDilation()[0];
        runs = groups.stream().map(g -> {
            int[] r = new int[g.tapOffsets().length / kw];
            for (int s = 0; s < r.length; s++) r[s] = (g.tapFrom() / kw + s) * dilation * cols * STRIDE;
            return r;
        }).toList();
        steps = runs.stream().map(r -> {
            int[] p = new int[r.length * runLength];
            for (int i = 0; i < p.length; i++) p[i] = r[i / runLength] + i % runLength;
            return p;
        }).toList();
    }

    /**
     * The layout for a conv with {@code runLength}-float runs (kernel rows of {@code kw} taps, {@code groups} its tap groups),
     * or null where it does not serve: other than two spatial axes, a row stride or a column dilation other than 1, runs
     * longer than {@link #STRIDE}, or the sizes past int indexing.
     */
    static RunImage of(PaddedImage img, int[] out, ConvSpec spec, int runLength, List<ChannelsLastConvF32.TapGroup> groups, int kw) {
        if (out.length != 2 || spec.strides()[0] != 1 || spec.kernelDilation()[1] != 1 || runLength > STRIDE
                || (long) img.padded[0] * out[1] * STRIDE > Integer.MAX_VALUE - 64) return null;
        return new RunImage(img, out, spec, runLength, groups, kw);
    }

    /**
     * Image {@code b} of the channels-last {@code x} into {@code dst[0..size)}: straight from {@code x} when there is no
     * padding, else through the zero-padded image in {@code padded} ({@link PaddedImage#fill}).
     */
    void fill(MemorySegment x, long b, float[] padded, float[] dst) {
        if (img.unpadded) {
            long base = b * img.size * Float.BYTES;
            for (int r = 0; r < rows; r++) {
                for (int j = 0; j < cols; j++) copy(x, base + (long) (r * rowStep + j * colStep) * Float.BYTES, dst, (r * cols + j) * STRIDE);
            }
            return;
        }
        img.fill(x, b, padded);
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < cols; j++) copy(padded, r * rowStep + j * colStep, dst, (r * cols + j) * STRIDE);
        }
    }

    /** A run by vectors, the last one masked. */
    private void copy(MemorySegment src, long from, float[] dst, int to) {
        final int l = ChannelsLastTile.L;
        int v = 0;
        for (; v + l <= runLength; v += l) FloatVector.fromMemorySegment(ChannelsLastTile.S, src, from + (long) v * Float.BYTES, ORDER).intoArray(dst, to + v);
        if (v < runLength) {
            VectorMask<Float> m = ChannelsLastTile.S.indexInRange(v, runLength);
            FloatVector.fromMemorySegment(ChannelsLastTile.S, src, from + (long) v * Float.BYTES, ORDER, m).intoArray(dst, to + v, m);
        }
    }

    private void copy(float[] src, int from, float[] dst, int to) {
        final int l = ChannelsLastTile.L;
        int v = 0;
        for (; v + l <= runLength; v += l) FloatVector.fromArray(ChannelsLastTile.S, src, from + v).intoArray(dst, to + v);
        if (v < runLength) {
            VectorMask<Float> m = ChannelsLastTile.S.indexInRange(v, runLength);
            FloatVector.fromArray(ChannelsLastTile.S, src, from + v, m).intoArray(dst, to + v, m);
        }
    }
}
