package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link WinogradKernelCotangentF32}'s F(3, 2) on channels-last tensors with 256-bit vectors (AVX2), the small CNN's conv 2
 * kernel cotangent: {@code dk[s, t, c, f] = Σ_{n, h, w} xp[n, h + s, w + t, c] · g[n, h, w, f]} ({@code xp} the zero-padded
 * input, {@code [N, H, W, C]}; {@code g} the cotangent {@code [N, Ho, Wo, O]}; the result HWIO {@code [3, 3, C, O]}, as
 * {@link ChannelsLastConvF32#kernelGradient}) over 2×2 blocks of the cotangent (an odd cotangent padded with a zero row and
 * column): per block and (c, f), 16 products where the direct form has 36 (conv 2: 36 blocks of 11×11 positions, 576
 * against 1089). Transforms, per axis (points 0, 1, -1, ∞): input {@code x0 - x2, x1 + x2, x2 - x1, x3 - x1}, cotangent
 * {@code g0, (g0 + g1)/2, (g0 - g1)/2, g1}, output {@code m0 + m1 + m2, m1 - m2, m1 + m2 + m3}. Channels-last suits them:
 * a tile element's channels and a block element's filters are vector loads, as in {@link ChannelsLastWinogradF32}.
 *
 * <p>Per image: the zero-padded input and cotangent copied to heap scratch (their padding zeroed once a part); the input
 * transform to {@code V[point][block][c]} and the cotangent's to {@code G[point][block][f]}, rows {@link #VS} and {@link #GS} floats
 * apart; per point, 6 filters × 16 channels tiles
 * ({@link #tile}: 12 accumulators, the 16 vector registers of AVX2) continue the part's sums {@code M[point][f][c]} over
 * the image's blocks. The images are cut into {@link #PARTS} parts (a fixed count: the result does not depend on the
 * thread count) claimed by the participants, added in order at the end, then transformed back.
 *
 * <p>Not the direct form's summation (no bit claim; {@code ChannelsLastWinogradTest} checks it against the definition in
 * double). Non-finite values: a NaN or infinity in either operand (or an overflow) reaches some output as NaN or ±Inf,
 * where the definition may differ, so {@link #kernelGradient} returns null when any output is not finite and the caller
 * runs the direct form. With 512-bit vectors the direct form's 12-row panels serve (not measured against this).
 */
final class ChannelsLastWinogradKernelCotangentF32 {
    private ChannelsLastWinogradKernelCotangentF32() {}

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final int POINTS = 16;
    /**
     * Floats between blocks in the transformed input (at least the channels) and cotangent (at least the filters):
     * constants, so that C2 takes the tile's range checks out of its loop, and not multiples of 64 bytes' powers of two:
     * with 64 for both (256 bytes, a quarter of L1's sets) a point's operands thrashed L1 and the products ran at ~55% of
     * the fma peak.
     */
    static final int VS = 48, GS = 80;
    /** Filters a tile: {@link #tile}'s rows. */
    private static final int ROWS = 6;
    /** Parts whose sums are added in order (a fixed count: results independent of the threads). */
    private static final int PARTS = 8;

    /**
     * Whether {@link #kernelGradient} takes this kernel cotangent (it may still decline non-finite results): on
     * {@link ChannelsLastWinogradF32#ON}, 256-bit vectors ({@link #fits}), 2 spatial axes, unit strides and dilations, a 3×3 kernel, padding
     * 0 or 1 a side and no tap that reads only padding (that tap is +0 by the definition, where the transforms leave a few
     * ulps of the others'),
     * channels a multiple of 16 and filters of 8, at most {@link #VS} and {@link #GS}, 16 channels or more.
     */
    static boolean applies(Shape xs, Shape gs, ConvSpec spec) {
        return ChannelsLastWinogradF32.ON && WIDTH_ON && fits(xs, gs, spec);
    }

    /**
     * {@code -Djburn.winogradKernelCotangent.channelsLast} ({@link WidthSwitch}): unset, this form runs on 8-lane vectors
     * (AVX2, where it was measured; with 16 lanes it made conv 2's kernel cotangent slower, 0.86 → 1.10 of torch's time).
     */
    static final boolean WIDTH_ON = WidthSwitch.on("jburn.winogradKernelCotangent.channelsLast", L == 8);

    /**
     * Whether {@link #kernelGradient} can compute this geometry at all (with any vector width: tests run it on AVX-512
     * too, where {@link #applies} leaves it to the direct form's panels): {@link #applies}' conditions but the vectors and
     * the switch, with channels a multiple of two vectors.
     */
    static boolean fits(Shape xs, Shape gs, ConvSpec spec) {
        if (spec.spatialRank() != 2 || !ChannelsLastConvF32.applies(spec) || xs.rank() != 4 || gs.rank() != 4 || xs.dim(0) != gs.dim(0)
                || xs.dim(0) == 0) return false;
        int c = xs.dim(3), o = gs.dim(3);
        if (c < 2 * L || c % (2 * L) != 0 || c > VS || o == 0 || o % L != 0 || o > GS) return false;
        for (int i = 0; i < 2; i++) {
            int lo = spec.padLow()[i], hi = spec.padHigh()[i];
            if (spec.strides()[i] != 1 || spec.kernelDilation()[i] != 1 || lo < 0 || lo > 1 || hi < 0 || hi > 1
                    || gs.dim(1 + i) < 1 || xs.dim(1 + i) + lo + hi - gs.dim(1 + i) + 1 != 3) return false;
            // every tap reads the input somewhere (an input of 1 padded by 1 a side: taps 0 and 2 read only padding)
            if (xs.dim(1 + i) + lo < 3 || xs.dim(1 + i) + hi < 3) return false;
        }
        long blocks = (long) ((gs.dim(1) + 1) / 2) * ((gs.dim(2) + 1) / 2);
        long scratch = POINTS * blocks * (VS + GS) + (2L * blocks + 4) * c * 4 + blocks * 4 * o + POINTS * (long) o * c;
        return (long) xs.dim(0) * xs.dim(1) * xs.dim(2) * c < Integer.MAX_VALUE && (long) gs.dim(0) * gs.dim(1) * gs.dim(2) * o < Integer.MAX_VALUE
                && scratch < Integer.MAX_VALUE - 64;
    }

    /** The kernel cotangent {@code [3, 3, C, O]} as {@link ChannelsLastConvF32#kernelGradient} gives it, but Winograd's rounding; null when an output is not finite. */
    static HostBuffer kernelGradient(MemorySegment x, Shape xs, MemorySegment g, Shape gs, ConvSpec spec, Parallel parallel) {
        final int n = xs.dim(0), h = xs.dim(1), w = xs.dim(2), c = xs.dim(3), ho = gs.dim(1), wo = gs.dim(2), o = gs.dim(3);
        final int lo0 = spec.padLow()[0], lo1 = spec.padLow()[1];
        final int by = (ho + 1) / 2, bx = (wo + 1) / 2, blocks = by * bx;
        final int ph = 2 * by + 2, pw = 2 * bx + 2; // the padded input: every block's 4×4 tile inside
        final int gh = 2 * by, gw = 2 * bx; // the padded cotangent
        final int vAt = 0, gAt = POINTS * blocks * VS, xAt = gAt + POINTS * blocks * GS, cAt = xAt + ph * pw * c, scratch = cAt + gh * gw * o;
        final int mSize = POINTS * o * c;
        final int parts = Math.min(n, PARTS);
        final float[][] partial = new float[parts][];
        AtomicInteger next = new AtomicInteger();
        Runnable participant = () -> {
            float[] a = Scratch.floats(scratch);
            boolean zeroed = false;
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                float[] m = partial[p] = new float[mSize];
                if (!zeroed) { // the padding of both copies: zeros once (every image overwrites the same inner places)
                    java.util.Arrays.fill(a, xAt, scratch, 0f);
                    zeroed = true;
                }
                for (long b = (long) p * n / parts; b < (long) (p + 1) * n / parts; b++) {
                    for (int iy = 0; iy < h; iy++) {
                        MemorySegment.copy(x, FL, ((b * h + iy) * w) * c * Float.BYTES, a, xAt + ((iy + lo0) * pw + lo1) * c, w * c);
                    }
                    for (int gy = 0; gy < ho; gy++) {
                        MemorySegment.copy(g, FL, ((b * ho + gy) * wo) * o * Float.BYTES, a, cAt + gy * gw * o, wo * o);
                    }
                    for (int blk = 0; blk < blocks; blk++) {
                        int ty = blk / bx, tx = blk % bx;
                        int from = xAt + (2 * ty * pw + 2 * tx) * c;
                        for (int cv = 0; cv < c; cv += L) transformInput(a, from + cv, pw * c, c, vAt + blk * VS + cv, blocks * VS);
                        int gFrom = cAt + (2 * ty * gw + 2 * tx) * o;
                        for (int fv = 0; fv < o; fv += L) transformCotangent(a, gFrom + fv, gw * o, o, gAt + blk * GS + fv, blocks * GS);
                    }
                    for (int pt = 0; pt < POINTS; pt++) {
                        int vPt = vAt + pt * blocks * VS, gPt = gAt + pt * blocks * GS;
                        for (int f0 = 0; f0 < o; f0 += ROWS) {
                            int rows = Math.min(ROWS, o - f0);
                            for (int cg = 0; cg < c; cg += 2 * L) {
                                tile(a, gPt + f0, rows, vPt + cg, blocks, m, (pt * o + f0) * c + cg, c);
                            }
                        }
                    }
                }
            }
        };
        parallel.runParticipants((long) n * ho * wo * o * c * 9, participant);
        // the parts in order, then A^T M A per (c, f)
        float[] sum = partial[0];
        for (int p = 1; p < parts; p++) {
            float[] q = partial[p];
            for (int i = 0; i < mSize; i++) sum[i] += q[i];
        }
        float[] dk = new float[9 * c * o];
        for (int f = 0; f < o; f++) {
            for (int ch = 0; ch < c; ch++) {
                float[] mm = new float[POINTS];
                for (int pt = 0; pt < POINTS; pt++) mm[pt] = sum[(pt * o + f) * c + ch];
                for (int s = 0; s < 3; s++) {
                    for (int t = 0; t < 3; t++) {
                        float v = outputTap(mm, s, t);
                        if (!Float.isFinite(v)) return null;
                        dk[((s * 3 + t) * c + ch) * o + f] = v;
                    }
                }
            }
        }
        HostBuffer result = HostBuffer.uninitialized((long) dk.length * Float.BYTES);
        MemorySegment.copy(dk, 0, result.segment(), FL, 0, dk.length);
        return result;
    }

    /** Tap {@code (s, t)} of {@code Aᵀ m A}: rows {@code m0 + m1 + m2, m1 - m2, m1 + m2 + m3} of the 4×4 {@code m}, then its columns. */
    private static float outputTap(float[] m, int s, int t) {
        float r0 = combine(m[0], m[4], m[8], m[12], s), r1 = combine(m[1], m[5], m[9], m[13], s);
        float r2 = combine(m[2], m[6], m[10], m[14], s), r3 = combine(m[3], m[7], m[11], m[15], s);
        return combine(r0, r1, r2, r3, t);
    }

    private static float combine(float m0, float m1, float m2, float m3, int k) {
        return switch (k) {
            case 0 -> m0 + m1 + m2;
            case 1 -> m1 - m2;
            default -> m1 + m2 + m3;
        };
    }

    /**
     * {@code Bᵀ d B} of the 4×4 input tile {@code d} from {@code a[p]} (rows {@code rowPitch}, columns {@code c} floats apart;
     * a vector of channels) into {@code a[v + point·ps]}, point {@code 4·row + column}: each row across ({@code x0 - x2,
     * x1 + x2, x2 - x1, x3 - x1}), then the rows combined the same way. No vector crosses this method's boundary.
     */
    private static void transformInput(float[] a, int p, int rowPitch, int c, int v, int ps) {
        FloatVector d0, d1, d2, d3;
        int q = p + rowPitch;
        d0 = FloatVector.fromArray(S, a, q); d1 = FloatVector.fromArray(S, a, q + c);
        d2 = FloatVector.fromArray(S, a, q + 2 * c); d3 = FloatVector.fromArray(S, a, q + 3 * c);
        FloatVector h10 = d0.sub(d2), h11 = d1.add(d2), h12 = d2.sub(d1), h13 = d3.sub(d1);
        q += rowPitch;
        d0 = FloatVector.fromArray(S, a, q); d1 = FloatVector.fromArray(S, a, q + c);
        d2 = FloatVector.fromArray(S, a, q + 2 * c); d3 = FloatVector.fromArray(S, a, q + 3 * c);
        FloatVector h20 = d0.sub(d2), h21 = d1.add(d2), h22 = d2.sub(d1), h23 = d3.sub(d1);
        h10.add(h20).intoArray(a, v + 4 * ps); h11.add(h21).intoArray(a, v + 5 * ps);
        h12.add(h22).intoArray(a, v + 6 * ps); h13.add(h23).intoArray(a, v + 7 * ps);
        h20.sub(h10).intoArray(a, v + 8 * ps); h21.sub(h11).intoArray(a, v + 9 * ps);
        h22.sub(h12).intoArray(a, v + 10 * ps); h23.sub(h13).intoArray(a, v + 11 * ps);
        d0 = FloatVector.fromArray(S, a, p); d1 = FloatVector.fromArray(S, a, p + c);
        d2 = FloatVector.fromArray(S, a, p + 2 * c); d3 = FloatVector.fromArray(S, a, p + 3 * c);
        d0.sub(d2).sub(h20).intoArray(a, v); d1.add(d2).sub(h21).intoArray(a, v + ps);
        d2.sub(d1).sub(h22).intoArray(a, v + 2 * ps); d3.sub(d1).sub(h23).intoArray(a, v + 3 * ps);
        q += rowPitch;
        d0 = FloatVector.fromArray(S, a, q); d1 = FloatVector.fromArray(S, a, q + c);
        d2 = FloatVector.fromArray(S, a, q + 2 * c); d3 = FloatVector.fromArray(S, a, q + 3 * c);
        d0.sub(d2).sub(h10).intoArray(a, v + 12 * ps); d1.add(d2).sub(h11).intoArray(a, v + 13 * ps);
        d2.sub(d1).sub(h12).intoArray(a, v + 14 * ps); d3.sub(d1).sub(h13).intoArray(a, v + 15 * ps);
    }

    /**
     * {@code G e Gᵀ} of the cotangent's 2×2 block {@code e} from {@code a[p]} (rows {@code rowPitch}, columns {@code o} floats
     * apart; a vector of filters) into {@code a[v + point·ps]}: each row across ({@code g0, (g0 + g1)/2, (g0 - g1)/2, g1}),
     * then the two rows combined the same way. The halvings are exact (a product by 0.5).
     */
    private static void transformCotangent(float[] a, int p, int rowPitch, int o, int v, int ps) {
        FloatVector half = FloatVector.broadcast(S, 0.5f);
        FloatVector e00 = FloatVector.fromArray(S, a, p), e01 = FloatVector.fromArray(S, a, p + o);
        FloatVector e10 = FloatVector.fromArray(S, a, p + rowPitch), e11 = FloatVector.fromArray(S, a, p + rowPitch + o);
        FloatVector k01 = e00.add(e01).mul(half), k02 = e00.sub(e01).mul(half);
        FloatVector k11 = e10.add(e11).mul(half), k12 = e10.sub(e11).mul(half);
        e00.intoArray(a, v); k01.intoArray(a, v + ps); k02.intoArray(a, v + 2 * ps); e01.intoArray(a, v + 3 * ps);
        e10.intoArray(a, v + 12 * ps); k11.intoArray(a, v + 13 * ps); k12.intoArray(a, v + 14 * ps); e11.intoArray(a, v + 15 * ps);
        e00.add(e10).mul(half).intoArray(a, v + 4 * ps); k01.add(k11).mul(half).intoArray(a, v + 5 * ps);
        k02.add(k12).mul(half).intoArray(a, v + 6 * ps); e01.add(e11).mul(half).intoArray(a, v + 7 * ps);
        e00.sub(e10).mul(half).intoArray(a, v + 8 * ps); k01.sub(k11).mul(half).intoArray(a, v + 9 * ps);
        k02.sub(k12).mul(half).intoArray(a, v + 10 * ps); e01.sub(e11).mul(half).intoArray(a, v + 11 * ps);
    }

    /**
     * The products of one point: {@code m[mAt + i·mPitch + v·L ..] += Σ_j a[gRow + i + j·GS] · a[vAt + j·VS + v·L ..]} for
     * filters {@code i < rows} (at most {@link #ROWS}; a short tile repeats its last row, which stores the same sums) and
     * 2 vectors of channels, over {@code steps} blocks in order. 12 accumulators, 6 broadcasts and 2 loads per 12 fma, as
     * {@link ChannelsLastTile#run}; constant strides, so C2 takes the range checks out of the loop.
     */
    private static void tile(float[] a, int gRow, int rows, int vAt, int steps, float[] m, int mAt, int mPitch) {
        int last = rows - 1;
        int g0 = gRow, g1 = gRow + Math.min(1, last), g2 = gRow + Math.min(2, last), g3 = gRow + Math.min(3, last);
        int g4 = gRow + Math.min(4, last), g5 = gRow + Math.min(5, last);
        int p0 = mAt, p1 = mAt + Math.min(1, last) * mPitch, p2 = mAt + Math.min(2, last) * mPitch, p3 = mAt + Math.min(3, last) * mPitch;
        int p4 = mAt + Math.min(4, last) * mPitch, p5 = mAt + Math.min(5, last) * mPitch;
        FloatVector a00 = FloatVector.fromArray(S, m, p0), a01 = FloatVector.fromArray(S, m, p0 + L);
        FloatVector a10 = FloatVector.fromArray(S, m, p1), a11 = FloatVector.fromArray(S, m, p1 + L);
        FloatVector a20 = FloatVector.fromArray(S, m, p2), a21 = FloatVector.fromArray(S, m, p2 + L);
        FloatVector a30 = FloatVector.fromArray(S, m, p3), a31 = FloatVector.fromArray(S, m, p3 + L);
        FloatVector a40 = FloatVector.fromArray(S, m, p4), a41 = FloatVector.fromArray(S, m, p4 + L);
        FloatVector a50 = FloatVector.fromArray(S, m, p5), a51 = FloatVector.fromArray(S, m, p5 + L);
        for (int j = 0; j < steps; j++) {
            int vj = vAt + j * VS, gj = j * GS;
            FloatVector w0 = FloatVector.fromArray(S, a, vj), w1 = FloatVector.fromArray(S, a, vj + L);
            FloatVector x = FloatVector.broadcast(S, a[g0 + gj]);
            a00 = x.fma(w0, a00); a01 = x.fma(w1, a01);
            x = FloatVector.broadcast(S, a[g1 + gj]);
            a10 = x.fma(w0, a10); a11 = x.fma(w1, a11);
            x = FloatVector.broadcast(S, a[g2 + gj]);
            a20 = x.fma(w0, a20); a21 = x.fma(w1, a21);
            x = FloatVector.broadcast(S, a[g3 + gj]);
            a30 = x.fma(w0, a30); a31 = x.fma(w1, a31);
            x = FloatVector.broadcast(S, a[g4 + gj]);
            a40 = x.fma(w0, a40); a41 = x.fma(w1, a41);
            x = FloatVector.broadcast(S, a[g5 + gj]);
            a50 = x.fma(w0, a50); a51 = x.fma(w1, a51);
        }
        a00.intoArray(m, p0); a01.intoArray(m, p0 + L);
        a10.intoArray(m, p1); a11.intoArray(m, p1 + L);
        a20.intoArray(m, p2); a21.intoArray(m, p2 + L);
        a30.intoArray(m, p3); a31.intoArray(m, p3 + L);
        a40.intoArray(m, p4); a41.intoArray(m, p4 + L);
        a50.intoArray(m, p5); a51.intoArray(m, p5 + L);
    }
}
