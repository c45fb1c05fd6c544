package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * {@link ChannelsLastConvF32#forward} for convs with few input channels (the small CNN's first layer: one channel, 3×3,
 * 32 filters) on 8-lane vectors (AVX2). With one channel the reduction of an output is only its 9 taps, and the 6-row
 * tiles of the general form spent more time around their 9 steps (a loop over kernel rows around runs of 3, the stores
 * to a per-image array, a pass for the bias and ReLU, the copy out) than in them: 7 GFLOP/s on a core whose fma loop
 * does 43. Here a tile is {@link #POSITIONS} output positions × {@link #BLOCK} filters (12 accumulators, with the input
 * broadcast and a weight vector 14 of the 16 registers), the reduction one loop over (tap, channel) steps with an offset
 * table, and the bias, ReLU and store applied to the accumulators straight into the output.
 *
 * <p>Each output's sum is the general form's fma chain: from +0, over taps in row-major order, channels within a tap
 * (the order of its merged runs), then the bias added to the rounded sum and {@code z <= 0 ? +0 : z} (NaN stays): the
 * same bits, NaN and infinities included (every tap runs, on the padded image, where the general form skips taps that
 * read only padding; that changes no bit, since such a chain from +0 is never -0, and with non-finite weights it does
 * not skip). The mask ({@code z <= 0}, a byte per output) is written in a pass over each tile's rows while in L1.
 */
final class ChannelsLastFewChannelsF32 {
    private ChannelsLastFewChannelsF32() {}

    private static final VectorSpecies<Float> S = ChannelsLastTile.S;
    private static final int L = ChannelsLastTile.L;
    private static final java.nio.ByteOrder ORDER = java.nio.ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    /** Output positions per tile. */
    static final int POSITIONS = 3;
    /** Filters per tile: four vectors. */
    static final int BLOCK = 4 * L;
    /**
     * The most input channels it takes (the general form's runs grow with the channels): on one thread of the AVX2 machine,
     * a 32×32 image padded by 1 at batch 128 with 32 filters took 7.9-8.4 / 11.9-12.3 ms (this form / the general one) with 2 channels,
     * 8.3 / 11.1 with 3, 11.0-12.4 / 14.8-15.5 with 4 (2026-12-07); more were not measured.
     */
    static final int MAX_CHANNELS = 4;
    /** 8-lane vectors only (16 registers: the 12 accumulators fit); {@code -Djburn.fewchannels=false} turns it off. */
    static final boolean ON = L == 8 && !"false".equals(System.getProperty("jburn.fewchannels"));
    private static final long MAX = Integer.MAX_VALUE - 64;

    /**
     * Whether {@link #forward} computes this conv: {@link ChannelsLastConvF32#applies}, 1 to {@link #MAX_CHANNELS} input
     * channels, filters a multiple of {@link #BLOCK}, at least {@link #POSITIONS} output positions an image, and sizes
     * within int indexing (the output is addressed in longs).
     */
    static boolean applies(Shape xs, Shape ks, ConvSpec spec) {
        if (!ON || !ChannelsLastConvF32.applies(spec)) return false;
        int sr = spec.spatialRank();
        if (xs.rank() != sr + 2 || ks.rank() != sr + 2) return false;
        int n = xs.dim(0), c = xs.dim(sr + 1), o = ks.dim(0);
        if (n == 0 || c < 1 || c > MAX_CHANNELS || ks.dim(1) != c || o == 0 || o % BLOCK != 0) return false;
        PaddedImage img = new PaddedImage(ChannelsLastConvF32.spatial(xs, 1, sr), c, spec.padLow(), spec.padHigh());
        int[] kDims = ChannelsLastConvF32.spatial(ks, 2, sr);
        long plane = ChannelsLastConvF32.product(ChannelsLastConvF32.slides(img, kDims, spec.kernelDilation(), spec.strides()));
        long steps = ChannelsLastConvF32.product(kDims) * c;
        return plane >= POSITIONS && steps > 0 && img.size <= MAX && steps * o <= MAX && plane * o <= MAX;
    }

    /**
     * The conv of channels-last {@code x} ({@code [N, s..., C]}) with the canonical kernel {@code k} ({@code [O, C, k...]}),
     * channels-last, with {@link ChannelsLastConvF32#forward}'s bias, ReLU and mask (with {@code relu && mask} two
     * buffers: the mask, then the result); only where {@link #applies}.
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel) {
        int sr = spec.spatialRank();
        int n = xs.dim(0), c = xs.dim(sr + 1), o = ks.dim(0);
        int[] kDims = ChannelsLastConvF32.spatial(ks, 2, sr);
        PaddedImage img = new PaddedImage(ChannelsLastConvF32.spatial(xs, 1, sr), c, spec.padLow(), spec.padHigh());
        int[] out = ChannelsLastConvF32.slides(img, kDims, spec.kernelDilation(), spec.strides());
        int plane = (int) ChannelsLastConvF32.product(out), taps = (int) ChannelsLastConvF32.product(kDims), steps = taps * c;
        int[] tapOff = ChannelsLastConvF32.offsets(kDims, spec.kernelDilation(), img);
        int[] rowBase = ChannelsLastConvF32.offsets(out, spec.strides(), img);
        int[] stepOff = new int[steps];
        for (int s = 0; s < steps; s++) stepOff[s] = tapOff[s / c] + s % c;
        float[] w = pack(k, o, c, taps);
        float[] bv = bias == null ? null : bias.toArray(FL);
        boolean keepMask = relu && mask;
        HostBuffer result = HostBuffer.uninitialized((long) n * plane * o * Float.BYTES);
        HostBuffer maskResult = keepMask ? HostBuffer.uninitialized((long) n * plane * o) : null;
        MemorySegment dst = result.segment(), maskDst = keepMask ? maskResult.segment() : null;
        int blocks = o / BLOCK;
        parallel.forRange(n, (long) plane * o * steps, (lo, hi) -> {
            float[] a = new float[(int) img.size];
            for (long b = lo; b < hi; b++) {
                img.fill(x, b, a);
                long yImage = b * plane * o;
                for (int q0 = 0; q0 < plane; q0 += POSITIONS) {
                    // the last tile overlaps the one before it where the positions do not divide: it writes those outputs
                    // again, with the same bits
                    int q = Math.min(q0, plane - POSITIONS);
                    for (int blk = 0; blk < blocks; blk++) {
                        long at = yImage + (long) q * o + blk * BLOCK;
                        tile(a, rowBase[q], rowBase[q + 1], rowBase[q + 2], stepOff, steps, w, blk * steps * BLOCK, dst, at, o,
                                bv, blk * BLOCK, relu && !keepMask);
                        if (keepMask) maskRows(dst, maskDst, at, o);
                    }
                }
            }
        });
        return keepMask ? List.of(maskResult, result) : List.of(result);
    }

    /** The canonical kernel {@code [O, C, taps]} as {@code [block][tap][channel][BLOCK]} (filter {@code block·BLOCK + j} in lane j). */
    static float[] pack(MemorySegment k, int o, int c, int taps) {
        float[] src = k.asSlice(0, (long) o * c * taps * Float.BYTES).toArray(FL);
        int steps = taps * c;
        float[] w = new float[o * steps];
        for (int f = 0; f < o; f++) {
            int blk = f / BLOCK, j = f % BLOCK;
            for (int t = 0; t < taps; t++) {
                for (int ch = 0; ch < c; ch++) w[(blk * steps + t * c + ch) * BLOCK + j] = src[(f * c + ch) * taps + t];
            }
        }
        return w;
    }

    /**
     * One tile: {@code y[q_i, f] = Σ_s a[r_i + stepOff[s]] · w[wBase + s·BLOCK + f]} over {@code s = 0 .. steps-1} in that order,
     * an fma chain from +0 for each of the 3 positions ({@code r0..r2} their bases in the padded image {@code a}) and
     * {@link #BLOCK} filters; then {@code + bias[biasAt + f]} (when given) and with {@code relu} {@code <= 0 ? +0 : ·}, stored
     * to the native output {@code y}, position {@code i}'s row from float {@code at + i·pitch} on.
     */
    static void tile(float[] a, int r0, int r1, int r2, int[] stepOff, int steps, float[] w, int wBase, MemorySegment y, long at,
                     int pitch, float[] bias, int biasAt, boolean relu) {
        FloatVector z = FloatVector.zero(S);
        FloatVector a00 = z, a01 = z, a02 = z, a03 = z, a10 = z, a11 = z, a12 = z, a13 = z, a20 = z, a21 = z, a22 = z, a23 = z;
        for (int s = 0; s < steps; s++) {
            int off = stepOff[s], wj = wBase + s * BLOCK;
            FloatVector w0 = FloatVector.fromArray(S, w, wj), w1 = FloatVector.fromArray(S, w, wj + L);
            FloatVector w2 = FloatVector.fromArray(S, w, wj + 2 * L), w3 = FloatVector.fromArray(S, w, wj + 3 * L);
            FloatVector x = FloatVector.broadcast(S, a[r0 + off]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01); a02 = x.fma(w2, a02); a03 = x.fma(w3, a03);
            x = FloatVector.broadcast(S, a[r1 + off]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11); a12 = x.fma(w2, a12); a13 = x.fma(w3, a13);
            x = FloatVector.broadcast(S, a[r2 + off]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21); a22 = x.fma(w2, a22); a23 = x.fma(w3, a23);
        }
        if (bias != null) {
            FloatVector b0 = FloatVector.fromArray(S, bias, biasAt), b1 = FloatVector.fromArray(S, bias, biasAt + L);
            FloatVector b2 = FloatVector.fromArray(S, bias, biasAt + 2 * L), b3 = FloatVector.fromArray(S, bias, biasAt + 3 * L);
            a00 = a00.add(b0); a01 = a01.add(b1); a02 = a02.add(b2); a03 = a03.add(b3);
            a10 = a10.add(b0); a11 = a11.add(b1); a12 = a12.add(b2); a13 = a13.add(b3);
            a20 = a20.add(b0); a21 = a21.add(b1); a22 = a22.add(b2); a23 = a23.add(b3);
        }
        if (relu) { // (a sum from +0 is never -0: without a bias, -0 needs no +0 added first)
            a00 = a00.blend(z, a00.compare(VectorOperators.LE, z)); a01 = a01.blend(z, a01.compare(VectorOperators.LE, z));
            a02 = a02.blend(z, a02.compare(VectorOperators.LE, z)); a03 = a03.blend(z, a03.compare(VectorOperators.LE, z));
            a10 = a10.blend(z, a10.compare(VectorOperators.LE, z)); a11 = a11.blend(z, a11.compare(VectorOperators.LE, z));
            a12 = a12.blend(z, a12.compare(VectorOperators.LE, z)); a13 = a13.blend(z, a13.compare(VectorOperators.LE, z));
            a20 = a20.blend(z, a20.compare(VectorOperators.LE, z)); a21 = a21.blend(z, a21.compare(VectorOperators.LE, z));
            a22 = a22.blend(z, a22.compare(VectorOperators.LE, z)); a23 = a23.blend(z, a23.compare(VectorOperators.LE, z));
        }
        long p0 = at * Float.BYTES, p1 = p0 + (long) pitch * Float.BYTES, p2 = p1 + (long) pitch * Float.BYTES;
        final long v = (long) L * Float.BYTES;
        a00.intoMemorySegment(y, p0, ORDER); a01.intoMemorySegment(y, p0 + v, ORDER);
        a02.intoMemorySegment(y, p0 + 2 * v, ORDER); a03.intoMemorySegment(y, p0 + 3 * v, ORDER);
        a10.intoMemorySegment(y, p1, ORDER); a11.intoMemorySegment(y, p1 + v, ORDER);
        a12.intoMemorySegment(y, p1 + 2 * v, ORDER); a13.intoMemorySegment(y, p1 + 3 * v, ORDER);
        a20.intoMemorySegment(y, p2, ORDER); a21.intoMemorySegment(y, p2 + v, ORDER);
        a22.intoMemorySegment(y, p2 + 2 * v, ORDER); a23.intoMemorySegment(y, p2 + 3 * v, ORDER);
    }

    /** Byte {@code i} (memory order) of entry {@code m} is bit {@code i} of {@code m}: 8 lanes of a mask as 8 bytes 0/1. */
    private static final long[] SPREAD = new long[256];

    static {
        boolean little = ORDER == java.nio.ByteOrder.LITTLE_ENDIAN;
        for (int m = 0; m < 256; m++) {
            long v = 0;
            for (int i = 0; i < 8; i++) if ((m >> i & 1) != 0) v |= 1L << (8 * (little ? i : 7 - i));
            SPREAD[m] = v;
        }
    }

    /**
     * The mask and ReLU of a tile's stored rows ({@link #POSITIONS} rows of {@link #BLOCK} from float {@code at} on, {@code pitch}
     * apart): byte {@code mask[i] = y[i] <= 0}, then {@code y[i] = +0} there (NaN stays), while they are in L1.
     */
    private static void maskRows(MemorySegment y, MemorySegment mask, long at, int pitch) {
        FloatVector z = FloatVector.zero(S);
        for (int i = 0; i < POSITIONS; i++) {
            for (int f = 0; f < BLOCK; f += L) {
                long e = at + (long) i * pitch + f;
                FloatVector r = FloatVector.fromMemorySegment(S, y, e * Float.BYTES, ORDER);
                VectorMask<Float> off = r.compare(VectorOperators.LE, z);
                long bits = off.toLong();
                for (int k = 0; k < L; k += 8) mask.set(ValueLayout.JAVA_LONG_UNALIGNED, e + k, SPREAD[(int) (bits >>> k & 0xFF)]);
                r.blend(z, off).intoMemorySegment(y, e * Float.BYTES, ORDER);
            }
        }
    }
}
