package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * {@link WinogradConvF32}'s F(2×2, 3×3) on channels-last tensors ({@code [N, H, W, C]} → {@code [N, Ho, Wo, O]}, the small
 * CNN's conv 2 and its input cotangent), with {@link ChannelsLastConvF32#forward}'s bias, ReLU and mask: 16 multiply-adds
 * per channel and filter of a 2×2 block of outputs (a "tile") where the direct form has 36. Channels-last suits the
 * transforms: a patch element's 16 channels are one vector load (no deinterleaving), and a tile's output per 16 filters
 * is one vector store. Per task (a range of images), the tiles of all its images in order, 12 at a time (a chunk may span
 * images, so that a 7×7-tile image wastes no tile rows): the input transform of the 12 tiles' patches to
 * {@code V[point][tile][channel]} (rows {@link ChannelsLastTile#RUN_STRIDE} apart, read straight from the input, zeros
 * outside it); per point and column block of 32 filters, one {@link ChannelsLastTile#run12} tile over the channels against
 * the transformed kernel ({@link #packKernel}; with AVX2, blocks of 16 filters in two {@link ChannelsLastTile#run6} tiles); then the output transform per tile and 16 filters, the bias
 * added to the rounded result, the ReLU ({@code z <= 0 ? +0 : z}, NaN stays) and the mask ({@code z <= 0}), stored in place.
 *
 * <p>Not the direct form's summation (no bit claim: {@code ChannelsLastWinogradTest} checks it against the definition in
 * double). Non-finite values: as {@link WinogradConvF32}, when any conv result (before the bias) of a stored output is
 * not finite, {@link #forward} returns null and the caller runs the direct form.
 */
final class ChannelsLastWinogradF32 {
    private ChannelsLastWinogradF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** A byte per float lane: the mask's stores (128 bits with 512-bit vectors, 64 with AVX2). */
    private static final VectorSpecies<Byte> MASK_BYTES = VectorSpecies.of(byte.class, jdk.incubator.vector.VectorShape.forBitSize(L * 8));
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final int W = ChannelsLastTile.COLS, T = ChannelsLastTile.RUN12_ROWS, RS = ChannelsLastTile.RUN_STRIDE, POINTS = 16;
    /**
     * Whether {@link ChannelsLastConvs} tries this form first (off with {@link WinogradConvF32}'s switch, {@code
     * -Djburn.directconv.winograd=false}); with 16 or 8 float lanes ({@link #WIDE}), the widths it has run on (as
     * {@link WinogradConvF32#ON}); other widths (128-bit vectors) keep the direct form.
     */
    static final boolean ON = (L == 16 || L == 8) && !"false".equals(System.getProperty("jburn.directconv.winograd"));
    /** Input channels from which the transforms pay for themselves (as {@link WinogradConvF32}'s). */
    static final int MIN_CHANNELS = 16;
    /**
     * Whether the point GEMMs run as {@link ChannelsLastTile#run12} (512-bit vectors: 32 registers hold its 24 accumulators),
     * else as {@link ChannelsLastTile#run6} tiles (AVX2: run12 spilled there, and this form ran 1.6x slower than the direct
     * one on conv 2's forward; with run6 1.3x faster, ConvTileTiming, 2026-12-07).
     */
    static final boolean WIDE = L >= 16;

    /**
     * Whether {@link #forward} takes this conv (it may still decline one with non-finite results): 2 spatial axes, a 3×3
     * kernel, unit strides, no dilation, no groups, no negative padding, channels a multiple of 16 from 16 to
     * {@link ChannelsLastTile#RUN_STRIDE}, filters a multiple of 32, outputs at least 2×2, and {@link #MIN_GAIN_NUM fewer
     * products} than the direct form.
     */
    static boolean applies(Shape xs, Shape ks, ConvSpec spec) {
        if (!ON || spec.spatialRank() != 2 || !ChannelsLastConvF32.applies(spec) || xs.rank() != 4 || ks.rank() != 4) return false;
        int c = xs.dim(3), o = ks.dim(0);
        if (c < MIN_CHANNELS || c % L != 0 || c > RS || ks.dim(1) != c || o == 0 || o % W != 0 || xs.dim(0) == 0) return false;
        for (int i = 0; i < 2; i++) {
            if (ks.dim(2 + i) != 3 || spec.strides()[i] != 1 || spec.kernelDilation()[i] != 1 || spec.padLow()[i] < 0
                    || spec.padHigh()[i] < 0 || (long) xs.dim(1 + i) + spec.padLow()[i] + spec.padHigh()[i] - 2 < 2) {
                return false;
            }
        }
        // the direct forms skip the products on the padding: on the input cotangent of a valid conv (padding 2, 11×11 → 13×13
        // for conv 2) Winograd's 16 per tile and channel are only 1.39x fewer, and its transforms ate that
        long tiles = (long) ((xs.dim(1) + spec.padLow()[0] + spec.padHigh()[0] - 1) / 2) * ((xs.dim(2) + spec.padLow()[1] + spec.padHigh()[1] - 1) / 2);
        if (tiles * POINTS * MIN_GAIN_DEN > realProducts(xs.dim(1), spec.padLow()[0], spec.padHigh()[0])
                * realProducts(xs.dim(2), spec.padLow()[1], spec.padHigh()[1]) * MIN_GAIN_NUM) {
            return false;
        }
        // int indexing: the input, the output and a task's scratch (at most 13 padded images: 2 + 11 / tiles an image)
        long ph = xs.dim(1) + spec.padLow()[0] + spec.padHigh()[0] + 2L, pw = xs.dim(2) + spec.padLow()[1] + spec.padHigh()[1] + 2L;
        long outs = (long) xs.dim(0) * (ph - 4) * (pw - 4) * o, scratch = 13 * ph * pw * c + POINTS * ((T * RS + L) + (T * (long) o + L));
        return (long) xs.dim(0) * xs.dim(1) * xs.dim(2) * c < Integer.MAX_VALUE && outs < Integer.MAX_VALUE && scratch < Integer.MAX_VALUE - 64;
    }

    /**
     * Winograd's products per channel and filter (16 a tile) must be at most {@code NUM/DEN} of the direct form's. With
     * 512-bit vectors 1.6x fewer: conv 2's forward (1.89x fewer) ran 1.1-1.3x faster alone, its input cotangent (1.39x) 5-20%
     * slower, against the direct forms' 12-row tiles and the scatter form, which skips every product on the padding
     * ({@code ConvTileTiming}, one and two threads, 2026-12-07). With AVX2 1.33x fewer: there the direct form is the 6-row
     * tiles, which skip whole kernel rows on the padding but not columns (conv 2's input cotangent: 1287 products for 1089),
     * and the input cotangent ran 1.2-1.4x faster through this form (ConvTileTiming, 2 threads, AMD EPYC, 2026-12-07). (With
     * AVX2, {@link ChannelsLastConvs} now tries {@link ChannelsLastWinograd4x4F32} first: for a plain conv, the input
     * cotangent, and for one this method applies to, conv 2's forward.)
     */
    static final int MIN_GAIN_NUM = WIDE ? 5 : 3, MIN_GAIN_DEN = WIDE ? 8 : 4;

    /** Per axis of {@code size} padded by {@code lo, hi}: the (output, tap) pairs of a 3-tap window on the input, not the padding. */
    static long realProducts(int size, int lo, int hi) {
        long pairs = 0;
        for (int out = 0; out < size + lo + hi - 2; out++) {
            for (int t = 0; t < 3; t++) {
                int at = out + t - lo;
                if (at >= 0 && at < size) pairs++;
            }
        }
        return pairs;
    }

    /**
     * The conv as {@link ChannelsLastConvF32#forward} gives it (the same buffers: with {@code relu && mask}, the mask first),
     * but Winograd's rounding; null when a conv result is not finite (the caller runs the direct form).
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel) {
        final int n = xs.dim(0), h = xs.dim(1), w = xs.dim(2), c = xs.dim(3), o = ks.dim(0);
        final int lo0 = spec.padLow()[0], lo1 = spec.padLow()[1];
        final int ho = h + lo0 + spec.padHigh()[0] - 2, wo = w + lo1 + spec.padHigh()[1] - 2;
        final int ty = (ho + 1) / 2, tx = (wo + 1) / 2, perImage = ty * tx, blocks = o / W;
        final int vPoint = T * RS + L, mPoint = T * o + L; // a point's rows, a line past the last: the 16 points' streams in different L1 sets
        final int mAt = POINTS * vPoint, scratch = mAt + POINTS * mPoint;
        final int[] steps = new int[c];
        for (int i = 0; i < c; i++) steps[i] = i;
        final float[] bv = bias == null ? null : bias.toArray(FL);
        final boolean keepMask = relu && mask, reluOnly = relu && !mask;
        // the transformed kernel: native and aligned for run12, a heap array for run6
        final float[] uh = WIDE ? null : packKernelFloats(k, o, c, blocks);
        HostBuffer u = WIDE ? packKernel(k, o, c, blocks) : null;
        HostBuffer result = HostBuffer.uninitialized((long) n * ho * wo * o * Float.BYTES);
        HostBuffer maskResult = keepMask ? HostBuffer.uninitialized((long) n * ho * wo * o) : null;
        MemorySegment us = u == null ? null : u.segment(), dst = result.segment(), maskDst = keepMask ? maskResult.segment() : null;
        boolean[] notFinite = new boolean[1];
        final int ph = 2 * ty + 2, pw = 2 * tx + 2, padded = ph * pw * c; // a padded image: every tile's patch inside
        final int ring = 2 + (T - 1) / perImage; // padded images a chunk of T tiles may need at once, and the next one's
        try {
            parallel.forRange(n, (long) ho * wo * o * c * 9, (lo, hi) -> {
                float[] a = Scratch.floats(scratch + ring * padded);
                float[] bad = new float[L];
                float[] zeros = new float[o];
                long first = lo * perImage, end = hi * perImage;
                int filled = (int) lo - 1; // the last image whose padded image is in the ring
                // the padding: zeros once a task (every image's input rows then overwrite the same places)
                java.util.Arrays.fill(a, scratch, scratch + ring * padded, 0f);
                for (long t0 = first; t0 < end; t0 += T) {
                    int count = (int) Math.min(T, end - t0);
                    int last = (int) ((t0 + count - 1) / perImage);
                    for (; filled < last; filled++) {
                        fill(x, filled + 1, h, w, c, lo0, lo1, pw, a, scratch + (filled + 1) % ring * padded);
                    }
                    for (int i = 0; i < count; i++) {
                        long t = t0 + i;
                        int b = (int) (t / perImage), local = (int) (t % perImage);
                        int from = scratch + b % ring * padded + (2 * (local / tx) * pw + 2 * (local % tx)) * c;
                        for (int cv = 0; cv < c; cv += L) transformInput(a, from + cv, pw * c, c, i * RS + cv, vPoint);
                    }
                    for (int p = 0; p < POINTS; p++) {
                        for (int blk = 0; blk < blocks; blk++) {
                            long uAt = ((long) p * uPoint(blocks, c) + (long) blk * c * W) * Float.BYTES;
                            int mRow = mAt + p * mPoint + blk * W;
                            if (WIDE) {
                                ChannelsLastTile.run12(a, p * vPoint, steps, c, us, uAt, a, mRow, o);
                            } else {
                                for (int r = 0; r < count; r += ChannelsLastTile.ROWS) {
                                    ChannelsLastTile.run6(a, p * vPoint + r * RS, c, uh, (int) (uAt / Float.BYTES), a, mRow + r * o, o);
                                }
                            }
                        }
                    }
                    for (int i = 0; i < count; i++) {
                        long t = t0 + i;
                        int b = (int) (t / perImage), local = (int) (t % perImage);
                        int oy = 2 * (local / tx), ox = 2 * (local % tx);
                        long at = ((long) (b * ho + oy) * wo + ox) * o; // output (oy, ox)'s first filter
                        boolean right = ox + 1 < wo, below = oy + 1 < ho;
                        for (int v = 0; v < o; v += L) {
                            transformOutput(a, mAt + i * o + v, mPoint, dst, maskDst, at + v, o, (long) wo * o, right, below,
                                    bv == null ? zeros : bv, v, bv != null, reluOnly, keepMask, bad);
                        }
                    }
                }
                for (float v : bad) if (v != v) notFinite[0] = true; // NaN: some y - y was not 0
            });
        } catch (RuntimeException | Error e) {
            result.release();
            if (maskResult != null) maskResult.release();
            throw e;
        } finally {
            if (u != null) u.release();
        }
        if (notFinite[0]) {
            result.release();
            if (maskResult != null) maskResult.release();
            return null;
        }
        return keepMask ? List.of(maskResult, result) : List.of(result);
    }

    /**
     * {@link WinogradConvF32#packKernel}'s transformed kernel ({@code U = G g Gᵀ} in double, rounded once: the same bits)
     * for one group, {@code [point][block of 32 filters][channel][32]} in 64-byte aligned native memory, the points
     * {@link #uPoint} floats apart. One (filter, channel) pair a step writes its 16 points: with the points a multiple of
     * 4 KB apart (conv 2: 8 KB) those 16 lines fell in one L1 set of 12 ways and every store missed, ~0.12 ms a call (a
     * serial step before the tasks, ~2 ms on two threads); a line more between them and the channels outer, ~0.06.
     */
    static HostBuffer packKernel(MemorySegment k, int o, int c, int blocks) {
        float[] u = packKernelFloats(k, o, c, blocks);
        HostBuffer b = HostBuffer.uninitialized((long) u.length * Float.BYTES);
        MemorySegment.copy(u, 0, b.segment(), FL, 0, u.length);
        return b;
    }

    /** {@link #packKernel}'s floats in a heap array. */
    static float[] packKernelFloats(MemorySegment k, int o, int c, int blocks) {
        int point = uPoint(blocks, c);
        float[] src = new float[o * c * 9], u = new float[POINTS * point];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        for (int ch = 0; ch < c; ch++) {
            for (int f = 0; f < o; f++) { // each point's lines written in order
                int at = (f / W * c + ch) * W + f % W, s = (f * c + ch) * 9;
                double k00 = src[s], k01 = src[s + 1], k02 = src[s + 2];
                double k10 = src[s + 3], k11 = src[s + 4], k12 = src[s + 5];
                double k20 = src[s + 6], k21 = src[s + 7], k22 = src[s + 8];
                // G g: the rows combined
                double r10 = (k00 + k10 + k20) / 2, r11 = (k01 + k11 + k21) / 2, r12 = (k02 + k12 + k22) / 2;
                double r20 = (k00 - k10 + k20) / 2, r21 = (k01 - k11 + k21) / 2, r22 = (k02 - k12 + k22) / 2;
                // (G g) Gᵀ: then the columns of each of its rows (k0·, r1·, r2·, k2·), point 4·row + column
                u[at] = (float) k00;
                u[at + point] = (float) ((k00 + k01 + k02) / 2);
                u[at + 2 * point] = (float) ((k00 - k01 + k02) / 2);
                u[at + 3 * point] = (float) k02;
                u[at + 4 * point] = (float) r10;
                u[at + 5 * point] = (float) ((r10 + r11 + r12) / 2);
                u[at + 6 * point] = (float) ((r10 - r11 + r12) / 2);
                u[at + 7 * point] = (float) r12;
                u[at + 8 * point] = (float) r20;
                u[at + 9 * point] = (float) ((r20 + r21 + r22) / 2);
                u[at + 10 * point] = (float) ((r20 - r21 + r22) / 2);
                u[at + 11 * point] = (float) r22;
                u[at + 12 * point] = (float) k20;
                u[at + 13 * point] = (float) ((k20 + k21 + k22) / 2);
                u[at + 14 * point] = (float) ((k20 - k21 + k22) / 2);
                u[at + 15 * point] = (float) k22;
            }
        }
        return u;
    }

    /** Floats between the points of the packed kernel: a line past its {@code blocks·c·W} (see {@link #packKernel}). */
    static int uPoint(int blocks, int c) { return blocks * c * W + L; }

    /**
     * Image {@code b}'s rows into the zero-padded image at {@code a[at ..]} ({@code [ph][pw][c]}, input element
     * {@code (iy, ix)} at padded {@code (iy + lo0, ix + lo1)}; its padding already zero): each row one run of {@code w·c} floats.
     */
    private static void fill(MemorySegment x, int b, int h, int w, int c, int lo0, int lo1, int pw, float[] a, int at) {
        for (int iy = 0; iy < h; iy++) {
            MemorySegment.copy(x, FL, (((long) b * h + iy) * w) * c * Float.BYTES, a, at + ((iy + lo0) * pw + lo1) * c, w * c);
        }
    }

    /**
     * {@code Bᵀ d B} of the 4×4 patch {@code d} from {@code a[p]} (rows {@code rowPitch}, columns {@code c} floats apart;
     * 16 channels a vector) into {@code a[v + point·pointStride]}, the same transform as {@link WinogradConvF32}'s.
     */
    private static void transformInput(float[] a, int p, int rowPitch, int c, int v, int pointStride) {
        FloatVector t00, t01, t02, t03, t10, t11, t12, t13, t20, t21, t22, t23, t30, t31, t32, t33, d0, d1, d2, d3;
        d0 = FloatVector.fromArray(S, a, p); d1 = FloatVector.fromArray(S, a, p + c);
        d2 = FloatVector.fromArray(S, a, p + 2 * c); d3 = FloatVector.fromArray(S, a, p + 3 * c);
        t00 = d0.sub(d2); t01 = d1.add(d2); t02 = d2.sub(d1); t03 = d1.sub(d3);
        p += rowPitch;
        d0 = FloatVector.fromArray(S, a, p); d1 = FloatVector.fromArray(S, a, p + c);
        d2 = FloatVector.fromArray(S, a, p + 2 * c); d3 = FloatVector.fromArray(S, a, p + 3 * c);
        t10 = d0.sub(d2); t11 = d1.add(d2); t12 = d2.sub(d1); t13 = d1.sub(d3);
        p += rowPitch;
        d0 = FloatVector.fromArray(S, a, p); d1 = FloatVector.fromArray(S, a, p + c);
        d2 = FloatVector.fromArray(S, a, p + 2 * c); d3 = FloatVector.fromArray(S, a, p + 3 * c);
        t20 = d0.sub(d2); t21 = d1.add(d2); t22 = d2.sub(d1); t23 = d1.sub(d3);
        p += rowPitch;
        d0 = FloatVector.fromArray(S, a, p); d1 = FloatVector.fromArray(S, a, p + c);
        d2 = FloatVector.fromArray(S, a, p + 2 * c); d3 = FloatVector.fromArray(S, a, p + 3 * c);
        t30 = d0.sub(d2); t31 = d1.add(d2); t32 = d2.sub(d1); t33 = d1.sub(d3);
        t00.sub(t20).intoArray(a, v); t01.sub(t21).intoArray(a, v + pointStride);
        t02.sub(t22).intoArray(a, v + 2 * pointStride); t03.sub(t23).intoArray(a, v + 3 * pointStride);
        t10.add(t20).intoArray(a, v + 4 * pointStride); t11.add(t21).intoArray(a, v + 5 * pointStride);
        t12.add(t22).intoArray(a, v + 6 * pointStride); t13.add(t23).intoArray(a, v + 7 * pointStride);
        t20.sub(t10).intoArray(a, v + 8 * pointStride); t21.sub(t11).intoArray(a, v + 9 * pointStride);
        t22.sub(t12).intoArray(a, v + 10 * pointStride); t23.sub(t13).intoArray(a, v + 11 * pointStride);
        t10.sub(t30).intoArray(a, v + 12 * pointStride); t11.sub(t31).intoArray(a, v + 13 * pointStride);
        t12.sub(t32).intoArray(a, v + 14 * pointStride); t13.sub(t33).intoArray(a, v + 15 * pointStride);
    }

    /**
     * A tile's 2×2 outputs of 16 filters, {@code Aᵀ m A} of its 16 point sums ({@code a[m + point·pStride]}), each the conv
     * result, then {@code + bias} (with {@code addBias}: lanes {@code bAt ..}), then the ReLU, or the mask {@code z <= 0}
     * and the ReLU ({@code z <= 0 ? +0 : z}, NaN stays), stored at float {@code at} of {@code dst} (the next position
     * {@code o} floats on, the row below {@code rowPitch} on) where inside the output; {@code y - y} of the stored conv
     * results added to {@code bad}. No vector crosses this method's boundary (a call C2 does not inline would box it).
     */
    private static void transformOutput(float[] a, int m, int pStride, MemorySegment dst, MemorySegment maskDst, long at, int o, long rowPitch,
                                        boolean right, boolean below, float[] bias, int bAt, boolean addBias, boolean relu, boolean keepMask,
                                        float[] bad) {
        FloatVector m00 = FloatVector.fromArray(S, a, m), m01 = FloatVector.fromArray(S, a, m + pStride);
        FloatVector m02 = FloatVector.fromArray(S, a, m + 2 * pStride), m03 = FloatVector.fromArray(S, a, m + 3 * pStride);
        FloatVector m10 = FloatVector.fromArray(S, a, m + 4 * pStride), m11 = FloatVector.fromArray(S, a, m + 5 * pStride);
        FloatVector m12 = FloatVector.fromArray(S, a, m + 6 * pStride), m13 = FloatVector.fromArray(S, a, m + 7 * pStride);
        FloatVector m20 = FloatVector.fromArray(S, a, m + 8 * pStride), m21 = FloatVector.fromArray(S, a, m + 9 * pStride);
        FloatVector m22 = FloatVector.fromArray(S, a, m + 10 * pStride), m23 = FloatVector.fromArray(S, a, m + 11 * pStride);
        FloatVector m30 = FloatVector.fromArray(S, a, m + 12 * pStride), m31 = FloatVector.fromArray(S, a, m + 13 * pStride);
        FloatVector m32 = FloatVector.fromArray(S, a, m + 14 * pStride), m33 = FloatVector.fromArray(S, a, m + 15 * pStride);
        // Aᵀ over the patch rows: s0 = m0 + m1 + m2, s1 = m1 - m2 - m3; then over the columns
        FloatVector s00 = m00.add(m10).add(m20), s01 = m01.add(m11).add(m21), s02 = m02.add(m12).add(m22), s03 = m03.add(m13).add(m23);
        FloatVector s10 = m10.sub(m20).sub(m30), s11 = m11.sub(m21).sub(m31), s12 = m12.sub(m22).sub(m32), s13 = m13.sub(m23).sub(m33);
        FloatVector y00 = s00.add(s01).add(s02), y01 = s01.sub(s02).sub(s03), y10 = s10.add(s11).add(s12), y11 = s11.sub(s12).sub(s13);
        // outputs past the last column or row: stored nowhere, so they take a stored neighbour's values (and place)
        if (!right) {
            y01 = y00;
            y11 = y10;
        }
        if (!below) {
            y10 = y00;
            y11 = y01;
        }
        FloatVector.fromArray(S, bad, 0).add(y00.sub(y00)).add(y01.sub(y01)).add(y10.sub(y10)).add(y11.sub(y11)).intoArray(bad, 0);
        FloatVector zero = FloatVector.zero(S);
        if (addBias) {
            FloatVector bv = FloatVector.fromArray(S, bias, bAt);
            y00 = y00.add(bv);
            y01 = y01.add(bv);
            y10 = y10.add(bv);
            y11 = y11.add(bv);
        }
        long right1 = right ? o : 0, below1 = below ? rowPitch : 0;
        if (keepMask) {
            ByteVector one = ByteVector.broadcast(MASK_BYTES, (byte) 1), none = ByteVector.zero(MASK_BYTES);
            none.blend(one, y00.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at, ORDER);
            none.blend(one, y01.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at + right1, ORDER);
            none.blend(one, y10.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at + below1, ORDER);
            none.blend(one, y11.compare(VectorOperators.LE, zero).cast(MASK_BYTES))
                    .intoMemorySegment(maskDst, at + below1 + right1, ORDER);
        }
        if (relu || keepMask) { // z <= 0 ? +0 : z (NaN stays)
            y00 = y00.blend(zero, y00.compare(VectorOperators.LE, zero));
            y01 = y01.blend(zero, y01.compare(VectorOperators.LE, zero));
            y10 = y10.blend(zero, y10.compare(VectorOperators.LE, zero));
            y11 = y11.blend(zero, y11.compare(VectorOperators.LE, zero));
        }
        y00.intoMemorySegment(dst, at * Float.BYTES, ORDER);
        y01.intoMemorySegment(dst, (at + right1) * Float.BYTES, ORDER);
        y10.intoMemorySegment(dst, (at + below1) * Float.BYTES, ORDER);
        y11.intoMemorySegment(dst, (at + below1 + right1) * Float.BYTES, ORDER);
    }
}
