package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The kernel cotangent of a 3×3 conv layer (unit strides and dilations, two spatial axes, an even cotangent) by
 * Winograd's minimal filtering F(3, 2) on both axes: {@code dk[c, f, s, t] = Σ_{n, h, w} g[n, f, h, w] · xp[n, c, h + s,
 * w + t]} ({@code xp} the zero-padded input) taken over 2×2 blocks of the cotangent, each block and the 4×4 input tile
 * under it transformed into 16 values whose products, summed over blocks and images per transform position, are 16
 * independent products {@code [C × blocks]·[blocks × O]}; the sums' 4×4 transform back gives the 3×3 taps. 16
 * multiplications per block and (c, f) where the definition has 36: 2.25x fewer flops than the direct kernel cotangent
 * ({@link ChannelsLastConvF32#kernelGradient}), whose ~210 GFLOP/s on the ResNet-like conv were ~75% of this machine's
 * peak and so could not reach torch's time.
 *
 * <p>F(3, 2) in one dimension ({@code y_k = Σ_{j<2} g_j x_{j+k}} for {@code k = 0, 1, 2}; points 0, 1, -1, ∞): input {@code x0 - x2,
 * x1 + x2, x2 - x1, x3 - x1}, cotangent {@code g0, (g0 + g1)/2, (g0 - g1)/2, g1}, output {@code y0 = m0 + m1 + m2,
 * y1 = m1 - m2, y2 = m1 + m2 + m3}. The transforms add and halve (exact scalings), so each output's error is a few
 * roundings of sums of the definition's magnitude: tolerance-checked against the definition in double
 * ({@code WinogradKernelCotangentTest}), not the same bits as the direct path.
 *
 * <p>Non-finite values: a NaN or infinity anywhere in the operands (or an overflow in a transform) reaches at least one
 * output as NaN or ±Inf, where the definition may have ±Inf or a finite value (the transforms mix each value into
 * several outputs). So when any output is not finite, {@link #run} returns false and writes nothing, and the caller
 * runs the direct path, whose non-finite results are the definition's.
 *
 * <p>Layout, per unit of work (an image's chunk of whole block rows, {@link #CHUNK_BLOCKS}): each input plane's rows of
 * the chunk are copied at once (one copy per plane: a copy per row cost more than the transform) and transformed with
 * vectors along the blocks (a block's columns are the even and odd lanes of two vectors) into {@code xt[ξ][channel][block]}
 * ({@code ξ} the 16 transform positions); each cotangent plane's rows are copied at once, transposed L × L in registers
 * ({@link FloatTranspose16}, {@link FloatTranspose8} with AVX2's 8 lanes) to channels-last rows and transformed with vectors along the filters into
 * {@code gt[ξ][block][filters]}; {@link WinogradGemmTile} (6 channels × 64 filters) adds each transform position's
 * products into the part's sums {@code [ξ][C][O]}. No channels-last copy of the whole tensors (the direct path's two
 * 6.4 MB copies on the ResNet-like conv): the chunk's operands (~0.6 MB) stay in L2. The units, in order, are cut into
 * a fixed number of parts ({@link #PARTIALS}) whose sums are added in order at the end, so the result does not depend on
 * the thread count.
 *
 * <p>Vector widths: 512-bit (16 lanes, {@link WinogradGemmTile} 6 × 64) and AVX2's 256-bit (8 lanes, a 6 × 16 tile on its
 * 16 registers); the transforms take {@code L} blocks or filters a vector either way. On a 2-core AVX2 EPYC (Zen 1)
 * the ResNet-like conv's kernel cotangent went from the direct path's 33 ms to 16.4 ms (two threads).
 */
final class WinogradKernelCotangentF32 {
    private WinogradKernelCotangentF32() {}

    /**
     * {@code -Djburn.winogradKernelCotangent=false} keeps the direct kernel cotangent (comparisons); so does
     * {@code -Djburn.directconv.winograd=false}, which turns every Winograd form off.
     */
    static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("jburn.winogradKernelCotangent", "true"))
            && !"false".equals(System.getProperty("jburn.directconv.winograd"));
    private static final VectorSpecies<Float> S = WinogradGemmTile.S;
    private static final int L = WinogradGemmTile.L, ROWS = WinogradGemmTile.ROWS, COLS = WinogradGemmTile.COLS;
    /** Transform positions: 4 × 4. */
    private static final int XI = 16;
    /** Parts of the work whose sums are added in order at the end (a fixed count: results independent of the threads). */
    private static final int PARTIALS = 16;
    /** Blocks per chunk (whole block rows, at least one): a transform position's operands stay in L1 across the tiles. */
    static final int CHUNK_BLOCKS = 64;
    private static final long MAX = Integer.MAX_VALUE - 64;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /**
     * Whether {@link #run} may take the conv of {@code g}; it may still decline a non-finite result. Padding of at most 1
     * a side (a 3×3 layer's "same"): with 2, a tap reads only padding and its output is +0 by the definition, where the
     * transforms leave the rounding of the other taps' products (a few ulps of them, not 0).
     */
    static boolean applies(ConvGeometry g) {
        if (!ENABLED || (L != 16 && L != 8) || g.spatialRank != 2 || !ChannelsLastConvF32.applies(g.spec)) return false;
        for (int a = 0; a < 2; a++) {
            if (g.spec.strides()[a] != 1 || g.spec.kernelDilation()[a] != 1 || g.out[a] != 3 || g.kernel[a] % 2 != 0
                    || g.kernel[a] == 0 || g.in[a] == 0 || g.spec.padLow()[a] > 1 || g.spec.padHigh()[a] > 1) return false;
        }
        if (g.batch == 0 || g.channels == 0 || g.outChannels == 0) return false;
        long bw = g.kernel[1] / 2, rows = Math.max(1, CHUNK_BLOCKS / bw), k = rows * bw;
        long op = roundUp(g.outChannels, COLS), mr = roundUp(g.batch, ROWS);
        return XI * (k + L) * Math.max(mr, op) < MAX && XI * mr * op < MAX && (2 * rows + 2) * (4 * bw + 2 * L) < MAX
                && 2 * rows * g.kernel[1] * op < MAX && op * (g.kernel[1] + L) < MAX;
    }

    /**
     * The conv of {@code g} (as {@link KernelCotangentConvF32#run}: with {@code swapped}, {@code x} and {@code k} are the
     * NCHW input and cotangent {@code [batch, C, s...]}, {@code [batch, O, o...]} and the result goes out OIHW) into
     * {@code dst}; false (nothing written) when it does not apply or an output is not finite.
     */
    static boolean run(ConvGeometry g, MemorySegment x, MemorySegment k, MemorySegment dst, Parallel parallel, boolean swapped) {
        if (!applies(g)) return false;
        int n = g.channels, c = g.batch, o = g.outChannels; // images, input channels, filters
        int uh = g.kernel[0], uw = g.kernel[1], inH = g.in[0], inW = g.in[1];
        int loH = g.spec.padLow()[0], loW = g.spec.padLow()[1];
        int wp = uw + 2, bh = uh / 2, bw = uw / 2;
        int op = roundUp(o, COLS), mr = roundUp(c, ROWS);
        int rowsPerChunk = Math.max(1, CHUNK_BLOCKS / bw), kMax = rowsPerChunk * bw, nob = op / COLS;
        int ks = kMax + L; // an input row of xt: a block row's last group of L blocks spills up to L - 1 past it
        VectorMask<Float>[] masks = inputMasks(bw, loW, Math.min(wp - loW, inW));
        // the input buffer: a padding row of zeros read from L on (a lane may read one before), then the chunk's copied rows
        int xData = inW + 2 * L, xbSize = xData + (2 * rowsPerChunk + 2) * inW + 2 * bw + 4 * L, gRow = 2 * rowsPerChunk * uw + L;
        long inPlane = g.inPlane, uPlane = (long) uh * uw;
        long xImage = swapped ? c * inPlane : inPlane, xChannel = swapped ? inPlane : n * inPlane;
        long gImage = swapped ? o * uPlane : uPlane, gChannel = swapped ? uPlane : n * uPlane;
        // work units (image, chunk) in order, cut into a fixed number of parts whose sums are added in order: the result does
        // not depend on the threads, and parts smaller than an image keep a helper that starts late from leaving the
        // caller a whole image to finish alone
        int chunks = (bh + rowsPerChunk - 1) / rowsPerChunk;
        long units = (long) n * chunks;
        int parts = (int) Math.min(units, PARTIALS), mSize = XI * mr * op;
        float[][] partial = new float[parts][];
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        int xtSize = XI * mr * ks, gtSize = XI * nob * kMax * COLS, gRowsSize = 2 * rowsPerChunk * uw * op, gbSize = op * gRow;
        Runnable participant = () -> {
            float[][] b = buffers(xtSize, gtSize, gRowsSize, xbSize, gbSize);
            // rows of xt past C, and of gb past O, hold whatever they held: they reach only the sums' padding rows and columns
            float[] xt = b[0], gt = b[1], gRows = b[2], xb = b[3], gb = b[4];
            Arrays.fill(xb, 0, xData, 0f); // the padding row
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                float[] m = partial[p] = new float[mSize];
                for (long u = units * p / parts; u < units * (p + 1) / parts; u++) {
                    long i = u / chunks;
                    int r0 = (int) (u % chunks) * rowsPerChunk, rows = Math.min(rowsPerChunk, bh - r0);
                    for (int ch = 0; ch < c; ch++) {
                        transformInput(x, i * xImage + ch * xChannel, inH, inW, 2 * r0 - loH, loW, rows, bw, masks, xb, xData, xt, ch * ks, mr * ks);
                    }
                    cotangentRows(k, i * gImage, gChannel, o, uw, 2 * r0, 2 * rows, op, gb, gRow, gRows);
                    transformCotangent(gRows, rows, bw, uw, op, kMax, nob, gt);
                    multiply(xt, gt, m, rows * bw, kMax, ks, nob, op, mr);
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

    /** Per thread: the transformed operands and the row buffers of {@link #run}, reused across calls (softly held). */
    private static final ThreadLocal<java.lang.ref.SoftReference<float[][]>> BUFFERS = new ThreadLocal<>();

    static float[][] buffers(int... sizes) {
        java.lang.ref.SoftReference<float[][]> ref = BUFFERS.get();
        float[][] b = ref == null ? null : ref.get();
        if (b == null) b = new float[sizes.length][];
        else if (b.length < sizes.length) b = Arrays.copyOf(b, sizes.length); // F(3, 4) asks for more
        boolean grown = false;
        for (int i = 0; i < sizes.length; i++) {
            if (b[i] == null || b[i].length < sizes[i]) {
                b[i] = new float[sizes[i]];
                grown = true;
            }
        }
        if (grown || ref == null || ref.get() == null) BUFFERS.set(new java.lang.ref.SoftReference<>(b));
        return b;
    }

    /** Blocks {@code 2j} and {@code 2j + 1} of a row of 2L: the even and the odd lanes of two vectors. */
    private static final jdk.incubator.vector.VectorShuffle<Float> EVEN = wrapped(0), ODD = wrapped(1);

    private static jdk.incubator.vector.VectorShuffle<Float> wrapped(int first) {
        int[] idx = new int[L];
        for (int i = 0; i < L; i++) idx[i] = 2 * i + first < L ? 2 * i + first : 2 * i + first - 2 * L;
        return jdk.incubator.vector.VectorShuffle.fromArray(S, idx, 0);
    }

    /**
     * Per group of {@code L} blocks of a block row, the lanes that its four loads of a row ({@link #inputTiles}: at padded
     * columns {@code 2j}, {@code 2j + L}, {@code 2j + 2}, {@code 2j + L + 2}) take from the input row (columns {@code 0 ..
     * limit - 1}, {@code lo} columns right of the padded row's start); the others are zeroed (they read a neighbouring row).
     */
    @SuppressWarnings("unchecked")
    private static VectorMask<Float>[] inputMasks(int bw, int lo, int limit) {
        int groups = (bw + L - 1) / L;
        VectorMask<Float>[] m = new VectorMask[4 * groups];
        int[] off = {0, L, 2, L + 2};
        for (int gi = 0; gi < groups; gi++) {
            for (int k = 0; k < 4; k++) {
                long bits = 0;
                for (int i = 0; i < L; i++) {
                    int col = 2 * gi * L + off[k] + i - lo;
                    if (col >= 0 && col < limit) bits |= 1L << i;
                }
                m[4 * gi + k] = VectorMask.fromLong(S, bits);
            }
        }
        return m;
    }


    /**
     * One channel's input tiles of block rows {@code 0 .. rows-1} of the chunk, from its plane ({@code base}, {@code inH ×
     * inW}; the chunk's padded row 0 is the plane's row {@code h0}, padded column 0 its column {@code -lo}): the chunk's rows
     * of the plane copied to {@code xb} from {@code xData} at once (contiguous in NCHW; one copy per row cost more than the rest), then
     * transformed on both axes into {@code xt[ξ][channel][r·bw + j]} ({@code at}: the channel's row, {@code xiStride}
     * between transform positions), {@code L} blocks a vector. A block row's last vector also writes up to {@code L - 1}
     * blocks past it: the next block row's (written after it) or the row's slack.
     */
    private static void transformInput(MemorySegment x, long base, int inH, int inW, int h0, int lo, int rows, int bw,
                                       VectorMask<Float>[] masks, float[] xb, int xData, float[] xt, int at, int xiStride) {
        int count = 2 * rows + 2, first = Math.max(0, h0), end = Math.min(inH, h0 + count);
        if (end > first) MemorySegment.copy(x, FL, (base + (long) first * inW) * Float.BYTES, xb, xData + (first - h0) * inW, (end - first) * inW);
        for (int r = 0; r < rows; r++) {
            int h = 2 * r;
            int r0 = rowAt(h, h0, inH, inW, xData), r1 = rowAt(h + 1, h0, inH, inW, xData), r2 = rowAt(h + 2, h0, inH, inW, xData);
            int r3 = rowAt(h + 3, h0, inH, inW, xData);
            for (int j = 0; j < bw; j += L) {
                int mi = 4 * (j / L), q = 2 * j - lo;
                inputTiles(xb, r0 + q, r1 + q, r2 + q, r3 + q, masks[mi], masks[mi + 1], masks[mi + 2], masks[mi + 3], xt, at + r * bw + j, xiStride);
            }
        }
    }

    /** Where chunk row {@code h}'s column 0 lies in the buffer: its copy, or the padding row (zeros) where it is padding. */
    private static int rowAt(int h, int h0, int inH, int inW, int xData) {
        return h0 + h < 0 || h0 + h >= inH ? L : xData + h * inW;
    }

    /**
     * {@code L} blocks' 4×4 tiles of one channel (the rows' first loads at {@code r0 .. r3} in {@code a}; lanes outside
     * {@code m0 .. m3} zeroed) transformed into {@code xt}: per row, block {@code j}'s columns {@code 2j .. 2j + 3} are the
     * even and odd lanes of the row's vectors at {@code 2j} and {@code 2j + 2}.
     */
    private static void inputTiles(float[] a, int r0, int r1, int r2, int r3, VectorMask<Float> m0, VectorMask<Float> m1,
                                   VectorMask<Float> m2, VectorMask<Float> m3, float[] xt, int to, int xiStride) {
        FloatVector z = FloatVector.zero(S);
        FloatVector e00, e01, e02, e03, e10, e11, e12, e13, e20, e21, e22, e23, e30, e31, e32, e33;
        { // along the columns, per row: (d0 - d2, d1 + d2, d2 - d1, d3 - d1)
            FloatVector u = z.blend(FloatVector.fromArray(S, a, r0), m0), v = z.blend(FloatVector.fromArray(S, a, r0 + L), m1);
            FloatVector u2 = z.blend(FloatVector.fromArray(S, a, r0 + 2), m2), v2 = z.blend(FloatVector.fromArray(S, a, r0 + L + 2), m3);
            FloatVector d0 = u.rearrange(EVEN, v), d1 = u.rearrange(ODD, v), d2 = u2.rearrange(EVEN, v2), d3 = u2.rearrange(ODD, v2);
            e00 = d0.sub(d2); e01 = d1.add(d2); e02 = d2.sub(d1); e03 = d3.sub(d1);
        }
        {
            FloatVector u = z.blend(FloatVector.fromArray(S, a, r1), m0), v = z.blend(FloatVector.fromArray(S, a, r1 + L), m1);
            FloatVector u2 = z.blend(FloatVector.fromArray(S, a, r1 + 2), m2), v2 = z.blend(FloatVector.fromArray(S, a, r1 + L + 2), m3);
            FloatVector d0 = u.rearrange(EVEN, v), d1 = u.rearrange(ODD, v), d2 = u2.rearrange(EVEN, v2), d3 = u2.rearrange(ODD, v2);
            e10 = d0.sub(d2); e11 = d1.add(d2); e12 = d2.sub(d1); e13 = d3.sub(d1);
        }
        {
            FloatVector u = z.blend(FloatVector.fromArray(S, a, r2), m0), v = z.blend(FloatVector.fromArray(S, a, r2 + L), m1);
            FloatVector u2 = z.blend(FloatVector.fromArray(S, a, r2 + 2), m2), v2 = z.blend(FloatVector.fromArray(S, a, r2 + L + 2), m3);
            FloatVector d0 = u.rearrange(EVEN, v), d1 = u.rearrange(ODD, v), d2 = u2.rearrange(EVEN, v2), d3 = u2.rearrange(ODD, v2);
            e20 = d0.sub(d2); e21 = d1.add(d2); e22 = d2.sub(d1); e23 = d3.sub(d1);
        }
        {
            FloatVector u = z.blend(FloatVector.fromArray(S, a, r3), m0), v = z.blend(FloatVector.fromArray(S, a, r3 + L), m1);
            FloatVector u2 = z.blend(FloatVector.fromArray(S, a, r3 + 2), m2), v2 = z.blend(FloatVector.fromArray(S, a, r3 + L + 2), m3);
            FloatVector d0 = u.rearrange(EVEN, v), d1 = u.rearrange(ODD, v), d2 = u2.rearrange(EVEN, v2), d3 = u2.rearrange(ODD, v2);
            e30 = d0.sub(d2); e31 = d1.add(d2); e32 = d2.sub(d1); e33 = d3.sub(d1);
        }
        int s = xiStride; // along the rows
        e00.sub(e20).intoArray(xt, to); e01.sub(e21).intoArray(xt, to + s); e02.sub(e22).intoArray(xt, to + 2 * s); e03.sub(e23).intoArray(xt, to + 3 * s);
        e10.add(e20).intoArray(xt, to + 4 * s); e11.add(e21).intoArray(xt, to + 5 * s); e12.add(e22).intoArray(xt, to + 6 * s); e13.add(e23).intoArray(xt, to + 7 * s);
        e20.sub(e10).intoArray(xt, to + 8 * s); e21.sub(e11).intoArray(xt, to + 9 * s); e22.sub(e12).intoArray(xt, to + 10 * s); e23.sub(e13).intoArray(xt, to + 11 * s);
        e30.sub(e10).intoArray(xt, to + 12 * s); e31.sub(e11).intoArray(xt, to + 13 * s); e32.sub(e12).intoArray(xt, to + 14 * s); e33.sub(e13).intoArray(xt, to + 15 * s);
    }

    /**
     * The cotangent's rows {@code h0 .. h0 + count - 1} of one image ({@code chans} planes from {@code base}, {@code chStride}
     * apart, rows of {@code uw}) as channels-last rows {@code [count][uw][op]} (channels past {@code chans} zero): each
     * plane's rows copied at once to {@code buf} ({@code [op][bufRow]}; its rows past {@code chans} zero), then L × L
     * transpositions ({@link FloatTranspose16} or {@link FloatTranspose8}; a row's last piece reads up to L - 1 floats past it, into the next row or the
     * buffer row's slack).
     */
    static void cotangentRows(MemorySegment g, long base, long chStride, int chans, int uw, int h0, int count, int op,
                                      float[] buf, int bufRow, float[] dst) {
        for (int ch = 0; ch < chans; ch++) {
            MemorySegment.copy(g, FL, (base + ch * chStride + (long) h0 * uw) * Float.BYTES, buf, ch * bufRow, count * uw);
        }
        for (int r = 0; r < count; r++) {
            for (int f = 0; f < op; f += L) {
                for (int w = 0; w < uw; w += L) {
                    int at = f * bufRow + r * uw + w, to = (r * uw + w) * op + f, columns = Math.min(L, uw - w);
                    if (L == 16) FloatTranspose16.transpose(buf, at, bufRow, dst, to, op, columns);
                    else FloatTranspose8.transpose(buf, at, bufRow, dst, to, op, columns);
                }
            }
        }
    }

    /**
     * The cotangent's 2×2 blocks of the chunk ({@code gRows}: {@code 2·rows} rows of {@code uw} positions) transformed into
     * {@code gt[ξ][column block][block][COLS]} (the tile's steps a constant {@code COLS} apart).
     */
    private static void transformCotangent(float[] gRows, int rows, int bw, int uw, int op, int kMax, int nob, float[] gt) {
        int row = uw * op, xiStride = nob * kMax * COLS;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < bw; j++) {
                int origin = (2 * r * uw + 2 * j) * op, k = r * bw + j;
                for (int v = 0; v < op; v += L) cotangentBlock(gRows, origin + v, row, op, gt, ((v / COLS) * kMax + k) * COLS + v % COLS, xiStride);
            }
        }
    }

    private static void cotangentBlock(float[] a, int at, int row, int col, float[] gt, int to, int xiStride) {
        FloatVector h = FloatVector.broadcast(S, 0.5f);
        FloatVector g00 = FloatVector.fromArray(S, a, at), g01 = FloatVector.fromArray(S, a, at + col);
        FloatVector g10 = FloatVector.fromArray(S, a, at + row), g11 = FloatVector.fromArray(S, a, at + row + col);
        // along the columns: (g0, (g0 + g1)/2, (g0 - g1)/2, g1) per row
        FloatVector a00 = g00, a01 = g00.add(g01).mul(h), a02 = g00.sub(g01).mul(h), a03 = g01;
        FloatVector a10 = g10, a11 = g10.add(g11).mul(h), a12 = g10.sub(g11).mul(h), a13 = g11;
        int s = xiStride;
        a00.intoArray(gt, to); a01.intoArray(gt, to + s); a02.intoArray(gt, to + 2 * s); a03.intoArray(gt, to + 3 * s);
        a00.add(a10).mul(h).intoArray(gt, to + 4 * s); a01.add(a11).mul(h).intoArray(gt, to + 5 * s);
        a02.add(a12).mul(h).intoArray(gt, to + 6 * s); a03.add(a13).mul(h).intoArray(gt, to + 7 * s);
        a00.sub(a10).mul(h).intoArray(gt, to + 8 * s); a01.sub(a11).mul(h).intoArray(gt, to + 9 * s);
        a02.sub(a12).mul(h).intoArray(gt, to + 10 * s); a03.sub(a13).mul(h).intoArray(gt, to + 11 * s);
        a10.intoArray(gt, to + 12 * s); a11.intoArray(gt, to + 13 * s); a12.intoArray(gt, to + 14 * s); a13.intoArray(gt, to + 15 * s);
    }

    /** Per transform position, {@code m[ξ][C][O] += xt[ξ] · gt[ξ]} over the chunk's blocks. */
    private static void multiply(float[] xt, float[] gt, float[] m, int blocks, int kMax, int ks, int nob, int op, int mr) {
        for (int xi = 0; xi < XI; xi++) {
            int a = xi * mr * ks, acc = xi * mr * op;
            for (int ob = 0; ob < nob; ob++) {
                int b = (xi * nob + ob) * kMax * COLS;
                for (int r = 0; r < mr; r += ROWS) WinogradGemmTile.run(xt, a + r * ks, ks, gt, b, blocks, m, acc + r * op + ob * COLS, op);
            }
        }
    }

    /**
     * Channel {@code ch}'s rows of the parts' products ({@code [points][mr][op]} each) added in part order into
     * {@code sums} as {@code [points][op]} (a fixed order: the same result for any thread count).
     */
    static void sumParts(float[][] partial, int parts, int points, int ch, int mr, int op, float[] sums) {
        int xs = mr * op;
        for (int xi = 0; xi < points; xi++) {
            int at = xi * xs + ch * op;
            for (int f = 0; f < op; f += L) {
                FloatVector s = FloatVector.fromArray(S, partial[0], at + f);
                for (int p = 1; p < parts; p++) s = s.add(FloatVector.fromArray(S, partial[p], at + f));
                s.intoArray(sums, xi * op + f);
            }
        }
    }

    /**
     * Channel {@code ch}'s taps: its rows of the parts' products ({@code [ξ][mr][op]} each) added in part order, then
     * {@code y = Aᵀ M A} per filter, into {@code y} as {@code [C, O, 3, 3]} or, {@code swapped}, {@code [O, C, 3, 3]}; false
     * when any is not finite. {@code sums}: scratch of {@code 16·op} floats.
     */
    private static boolean outputs(float[][] partial, int parts, int ch, int c, int o, int mr, int op, boolean swapped, float[] sums, float[] y) {
        sumParts(partial, parts, XI, ch, mr, op, sums);
        boolean finite = true;
        for (int f = 0; f < o; f++) {
            float t00 = 0, t01 = 0, t02 = 0, t10 = 0, t11 = 0, t12 = 0, t20 = 0, t21 = 0, t22 = 0, t30 = 0, t31 = 0, t32 = 0;
            for (int r = 0; r < 4; r++) { // along the columns, per row of the 4x4
                float m0 = sums[(4 * r) * op + f], m1 = sums[(4 * r + 1) * op + f], m2 = sums[(4 * r + 2) * op + f], m3 = sums[(4 * r + 3) * op + f];
                float a = m0 + m1 + m2, b = m1 - m2, d = m1 + m2 + m3;
                switch (r) {
                    case 0 -> { t00 = a; t01 = b; t02 = d; }
                    case 1 -> { t10 = a; t11 = b; t12 = d; }
                    case 2 -> { t20 = a; t21 = b; t22 = d; }
                    default -> { t30 = a; t31 = b; t32 = d; }
                }
            }
            int to = (swapped ? f * c + ch : ch * o + f) * 9;
            // along the rows: (t0 + t1 + t2, t1 - t2, t1 + t2 + t3) per column
            y[to] = t00 + t10 + t20; y[to + 1] = t01 + t11 + t21; y[to + 2] = t02 + t12 + t22;
            y[to + 3] = t10 - t20; y[to + 4] = t11 - t21; y[to + 5] = t12 - t22;
            y[to + 6] = t10 + t20 + t30; y[to + 7] = t11 + t21 + t31; y[to + 8] = t12 + t22 + t32;
            for (int q = 0; q < 9; q++) finite &= Float.isFinite(y[to + q]);
        }
        return finite;
    }

    static int roundUp(int v, int m) {
        return (v + m - 1) / m * m;
    }
}
