package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The kernel cotangent of a 3×3 conv layer by Winograd's F(3, 4) on both axes, for cotangents whose sides are multiples
 * of 4: {@link WinogradKernelCotangentF32}'s sum {@code dk[c, f, s, t] = Σ_{n, h, w} g[n, f, h, w] · xp[n, c, h + s,
 * w + t]} taken over 4×4 blocks of the cotangent, each block and the 6×6 input tile under it transformed into 36 values:
 * 36 products per block and (c, f) where F(3, 2)'s 2×2 blocks take 64 (four blocks of 16) and the definition 144, so
 * the per-position GEMMs ({@link WinogradGemmTile}, most of the time) do 1.78x less work than F(3, 2)'s.
 *
 * <p>F(3, 4) in one dimension ({@code y_k = Σ_{j<4} g_j x_{j+k}}, {@code k = 0, 1, 2}; points 0, 1, -1, 2, -2, ∞): input
 * {@code Bᵀx = (4x0 - 5x2 + x4, -4(x1 + x2) + x3 + x4, 4(x1 - x2) - x3 + x4, 2(x3 - x1) - x2 + x4, -2(x3 - x1) - x2 + x4,
 * 4x1 - 5x3 + x5)}, cotangent {@code Gg = (g0/4, -(g0 + g1 + g2 + g3)/6, -(g0 - g1 + g2 - g3)/6, (g0 + 2g1 + 4g2 + 8g3)/24,
 * (g0 - 2g1 + 4g2 - 8g3)/24, g3)}, output {@code y = (m0 + m1 + m2 + m3 + m4, m1 - m2 + 2(m3 - m4), m1 + m2 + 4(m3 + m4) +
 * m5)}. Unlike F(3, 2)'s, these scale by 4, 5, 1/6 and 1/24: the error is larger (the ResNet-like conv, uniform ±1
 * operands, 400 sampled outputs against the definition in double: |error| ÷ Σ|terms| at most 1.2e-7, mean 1.8e-8,
 * against 1.7e-8 and 4.0e-9 for F(3, 2) and 3.6e-8 and 6.8e-9 for the direct path; all far inside the 1e-5 that the
 * tests ask), tolerance-checked against the definition in double ({@code WinogradKernelCotangentTest}).
 *
 * <p>Everything else is {@link WinogradKernelCotangentF32}'s: units of whole block rows of an image, the cotangent's
 * rows transposed in registers and transformed along the filters, {@link WinogradGemmTile} per transform position, a
 * fixed number of parts added in order (results independent of the thread count), non-finite outputs declined (the
 * caller's direct path redoes them). The input's 6×6 tiles: the chunk's rows copied from the plane, the transform along
 * the rows first over whole padded rows (vectors along the columns, the padding and cropped columns zeroed by blends)
 * into six scratch rows, then along the columns with {@code L} blocks a vector (a block's columns {@code 4j .. 4j + 5}:
 * a stride-4 selection of four vectors by two rounds of even/odd lanes, and the last two columns the next block's first
 * two, one lane along).
 */
final class Winograd34KernelCotangentF32 {
    private Winograd34KernelCotangentF32() {}

    private static final VectorSpecies<Float> S = WinogradGemmTile.S;
    private static final int L = WinogradGemmTile.L, ROWS = WinogradGemmTile.ROWS, COLS = WinogradGemmTile.COLS;
    /**
     * {@code -Djburn.winogradKernelCotangent.f34} ({@link WidthSwitch}): unset, this form runs on 8-lane (AVX2) and 16-lane
     * (AVX-512) vectors, the widths it has been checked and timed on (an AVX2 EPYC, then an AVX-512 Xeon on 2026-12-07: the
     * ResNet-like 3×3 kernel cotangent 1.04-1.10 → 0.80 of torch's time, with F(4×4, 3×3) forwards).
     */
    static final boolean ENABLED = WinogradKernelCotangentF32.ENABLED && WidthSwitch.on("jburn.winogradKernelCotangent.f34", L == 8 || L == 16);
    /** Transform positions: 6 × 6. */
    private static final int XI = 36;
    /**
     * Parts of the work whose sums are added in order at the end (a fixed count: results independent of the threads).
     * Each part's sums are {@code 36·C·O} floats (608 KB on the ResNet-like conv): 8 parts took ~1.3 ms less than 16 on
     * two threads (allocation and the final additions), 4 no better than 8.
     */
    private static final int PARTIALS = 8;
    /** Floats between transform positions in {@code gt} past a whole number of rows: one line, so the 36 streams of a block's stores do not share L1 sets. */
    private static final int SKEW = 16;
    /** Blocks per chunk (whole block rows, at least one): 28, 56, 112 and 168 within the noise of each other on the ResNet-like conv. */
    static final int CHUNK_BLOCKS = 56;
    private static final long MAX = Integer.MAX_VALUE - 64;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** Whether {@link #run} may take the conv of {@code g}: {@link WinogradKernelCotangentF32#applies}'s, sides multiples of 4. */
    static boolean applies(ConvGeometry g) {
        if (!ENABLED || !WinogradKernelCotangentF32.applies(g)) return false;
        if (g.kernel[0] % 4 != 0 || g.kernel[1] % 4 != 0) return false;
        long bw = g.kernel[1] / 4, rows = Math.max(1, CHUNK_BLOCKS / bw), k = rows * bw;
        long op = WinogradKernelCotangentF32.roundUp(g.outChannels, COLS), mr = WinogradKernelCotangentF32.roundUp(g.batch, ROWS);
        long tw = ((bw + L - 1) / L) * 4 * L + L;
        return XI * ((k + L) * Math.max(mr, op) + SKEW) < MAX && XI * mr * op < MAX && (4 * rows + 2) * ((long) g.in[1] + tw + 2 * L) + 2 * tw < MAX
                && 4 * rows * g.kernel[1] * op < MAX && op * (4 * rows * g.kernel[1] + L) < MAX;
    }

    /** As {@link WinogradKernelCotangentF32#run}, by F(3, 4): false (nothing written) when it does not apply or an output is not finite. */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel, boolean swapped) {
        if (!applies(g)) return false;
        int n = g.channels, c = g.batch, o = g.outChannels; // images, input channels, filters
        int uh = g.kernel[0], uw = g.kernel[1], inH = g.in[0], inW = g.in[1];
        int loH = g.spec.padLow()[0], loW = g.spec.padLow()[1];
        int wp = uw + 2, bh = uh / 4, bw = uw / 4;
        int op = WinogradKernelCotangentF32.roundUp(o, COLS), mr = WinogradKernelCotangentF32.roundUp(c, ROWS);
        int rowsPerChunk = Math.max(1, CHUNK_BLOCKS / bw), kMax = rowsPerChunk * bw, nob = op / COLS;
        int ks = kMax + L; // an input row of xt: a block row's last group of L blocks spills up to L - 1 past it
        int groups = (bw + L - 1) / L, tw = groups * 4 * L + L; // a scratch row: the groups' columns and the next block's two
        VectorMask<Float>[] masks = columnMasks(tw, loW, Math.min(wp - loW, inW));
        boolean[] full = new boolean[masks.length];
        for (int v = 0; v < full.length; v++) full[v] = masks[v].allTrue();
        // the input buffer: a row of zeros (padding rows) read from L on, then the chunk's copied rows
        int xData = tw + inW + 2 * L, count = 4 * rowsPerChunk + 2, xbSize = xData + count * inW + tw + 2 * L;
        int gRow = 4 * rowsPerChunk * uw + L;
        long inPlane = g.inPlane, uPlane = (long) uh * uw;
        long xImage = swapped ? c * inPlane : inPlane, xChannel = swapped ? inPlane : n * inPlane;
        long gImage = swapped ? o * uPlane : uPlane, gChannel = swapped ? uPlane : n * uPlane;
        int chunks = (bh + rowsPerChunk - 1) / rowsPerChunk;
        long units = (long) n * chunks;
        int parts = (int) Math.min(units, PARTIALS), mSize = XI * mr * op;
        float[][] partial = new float[parts][];
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        int gs = nob * kMax * COLS + SKEW, xs = mr * ks + SKEW; // between transform positions in gt and xt
        int xtSize = XI * xs, gtSize = XI * gs, gRowsSize = 4 * rowsPerChunk * uw * op, gbSize = op * gRow;
        int tSize = 6 * tw, cSize = 24 * L;
        Runnable participant = () -> {
            float[][] b = WinogradKernelCotangentF32.buffers(xtSize, gtSize, gRowsSize, xbSize, gbSize, tSize, cSize);
            // rows of xt past C, and of gb past O, hold whatever they held: they reach only the sums' padding rows and columns
            float[] xt = b[0], gt = b[1], gRows = b[2], xb = b[3], gb = b[4], tb = b[5], cs = b[6];
            Arrays.fill(xb, 0, xData, 0f); // the padding row
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                float[] m = partial[p] = new float[mSize];
                for (long u = units * p / parts; u < units * (p + 1) / parts; u++) {
                    long i = u / chunks;
                    int r0 = (int) (u % chunks) * rowsPerChunk, rows = Math.min(rowsPerChunk, bh - r0);
                    for (int ch = 0; ch < c; ch++) {
                        transformInput(x, i * xImage + ch * xChannel, inH, inW, 4 * r0 - loH, loW, rows, bw, tw, masks, full, xb, xData, tb, xt, ch * ks, xs);
                    }
                    WinogradKernelCotangentF32.cotangentRows(k, i * gImage, gChannel, o, uw, 4 * r0, 4 * rows, op, gb, gRow, gRows);
                    transformCotangent(gRows, rows, bw, uw, op, kMax, gs, gt, cs);
                    multiply(xt, xs, gt, gs, m, rows * bw, kMax, ks, nob, op, mr);
                }
            }
        };
        parallel.runParticipants((long) n * c * o * uPlane * 9, participant);
        float[] y = new float[c * o * 9];
        boolean[] finite = new boolean[c];
        parallel.forRange(c, (long) parts * XI * op, (from, to) -> {
            float[] sums = new float[XI * op];
            for (int ch = (int) from; ch < to; ch++) finite[ch] = outputs(partial, parts, ch, c, o, mr, op, swapped, sums, y);
        });
        for (boolean f : finite) if (!f) return false;
        MemorySegment.copy(y, 0, dst, FL, 0, y.length);
        return true;
    }

    /** Per vector of a scratch row (padded columns {@code v·L ..}), the lanes inside the input (columns {@code 0 .. limit - 1}, {@code lo} right of the padded start). */
    @SuppressWarnings("unchecked")
    private static VectorMask<Float>[] columnMasks(int tw, int lo, int limit) {
        VectorMask<Float>[] m = new VectorMask[tw / L];
        for (int v = 0; v < m.length; v++) {
            long bits = 0;
            for (int i = 0; i < L; i++) {
                int col = v * L + i - lo;
                if (col >= 0 && col < limit) bits |= 1L << i;
            }
            m[v] = VectorMask.fromLong(S, bits);
        }
        return m;
    }

    /** Lanes {@code 0, 2, 4, ...} and {@code 1, 3, 5, ...} of two vectors. */
    private static final VectorShuffle<Float> EVEN = wrapped(0), ODD = wrapped(1);
    /** Lanes {@code 1 .. L-1} of the first vector, then lane 0 (or 1) of the second: the next block's first (second) column. */
    private static final VectorShuffle<Float> NEXT0 = next(0), NEXT1 = next(1);

    private static VectorShuffle<Float> next(int lane) {
        int[] idx = new int[L];
        for (int i = 0; i < L - 1; i++) idx[i] = i + 1;
        idx[L - 1] = lane - L;
        return VectorShuffle.fromArray(S, idx, 0);
    }

    private static VectorShuffle<Float> wrapped(int first) {
        int[] idx = new int[L];
        for (int i = 0; i < L; i++) idx[i] = 2 * i + first < L ? 2 * i + first : 2 * i + first - 2 * L;
        return VectorShuffle.fromArray(S, idx, 0);
    }

    private static final FloatVector TWO = FloatVector.broadcast(S, 2f), FOUR = FloatVector.broadcast(S, 4f);
    private static final FloatVector MINUS_TWO = FloatVector.broadcast(S, -2f), MINUS_FOUR = FloatVector.broadcast(S, -4f);
    private static final FloatVector MINUS_FIVE = FloatVector.broadcast(S, -5f);

    /**
     * One channel's 6×6 input tiles of block rows {@code 0 .. rows-1} of the chunk (its padded row 0 the plane's row
     * {@code h0}, padded column 0 its column {@code -lo}) transformed into {@code xt[ξ][channel][r·bw + j]} ({@code at}:
     * the channel's row; {@code xiStride} between transform positions; {@code ξ = 6a + b}, {@code a} along the rows). Per
     * block row: the transform along the rows over the six padded rows into {@code tb} (six rows of {@code tw}, outside
     * the input zero), then along the columns, {@code L} blocks a vector; a block row's last vector writes up to {@code L - 1}
     * blocks past it (the next block row's, written after it, or the row's slack).
     */
    private static void transformInput(MemorySegment x, long base, int inH, int inW, int h0, int lo, int rows, int bw, int tw,
                                       VectorMask<Float>[] masks, boolean[] full, float[] xb, int xData, float[] tb, float[] xt, int at, int xiStride) {
        int count = 4 * rows + 2, first = Math.max(0, h0), end = Math.min(inH, h0 + count);
        if (end > first) MemorySegment.copy(x, FL, (base + (long) first * inW) * Float.BYTES, xb, xData + (first - h0) * inW, (end - first) * inW);
        FloatVector z = FloatVector.zero(S);
        for (int r = 0; r < rows; r++) {
            int h = 4 * r;
            int r0 = rowAt(h, h0, inH, inW, xData) - lo, r1 = rowAt(h + 1, h0, inH, inW, xData) - lo, r2 = rowAt(h + 2, h0, inH, inW, xData) - lo;
            int r3 = rowAt(h + 3, h0, inH, inW, xData) - lo, r4 = rowAt(h + 4, h0, inH, inW, xData) - lo, r5 = rowAt(h + 5, h0, inH, inW, xData) - lo;
            for (int v = 0, q = 0; q < tw; v++, q += L) { // along the rows (Bᵀ over the six rows), per vector of columns
                FloatVector d0 = FloatVector.fromArray(S, xb, r0 + q), d1 = FloatVector.fromArray(S, xb, r1 + q);
                FloatVector d2 = FloatVector.fromArray(S, xb, r2 + q), d3 = FloatVector.fromArray(S, xb, r3 + q);
                FloatVector d4 = FloatVector.fromArray(S, xb, r4 + q), d5 = FloatVector.fromArray(S, xb, r5 + q);
                if (!full[v]) { // an edge: the lanes outside the input read as zeros
                    VectorMask<Float> mk = masks[v];
                    d0 = z.blend(d0, mk); d1 = z.blend(d1, mk); d2 = z.blend(d2, mk); d3 = z.blend(d3, mk); d4 = z.blend(d4, mk); d5 = z.blend(d5, mk);
                }
                FloatVector s12 = d1.add(d2), s34 = d3.add(d4), m12 = d1.sub(d2), m43 = d4.sub(d3), m31 = d3.sub(d1), m42 = d4.sub(d2);
                d0.fma(FOUR, d2.fma(MINUS_FIVE, d4)).intoArray(tb, q);
                s12.fma(MINUS_FOUR, s34).intoArray(tb, tw + q);
                m12.fma(FOUR, m43).intoArray(tb, 2 * tw + q);
                m31.fma(TWO, m42).intoArray(tb, 3 * tw + q);
                m31.fma(MINUS_TWO, m42).intoArray(tb, 4 * tw + q);
                d1.fma(FOUR, d3.fma(MINUS_FIVE, d5)).intoArray(tb, 5 * tw + q);
            }
            int to = at + r * bw;
            for (int j = 0; j < bw; j += L) { // along the columns, L blocks a vector
                int c0 = 4 * j;
                for (int a = 0; a < 6; a++) {
                    int t = a * tw + c0, o = to + j + 6 * a * xiStride;
                    FloatVector u0 = FloatVector.fromArray(S, tb, t), u1 = FloatVector.fromArray(S, tb, t + L);
                    FloatVector u2 = FloatVector.fromArray(S, tb, t + 2 * L), u3 = FloatVector.fromArray(S, tb, t + 3 * L);
                    FloatVector u4 = FloatVector.fromArray(S, tb, t + 4 * L);
                    FloatVector e01 = u0.rearrange(EVEN, u1), o01 = u0.rearrange(ODD, u1), e23 = u2.rearrange(EVEN, u3), o23 = u2.rearrange(ODD, u3);
                    FloatVector d0 = e01.rearrange(EVEN, e23), d2 = e01.rearrange(ODD, e23), d1 = o01.rearrange(EVEN, o23), d3 = o01.rearrange(ODD, o23);
                    FloatVector d4 = d0.rearrange(NEXT0, u4), d5 = d1.rearrange(NEXT1, u4);
                    FloatVector s12 = d1.add(d2), s34 = d3.add(d4), m12 = d1.sub(d2), m43 = d4.sub(d3), m31 = d3.sub(d1), m42 = d4.sub(d2);
                    d0.fma(FOUR, d2.fma(MINUS_FIVE, d4)).intoArray(xt, o);
                    s12.fma(MINUS_FOUR, s34).intoArray(xt, o + xiStride);
                    m12.fma(FOUR, m43).intoArray(xt, o + 2 * xiStride);
                    m31.fma(TWO, m42).intoArray(xt, o + 3 * xiStride);
                    m31.fma(MINUS_TWO, m42).intoArray(xt, o + 4 * xiStride);
                    d1.fma(FOUR, d3.fma(MINUS_FIVE, d5)).intoArray(xt, o + 5 * xiStride);
                }
            }
        }
    }

    /** Where chunk row {@code h}'s column 0 lies in the buffer: its copy, or the padding row (zeros) where it is padding. */
    private static int rowAt(int h, int h0, int inH, int inW, int xData) {
        return h0 + h < 0 || h0 + h >= inH ? L : xData + h * inW;
    }

    private static final FloatVector QUARTER = FloatVector.broadcast(S, 0.25f), MINUS_SIXTH = FloatVector.broadcast(S, -1f / 6);
    private static final FloatVector TWENTY_FOURTH = FloatVector.broadcast(S, 1f / 24);

    /**
     * The cotangent's 4×4 blocks of the chunk ({@code gRows}: {@code 4·rows} channels-last rows of {@code uw} positions)
     * transformed into {@code gt[ξ][column block][block][COLS]}; {@code cs}: scratch for a block's 4 × 6 half-transformed values.
     */
    private static void transformCotangent(float[] gRows, int rows, int bw, int uw, int op, int kMax, int s, float[] gt, float[] cs) {
        int row = uw * op;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < bw; j++) {
                int origin = (4 * r * uw + 4 * j) * op, k = r * bw + j;
                for (int v = 0; v < op; v += L) {
                    int at = origin + v, to = ((v / COLS) * kMax + k) * COLS + v % COLS;
                    for (int i = 0; i < 4; i++) { // along the columns (G over a row's four), into cs[i][b]
                        int a = at + i * row;
                        FloatVector g0 = FloatVector.fromArray(S, gRows, a), g1 = FloatVector.fromArray(S, gRows, a + op);
                        FloatVector g2 = FloatVector.fromArray(S, gRows, a + 2 * op), g3 = FloatVector.fromArray(S, gRows, a + 3 * op);
                        FloatVector s02 = g0.add(g2), s13 = g1.add(g3), p = g2.fma(FOUR, g0), q = g3.fma(FOUR, g1).mul(TWO);
                        int c = 6 * i * L;
                        g0.mul(QUARTER).intoArray(cs, c);
                        s02.add(s13).mul(MINUS_SIXTH).intoArray(cs, c + L);
                        s02.sub(s13).mul(MINUS_SIXTH).intoArray(cs, c + 2 * L);
                        p.add(q).mul(TWENTY_FOURTH).intoArray(cs, c + 3 * L);
                        p.sub(q).mul(TWENTY_FOURTH).intoArray(cs, c + 4 * L);
                        g3.intoArray(cs, c + 5 * L);
                    }
                    for (int b = 0; b < 6; b++) { // along the rows (G over a column's four), into gt[6a + b]
                        FloatVector g0 = FloatVector.fromArray(S, cs, b * L), g1 = FloatVector.fromArray(S, cs, (6 + b) * L);
                        FloatVector g2 = FloatVector.fromArray(S, cs, (12 + b) * L), g3 = FloatVector.fromArray(S, cs, (18 + b) * L);
                        FloatVector s02 = g0.add(g2), s13 = g1.add(g3), p = g2.fma(FOUR, g0), q = g3.fma(FOUR, g1).mul(TWO);
                        int t = to + b * s;
                        g0.mul(QUARTER).intoArray(gt, t);
                        s02.add(s13).mul(MINUS_SIXTH).intoArray(gt, t + 6 * s);
                        s02.sub(s13).mul(MINUS_SIXTH).intoArray(gt, t + 12 * s);
                        p.add(q).mul(TWENTY_FOURTH).intoArray(gt, t + 18 * s);
                        p.sub(q).mul(TWENTY_FOURTH).intoArray(gt, t + 24 * s);
                        g3.intoArray(gt, t + 30 * s);
                    }
                }
            }
        }
    }

    /** Per transform position, {@code m[ξ][C][O] += xt[ξ] · gt[ξ]} over the chunk's blocks ({@code xs}, {@code gs}: the positions' strides). */
    private static void multiply(float[] xt, int xs, float[] gt, int gs, float[] m, int blocks, int kMax, int ks, int nob, int op, int mr) {
        for (int xi = 0; xi < XI; xi++) {
            int a = xi * xs, acc = xi * mr * op;
            for (int ob = 0; ob < nob; ob++) {
                int b = xi * gs + ob * kMax * COLS;
                for (int r = 0; r < mr; r += ROWS) WinogradGemmTile.run(xt, a + r * ks, ks, gt, b, blocks, m, acc + r * op + ob * COLS, op);
            }
        }
    }

    /**
     * Channel {@code ch}'s taps: its rows of the parts' products ({@code [ξ][mr][op]} each) added in part order, then
     * {@code y = Aᵀ M A} per filter, into {@code y} as {@code [C, O, 3, 3]} or, {@code swapped}, {@code [O, C, 3, 3]}; false
     * when any is not finite. {@code sums}: scratch of {@code 36·op} floats.
     */
    private static boolean outputs(float[][] partial, int parts, int ch, int c, int o, int mr, int op, boolean swapped, float[] sums, float[] y) {
        WinogradKernelCotangentF32.sumParts(partial, parts, XI, ch, mr, op, sums);
        boolean finite = true;
        float[] t = new float[18];
        for (int f = 0; f < o; f++) {
            for (int a = 0; a < 6; a++) { // along the columns, per row of the 6x6
                int m = 6 * a * op + f;
                float m0 = sums[m], m1 = sums[m + op], m2 = sums[m + 2 * op], m3 = sums[m + 3 * op], m4 = sums[m + 4 * op], m5 = sums[m + 5 * op];
                t[3 * a] = m0 + m1 + m2 + m3 + m4;
                t[3 * a + 1] = m1 - m2 + 2 * (m3 - m4);
                t[3 * a + 2] = m1 + m2 + 4 * (m3 + m4) + m5;
            }
            int to = (swapped ? f * c + ch : ch * o + f) * 9;
            for (int s = 0; s < 3; s++) { // along the rows, per column
                float m0 = t[s], m1 = t[3 + s], m2 = t[6 + s], m3 = t[9 + s], m4 = t[12 + s], m5 = t[15 + s];
                y[to + s] = m0 + m1 + m2 + m3 + m4;
                y[to + 3 + s] = m1 - m2 + 2 * (m3 - m4);
                y[to + 6 + s] = m1 + m2 + 4 * (m3 + m4) + m5;
            }
            for (int q = 0; q < 9; q++) finite &= Float.isFinite(y[to + q]);
        }
        return finite;
    }
}
