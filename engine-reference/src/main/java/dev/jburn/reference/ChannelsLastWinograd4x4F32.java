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
 * A channels-last 3×3 conv ({@code [N, H, W, C]} → {@code [N, Ho, Wo, O]}: the small CNN's conv 2 input cotangent, a conv
 * of the cotangent padded by 2 with the flipped kernel, and its forward with the layer's bias, ReLU and mask, as
 * {@link ChannelsLastWinogradF32#forward} applies them) by Winograd F(4×4, 3×3), with AVX2 and AVX-512: 36
 * products per channel and filter of a 4×4 block of outputs (a "tile"), where {@link ChannelsLastWinogradF32}'s F(2×2, 3×3)
 * has 64 and the direct form 144. The same structure as that class (the padded images in heap scratch, the input
 * transform to {@code V[point][tile][channel]}, per point {@link ChannelsLastTile#run6} tiles (two column blocks at once, {@link ChannelsLastTile#run6Pair},
 * with 16 lanes) against the transformed
 * kernel, the output transform per tile and {@code L} filters, then the bias, ReLU and mask, stored in place), plus one
 * saving of its own:
 *
 * <p><b>Edge tiles.</b> When the last tile row has a single output row inside the output and its patch's rows 1-5 lie in
 * the padding (conv 2's input cotangent: 13 output rows, tiles at 0, 4, 8, 12; the last patch reads padded rows 12-17 of
 * which only 12 holds the cotangent), that patch's transform has one non-zero point row ({@code Bᵀ}'s first column is
 * {@code (4, 0, 0, 0, 0, 0)}), so those tiles run the point GEMMs of 6 points, not 36 (the corner tile 1), and their
 * output transforms one row. Conv 2's input cotangent: 361 products per image and (channel, filter) instead of 576 (and
 * F(2×2)'s 784). Tiles are therefore run by class (full, last row, last column, corner), {@link #GROUP} images at a time,
 * in chunks of at most {@link ChannelsLastTile#ROWS} tiles of one class.
 *
 * <p>Not the direct form's summation: {@code ChannelsLastWinograd4x4Test} checks it against the definition in double. The
 * transformed kernel ({@code U = G g Gᵀ}) is computed in double and rounded once. Non-finite values: when any stored
 * output's conv result (before the bias) is not finite, {@link #forward} returns null and the caller runs another form
 * (the transforms mix a patch's values).
 */
final class ChannelsLastWinograd4x4F32 {
    private ChannelsLastWinograd4x4F32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    /** A byte per float lane: the mask's stores (64 bits with AVX2). */
    private static final VectorSpecies<Byte> MASK_BYTES = VectorSpecies.of(byte.class, jdk.incubator.vector.VectorShape.forBitSize(L * 8));
    private static final int W = ChannelsLastTile.COLS, R = ChannelsLastTile.ROWS, RS = ChannelsLastTile.RUN_STRIDE, POINTS = 36;
    /** Images whose tiles are run together by class (conv 2's cotangent: 18 full tiles, 6 of the last row, 6 of the last column). */
    static final int GROUP = 2;
    /**
     * Whether {@link ChannelsLastConvs} tries this form first (a plain conv, or one with a bias and ReLU that
     * {@link ChannelsLastWinogradF32} would take): with 8 or 16 float lanes ({@link #widthOn}), off with
     * {@link ChannelsLastWinogradF32#ON}'s switch or {@code -Djburn.winograd4x4=false}.
     */
    static final boolean ON = widthOn(L) && ChannelsLastWinogradF32.ON;

    /**
     * {@code -Djburn.winograd4x4} ({@link WidthSwitch}): unset, F(4×4, 3×3) runs with {@code lanes} of 8 (AVX2) or 16
     * (AVX-512), the widths it was measured on. Shared with {@link WinogradConvF32#F4}. On a 2-core AVX-512 Xeon (Emerald
     * Rapids, 2026-12-07, both forms alternating in one JVM, two threads; bench/gemm-lab {@code ChannelsLast4Lab},
     * {@code Winograd4Lab}), F(4×4) ÷ F(2×2) time: the small CNN's conv 2 forward 0.874, its input cotangent 0.728, the
     * ResNet-like NCHW forward 0.945-0.971.
     */
    static boolean widthOn(int lanes) {
        return WidthSwitch.on("jburn.winograd4x4", lanes == 8 || lanes == 16);
    }
    /** The points that are non-zero per tile class: full, last row (point row 0), last column (point column 0), corner. */
    private static final int[][] CLASS_POINTS = {
        java.util.stream.IntStream.range(0, POINTS).toArray(), {0, 1, 2, 3, 4, 5}, {0, 6, 12, 18, 24, 30}, {0}};

    /** Whether {@link #forward} takes this conv (it may still decline one with non-finite results). */
    static boolean applies(Shape xs, Shape ks, ConvSpec spec) {
        if (!ON || !fits(xs, ks, spec) || xs.dim(3) < ChannelsLastWinogradF32.MIN_CHANNELS) return false;
        // F(2×2)'s rule: at most NUM/DEN of the direct form's products on the input (a plain conv reaches here without
        // F(2×2)'s own check; small images, whose 4×4 tiles are mostly past the output, go to the other forms)
        long direct = 1, winograd = 1;
        for (int i = 0; i < 2; i++) {
            int size = xs.dim(1 + i), lo = spec.padLow()[i], hi = spec.padHigh()[i], out = size + lo + hi - 2, tiles = (out + 3) / 4;
            direct *= ChannelsLastWinogradF32.realProducts(size, lo, hi);
            winograd *= edge(size, lo, out, tiles) ? 6L * (tiles - 1) + 1 : 6L * tiles; // point rows: 6 a tile, 1 an edge tile
        }
        return winograd * ChannelsLastWinogradF32.MIN_GAIN_DEN <= direct * ChannelsLastWinogradF32.MIN_GAIN_NUM;
    }

    /**
     * Whether {@link #forward} can run it, at any vector width: 2 spatial axes, a 3×3 kernel, unit strides, no dilation or
     * groups, padding 0-2 a side, channels a multiple of {@code L} up to {@link ChannelsLastTile#RUN_STRIDE}, filters a
     * multiple of {@link ChannelsLastTile#COLS}, an output of at least 1×1, int indexing.
     */
    static boolean fits(Shape xs, Shape ks, ConvSpec spec) {
        if (spec.spatialRank() != 2 || !ChannelsLastConvF32.applies(spec) || xs.rank() != 4 || ks.rank() != 4) return false;
        int c = xs.dim(3), o = ks.dim(0);
        if (c == 0 || c % L != 0 || c > RS || ks.dim(1) != c || o == 0 || o % W != 0 || xs.dim(0) == 0) return false;
        for (int i = 0; i < 2; i++) {
            if (ks.dim(2 + i) != 3 || spec.strides()[i] != 1 || spec.kernelDilation()[i] != 1 || spec.padLow()[i] < 0 || spec.padLow()[i] > 2
                    || spec.padHigh()[i] < 0 || spec.padHigh()[i] > 2 || xs.dim(1 + i) == 0 || xs.dim(1 + i) > 1 << 17 || (long) xs.dim(1 + i) + spec.padLow()[i] + spec.padHigh()[i] - 2 < 1) {
                return false;
            }
        }
        long ph = xs.dim(1) + 8L, pw = xs.dim(2) + 8L; // at least the padded image's 4·tiles + 2
        long outs = (long) xs.dim(0) * (xs.dim(1) + 2) * (xs.dim(2) + 2) * o;
        long scratch = GROUP * ph * pw * c + POINTS * ((R * RS + L) + (R * (long) o + L)) + POINTS * L;
        return (long) xs.dim(0) * xs.dim(1) * xs.dim(2) * c < Integer.MAX_VALUE && outs < Integer.MAX_VALUE && scratch < Integer.MAX_VALUE - 64;
    }

    /** Per axis: whether its last tile has one output inside and a patch of which only element 0 is not padding (see the class comment). */
    private static boolean edge(int size, int lo, int out, int tiles) {
        return out == 4 * (tiles - 1) + 1 && 4 * (tiles - 1) + 1 >= lo + size;
    }

    /**
     * The conv ({@code z[b, oy, ox, f] = Σ x[b, oy + i - lo0, ox + j - lo1, ch] · k[f, ch, i, j]}, Winograd's rounding),
     * {@code + bias[f]} when {@code bias} is not null, then as {@link ChannelsLastWinogradF32#forward}: with {@code relu}
     * {@code z <= 0 ? +0 : z} (NaN stays), with {@code relu && mask} also the mask {@code z <= 0} (a byte each, 1 or 0),
     * returned first. Null when a conv result is not finite (the caller runs another form).
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel) {
        final int n = xs.dim(0), h = xs.dim(1), w = xs.dim(2), c = xs.dim(3), o = ks.dim(0);
        final int lo0 = spec.padLow()[0], lo1 = spec.padLow()[1];
        final int ho = h + lo0 + spec.padHigh()[0] - 2, wo = w + lo1 + spec.padHigh()[1] - 2;
        final int ty = (ho + 3) / 4, tx = (wo + 3) / 4, blocks = o / W;
        final boolean edgeY = edge(h, lo0, ho, ty), edgeX = edge(w, lo1, wo, tx);
        final int vPoint = R * RS + L, mPoint = R * o + L; // a line past a point's rows: the points' streams in different L1 sets
        final int mAt = POINTS * vPoint, tmpAt = mAt + POINTS * mPoint, padAt = tmpAt + POINTS * L;
        final int ph = 4 * ty + 2, pw = 4 * tx + 2, padded = ph * pw * c; // a padded image: every tile's 6×6 patch inside
        final int uPoint = blocks * c * W + L;
        final float[] u = packKernel(k, o, c, blocks);
        final int[][][] plans = {null, plan(1, ty, tx, edgeY, edgeX), plan(GROUP, ty, tx, edgeY, edgeX)};
        final float[] bv = bias == null ? new float[o] : bias.toArray(FL);
        final boolean addBias = bias != null, keepMask = relu && mask;
        HostBuffer result = HostBuffer.uninitialized((long) n * ho * wo * o * Float.BYTES);
        HostBuffer maskResult = keepMask ? HostBuffer.uninitialized((long) n * ho * wo * o) : null;
        MemorySegment dst = result.segment(), maskDst = keepMask ? maskResult.segment() : null;
        boolean[] notFinite = new boolean[1];
        try {
            parallel.forRange(n, (long) ho * wo * o * c * 9, (lo, hi) -> {
                float[] a = Scratch.floats(padAt + GROUP * padded);
                float[] bad = new float[L];
                java.util.Arrays.fill(a, padAt, padAt + GROUP * padded, 0f); // the padding, once a task
                for (long b0 = lo; b0 < hi; b0 += GROUP) {
                    int g = (int) Math.min(GROUP, hi - b0);
                    for (int i = 0; i < g; i++) fill(x, (int) b0 + i, h, w, c, lo0, lo1, pw, a, padAt + i * padded);
                    int[][] plan = plans[g];
                    int[] tb = plan[0], tyx = plan[1], chunks = plan[2];
                    for (int ch = 0; ch < chunks.length; ch += 3) {
                        int cls = chunks[ch], start = chunks[ch + 1], count = chunks[ch + 2];
                        for (int i = 0; i < count; i++) {
                            int t = start + i, y0 = 4 * (tyx[t] >>> 16), x0 = 4 * (tyx[t] & 0xFFFF);
                            int from = padAt + tb[t] * padded + (y0 * pw + x0) * c;
                            for (int cv = 0; cv < c; cv += L) {
                                int v = i * RS + cv;
                                switch (cls) {
                                    case 0 -> WinogradF43.transformInput(a, from + cv, pw * c, c, v, vPoint, tmpAt);
                                    case 1 -> WinogradF43.inputRow(a, from + cv, c, a, v, vPoint, 4f); // patch row 0: V[0][k] = 4 (Bᵀ d₀)ₖ
                                    case 2 -> WinogradF43.inputRow(a, from + cv, pw * c, a, v, 6 * vPoint, 4f); // column 0: V[j][0]
                                    default -> FloatVector.fromArray(S, a, from + cv).mul(16f).intoArray(a, v); // V[0][0] = 16 d₀₀
                                }
                            }
                        }
                        for (int p : CLASS_POINTS[cls]) {
                            int blk = 0;
                            if (ChannelsLastTile.PAIRS) {
                                for (; blk + 1 < blocks; blk += 2) {
                                    ChannelsLastTile.run6Pair(a, p * vPoint, c, u, p * uPoint + blk * c * W, p * uPoint + (blk + 1) * c * W,
                                            a, mAt + p * mPoint + blk * W, mAt + p * mPoint + (blk + 1) * W, o);
                                }
                            }
                            for (; blk < blocks; blk++) {
                                ChannelsLastTile.run6(a, p * vPoint, c, u, p * uPoint + blk * c * W, a, mAt + p * mPoint + blk * W, o);
                            }
                        }
                        for (int i = 0; i < count; i++) {
                            int t = start + i, y0 = 4 * (tyx[t] >>> 16), x0 = 4 * (tyx[t] & 0xFFFF);
                            int rows = Math.min(4, ho - y0), cols = Math.min(4, wo - x0);
                            long at = (((b0 + tb[t]) * ho + y0) * wo + x0) * o; // output (y0, x0)'s first filter
                            for (int f = 0; f < o; f += L) {
                                int m = mAt + i * o + f;
                                switch (cls) {
                                    case 0 -> {
                                        for (int kk = 0; kk < 6; kk++) WinogradF43.outputColumn(a, m + kk * mPoint, 6 * mPoint, tmpAt + kk * L, 6 * L);
                                        for (int r = 0; r < rows; r++) {
                                            outputRow(a, tmpAt + r * 6 * L, L, false, dst, maskDst, at + f + (long) r * wo * o, o, cols,
                                                    bv, f, addBias, relu, keepMask, bad);
                                        }
                                    }
                                    // one row: Aᵀ over point row 0; one column; the corner, whose one output is M[0][0]
                                    case 1 -> outputRow(a, m, mPoint, false, dst, maskDst, at + f, o, cols, bv, f, addBias, relu, keepMask, bad);
                                    case 2 -> outputRow(a, m, 6 * mPoint, false, dst, maskDst, at + f, (long) wo * o, rows, bv, f, addBias, relu,
                                            keepMask, bad);
                                    default -> outputRow(a, m, 0, true, dst, maskDst, at + f, o, 1, bv, f, addBias, relu, keepMask, bad);
                                }
                            }
                        }
                    }
                }
                for (float v : bad) if (v != v) notFinite[0] = true; // NaN: some y - y was not 0
            });
        } catch (RuntimeException | Error e) {
            result.release();
            if (maskResult != null) maskResult.release();
            throw e;
        }
        if (notFinite[0]) {
            result.release();
            if (maskResult != null) maskResult.release();
            return null;
        }
        return keepMask ? List.of(maskResult, result) : List.of(result);
    }

    /**
     * The order of a group of {@code g} images' tiles: {@code [0]} each tile's image in the group, {@code [1]} its tile row
     * and column ({@code ty << 16 | tx}), {@code [2]} chunks as (class, first tile, count) of at most {@link
     * ChannelsLastTile#ROWS} tiles of one class: the full tiles of all images, then those of the last row, of the last
     * column, the corners.
     */
    static int[][] plan(int g, int ty, int tx, boolean edgeY, boolean edgeX) {
        int fy = edgeY ? ty - 1 : ty, fx = edgeX ? tx - 1 : tx;
        int[] tb = new int[g * ty * tx], tyx = new int[g * ty * tx];
        java.util.List<Integer> chunks = new java.util.ArrayList<>();
        int t = 0;
        for (int cls = 0; cls < 4; cls++) {
            int yFrom = (cls & 1) == 0 ? 0 : fy, yTo = (cls & 1) == 0 ? fy : ty, xFrom = (cls & 2) == 0 ? 0 : fx, xTo = (cls & 2) == 0 ? fx : tx;
            int first = t;
            for (int b = 0; b < g; b++) {
                for (int y = yFrom; y < yTo; y++) {
                    for (int xx = xFrom; xx < xTo; xx++) {
                        tb[t] = b;
                        tyx[t++] = y << 16 | xx;
                    }
                }
            }
            for (int s = first; s < t; s += R) {
                chunks.add(cls);
                chunks.add(s);
                chunks.add(Math.min(R, t - s));
            }
        }
        return new int[][] {tb, tyx, chunks.stream().mapToInt(Integer::intValue).toArray()};
    }

    /**
     * The transformed kernel {@code U = G g Gᵀ} (6×6 a (filter, channel) pair, in double, rounded once) as {@code
     * [point][block of W filters][channel][W]}, the points {@code blocks·c·W + L} floats apart (a line more than their
     * size: {@link ChannelsLastWinogradF32#packKernel}'s finding), point {@code 6·j + k} at row {@code j}, column {@code k}.
     */
    static float[] packKernel(MemorySegment k, int o, int c, int blocks) {
        int point = blocks * c * W + L;
        float[] src = new float[o * c * 9], u = new float[POINTS * point];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        double[] gg = new double[18], t = new double[POINTS];
        for (int ch = 0; ch < c; ch++) {
            for (int f = 0; f < o; f++) {
                int at = (f / W * c + ch) * W + f % W;
                WinogradF43.transformKernel(src, (f * c + ch) * 9, gg, t);
                for (int p = 0; p < POINTS; p++) u[at + p * point] = (float) t[p];
            }
        }
        return u;
    }

    /** Image {@code b}'s rows into the zero-padded image at {@code a[at ..]} (as {@link ChannelsLastWinogradF32}'s). */
    private static void fill(MemorySegment x, int b, int h, int w, int c, int lo0, int lo1, int pw, float[] a, int at) {
        for (int iy = 0; iy < h; iy++) {
            MemorySegment.copy(x, FL, (((long) b * h + iy) * w) * c * Float.BYTES, a, at + ((iy + lo0) * pw + lo1) * c, w * c);
        }
    }

    /**
     * {@code Aᵀ (m₀ .. m₅)} ({@code a[in + j·inStride]}; with {@code single}, {@code m₀} alone: the corner tile's one
     * output), each the conv result, then {@code + bias} (with {@code addBias}: lanes {@code bAt ..}), then the ReLU, or the
     * mask {@code z <= 0} and the ReLU ({@code z <= 0 ? +0 : z}, NaN stays), as {@link ChannelsLastWinogradF32}'s
     * epilogue: the first {@code count} of its 4 outputs stored at floats {@code at + i·step} of {@code dst} (the mask at
     * bytes {@code at + i·step} of {@code maskDst}); {@code y - y} of the stored conv results added to {@code bad}. No vector
     * crosses a method boundary.
     */
    private static void outputRow(float[] a, int in, int inStride, boolean single, MemorySegment dst, MemorySegment maskDst, long at,
                                  long step, int count, float[] bias, int bAt, boolean addBias, boolean relu, boolean keepMask, float[] bad) {
        FloatVector m0 = FloatVector.fromArray(S, a, in), y0 = m0, y1 = m0, y2 = m0, y3 = m0;
        if (!single) {
            FloatVector m1 = FloatVector.fromArray(S, a, in + inStride), m2 = FloatVector.fromArray(S, a, in + 2 * inStride);
            FloatVector m3 = FloatVector.fromArray(S, a, in + 3 * inStride), m4 = FloatVector.fromArray(S, a, in + 4 * inStride);
            FloatVector m5 = FloatVector.fromArray(S, a, in + 5 * inStride);
            FloatVector two = FloatVector.broadcast(S, 2f), four = FloatVector.broadcast(S, 4f), eight = FloatVector.broadcast(S, 8f);
            FloatVector s12 = m1.add(m2), d12 = m1.sub(m2), s34 = m3.add(m4), d34 = m3.sub(m4);
            y0 = m0.add(s12).add(s34);
            // outputs past the last row or column: stored nowhere, so they take a stored one's value
            y1 = count > 1 ? d34.fma(two, d12) : y0;
            y2 = count > 2 ? s34.fma(four, s12) : y0;
            y3 = count > 3 ? d34.fma(eight, d12).add(m5) : y0;
        }
        FloatVector.fromArray(S, bad, 0).add(y0.sub(y0)).add(y1.sub(y1)).add(y2.sub(y2)).add(y3.sub(y3)).intoArray(bad, 0);
        if (addBias) {
            FloatVector b = FloatVector.fromArray(S, bias, bAt);
            y0 = y0.add(b);
            y1 = y1.add(b);
            y2 = y2.add(b);
            y3 = y3.add(b);
        }
        FloatVector zero = FloatVector.zero(S);
        if (keepMask) {
            ByteVector one = ByteVector.broadcast(MASK_BYTES, (byte) 1), none = ByteVector.zero(MASK_BYTES);
            none.blend(one, y0.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at, ORDER);
            if (count > 1) none.blend(one, y1.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at + step, ORDER);
            if (count > 2) none.blend(one, y2.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at + 2 * step, ORDER);
            if (count > 3) none.blend(one, y3.compare(VectorOperators.LE, zero).cast(MASK_BYTES)).intoMemorySegment(maskDst, at + 3 * step, ORDER);
        }
        if (relu) { // z <= 0 ? +0 : z (NaN stays)
            y0 = y0.blend(zero, y0.compare(VectorOperators.LE, zero));
            y1 = y1.blend(zero, y1.compare(VectorOperators.LE, zero));
            y2 = y2.blend(zero, y2.compare(VectorOperators.LE, zero));
            y3 = y3.blend(zero, y3.compare(VectorOperators.LE, zero));
        }
        y0.intoMemorySegment(dst, at * Float.BYTES, ORDER);
        if (count > 1) y1.intoMemorySegment(dst, (at + step) * Float.BYTES, ORDER);
        if (count > 2) y2.intoMemorySegment(dst, (at + 2 * step) * Float.BYTES, ORDER);
        if (count > 3) y3.intoMemorySegment(dst, (at + 3 * step) * Float.BYTES, ORDER);
    }
}
