package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * F32 convolutions on channels-last tensors ({@code [N, s..., C]}, the layout of the nn layers),
 * so that a Jit graph's layout transposes around a conv need not run ({@link ChannelsLastConvs}
 * finds them). Both are implicit GEMMs on {@link ChannelsLastTile}, one zero-padded image at a
 * time in a heap array (cache-resident, no bounds logic):
 * <ul>
 *   <li>{@link #forward}: {@code y[n, q, f] = Σ_{t, c} x[n, q·stride + t·dilation - lo, c] · k[f, c, t]}
 *       (the forward conv and the input cotangent); rows are output positions, the reduction runs
 *       over taps, then channels (contiguous in channels-last), against the kernel packed in column
 *       blocks of {@link ChannelsLastTile#COLS} filters. With two spatial axes, 12-row tiles
 *       ({@link ChannelsLastTile#run12}) over a {@link RunImage} of the image take most rows.</li>
 *   <li>{@link #kernelGradient}: {@code dk[t, c, f] = Σ_{n, u} x[n, t·stride + u·dilation - lo, c] · g[n, u, f]}
 *       (the kernel cotangent, HWIO); rows are (tap, channel) pairs, the reduction runs over the
 *       cotangent's positions, image by image, into a fixed number of partial sums added in order,
 *       so the result does not depend on the thread count. With 512-bit vectors and 8 channels or more,
 *       12-row tiles ({@link ChannelsLastTile#panel12}) read a block's rows in the padded image and the
 *       cotangent where it lies ({@link #panelGradient}); else each image is first copied channel-major
 *       ({@link ChannelMajorImage}) and the cotangent into column blocks, so that the reduction's
 *       steps are unit strides in both, as the 6-row tile needs.</li>
 * </ul>
 * Sums are F32 with fma. Unit input dilation and one group only ({@link #applies}).
 */
final class ChannelsLastConvF32 {
    private ChannelsLastConvF32() {}

    private static final int R = ChannelsLastTile.ROWS, W = ChannelsLastTile.COLS;
    /** Partial sums of the kernel gradient (a fixed count: results independent of the threads). */
    private static final int PARTIALS = 8;
    /**
     * Bytes of the packed kernel that one pass of a forward conv's tiles reads: the reduction over taps is split into
     * chunks of whole taps within this, so that those kernel rows stay in L1 (48 KiB on recent x86 cores) across the tiles
     * of an image, with room for the image; a later chunk continues the stored sums (same bits). Conv 2's input cotangent
     * (64 channels, 74 KiB of kernel) ran 13% faster alone on AVX-512 with it.
     */
    static final int CHUNK_BYTES = 24 << 10;
    private static final long MAX = Integer.MAX_VALUE - 64;
    private static final ValueLayout.OfFloat FL = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** Whether the kernels cover {@code spec}: no input dilation, no feature or batch groups. */
    static boolean applies(ConvSpec spec) {
        if (spec.featureGroups() != 1 || spec.batchGroups() != 1) return false;
        for (int d : spec.inputDilation()) if (d != 1) return false;
        return true;
    }

    /**
     * The conv of channels-last {@code x} ({@code xs = [N, s..., C]}) with the canonical kernel
     * {@code k} ({@code ks = [O, C, k...]}), channels-last ({@code [N, o..., O]}); {@code null} when
     * the sizes do not fit the kernel's int indexing or are empty. A {@code bias} ({@code [O]}, or
     * {@code null}) is added to each sum once it is rounded: the result equals conv, then add. With
     * {@code relu}, the result is {@code z <= 0 ? +0 : z} (NaN stays), and with {@code mask} too it is two
     * buffers: the PRED mask {@code z <= 0}, then that.
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel) {
        return forward(x, xs, k, ks, bias, relu, mask, spec, parallel, true, CHUNK_BYTES);
    }

    /**
     * {@link #forward}; {@code skipPadding}: whether taps that read only padding may be skipped ({@link TapGroup}),
     * {@code chunkBytes}: {@link #CHUNK_BYTES} (tests compare other values).
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel, boolean skipPadding, int chunkBytes) {
        return forward(x, xs, k, ks, bias, relu, mask, spec, parallel, skipPadding, chunkBytes, PANELS);
    }

    /** {@link #forward}; {@code scatter}: whether the scatter form ({@link #scatterForward}) may run where it applies. */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel, boolean skipPadding, int chunkBytes, boolean scatter) {
        return forward(x, xs, k, ks, bias, relu, mask, spec, parallel, skipPadding, chunkBytes, scatter, true);
    }

    /**
     * {@link #forward}; {@code twelveRows}: whether the 12-row tiles over a {@link RunImage} may run where they apply
     * ({@link #TWELVE_ROWS}), instead of the 6-row tiles (tests compare both: the same bits).
     */
    static List<Buffer> forward(MemorySegment x, Shape xs, MemorySegment k, Shape ks, MemorySegment bias, boolean relu, boolean mask,
                                ConvSpec spec, Parallel parallel, boolean skipPadding, int chunkBytes, boolean scatter, boolean twelveRows) {
        int sr = spec.spatialRank();
        int n = xs.dim(0), c = xs.dim(sr + 1), o = ks.dim(0);
        int[] kDims = spatial(ks, 2, sr);
        PaddedImage img = new PaddedImage(spatial(xs, 1, sr), c, spec.padLow(), spec.padHigh());
        int[] out = slides(img, kDims, spec.kernelDilation(), spec.strides());
        long outPlane = product(out), taps = product(kDims);
        long kCount = taps * c;
        int blocks = (o + W - 1) / W;
        if (n == 0 || o == 0 || outPlane == 0 || kCount == 0 || img.size > MAX || (outPlane + R) * o + W > MAX
                || kCount * blocks * W > MAX) return null;
        int[] tapOff = offsets(kDims, spec.kernelDilation(), img);
        int[] rowBase = offsets(out, spec.strides(), img);
        float[] w = pack(k, o, c, (int) taps, blocks);
        if (scatter && scatters(spec, kDims, img, bias, relu, o, c) && finite(w)) {
            HostBuffer r = scatterForward(x, n, img, kDims, spec.kernelDilation(), out, w, c, o, blocks, parallel);
            if (r != null) return List.of(r);
        }
        // the bias padded to whole blocks: a partial block's tile adds it past O too (into rows that get overwritten)
        float[] bv = bias == null ? null : java.util.Arrays.copyOf(bias.toArray(FL), blocks * W);
        boolean reluTile = relu && !mask; // with the mask kept, the pass below makes both
        List<TapGroup> groups = skipPadding && finite(w) ? tapGroups(img, out, kDims, spec, tapOff) : List.of(new TapGroup(0, (int) outPlane, 0, tapOff));
        int plane = (int) outPlane, nTaps = (int) taps;
        // With unit kernel dilation on the last axis, a kernel row's taps read kw·C consecutive floats of the padded image
        // (and of the packed kernel): one reduction run each instead of kw runs of C (a one-channel conv had runs of 1).
        // Tap groups take whole kernel rows when there are two spatial axes or more (with one, a group's taps are part of a row).
        int merged = sr >= 2 && spec.kernelDilation()[sr - 1] == 1 ? kDims[sr - 1] : 1, runLength = merged * c;
        List<int[]> runs = groups.stream().map(g -> everyNth(g.tapOffsets, merged)).toList();
        RunImage runImage = twelveRows && TWELVE_ROWS && c >= PANEL_MIN_CHANNELS ? RunImage.of(img, out, spec, runLength, groups, merged) : null;
        HostBuffer wBuffer = runImage == null ? null : aligned(w);
        MemorySegment wNative = wBuffer == null ? null : wBuffer.segment();
        HostBuffer result = HostBuffer.uninitialized((long) n * outPlane * o * Float.BYTES);
        boolean keepMask = relu && mask;
        HostBuffer maskResult = keepMask ? HostBuffer.uninitialized((long) n * outPlane * o) : null;
        MemorySegment dst = result.segment(), maskDst = keepMask ? maskResult.segment() : null;
        // One tap group on the run image with one or two rows left after its 12-row tiles (conv 2: 121 = 10·12 + 1): those
        // rows of several images go through one 12-row tile ({@link #tailTile}) instead of one-row tiles each.
        int tailRows = runImage != null && groups.size() == 1 ? (groups.get(0).to - groups.get(0).from) % ChannelsLastTile.RUN12_ROWS : 0;
        boolean batchTails = tailRows >= 1 && tailRows <= ChannelsLastTile.TAIL_ROWS;
        int perTail = batchTails ? ChannelsLastTile.RUN12_ROWS / tailRows : 0;
        int[] tailSteps = batchTails ? tailSteps(runImage.runs.get(0).length, runLength) : null;
        // Then, with whole column blocks (no tile's spill into a row another thread writes) and no mask pass, the tiles store
        // straight into the output: no per-image copy (0.15 of conv 2's 3.9 ms on one thread).
        boolean direct = batchTails && !keepMask && o % W == 0;
        try {
            parallel.forRange(n, outPlane * o * kCount, (lo, hi) -> {
                // the batched last rows: image m's row i at slot m·tailRows + i, run k of slot s at (k·12 + s)·RUN_STRIDE
                float[] tail = batchTails ? new float[tailSteps.length / runLength * ChannelsLastTile.RUN12_ROWS * RunImage.STRIDE] : null;
                float[] tailY = batchTails ? new float[ChannelsLastTile.RUN12_ROWS * o + W] : null;
                long tailFirst = lo;
                // (no padded image where the run image is filled straight from the input)
                float[] a = runImage == null || !img.unpadded ? new float[(int) img.size] : null;
                // the image the tiles read: the padded image, or the run image (where the 6-row tiles read it too), which
                // is a per-thread scratch: fill writes every float the tiles read, and a fresh array per task cost its zeroing
                float[] src = runImage == null ? a : Scratch.floats((int) runImage.size);
                int[] bases = runImage == null ? rowBase : runImage.rowBase;
                List<int[]> segments = runImage == null ? runs : runImage.runs;
                // One image's output, written by the tiles in place (row pitch O) and copied out at once. A last,
                // partial block's tile rows run past their row into the next one; that block goes first, so the
                // full blocks overwrite the spill (and the rows past the plane land in the slack).
                float[] y = direct ? null : new float[(plane + R) * o + W];
                byte[] masks = keepMask ? new byte[plane * o] : null;
                for (long b = lo; b < hi; b++) {
                    if (runImage != null) runImage.fill(x, b, a, src);
                    else img.fill(x, b, a);
                    // group by group: a group's last tiles write past its rows, into the next group's, which come later
                    for (int gi = 0; gi < groups.size(); gi++) {
                        TapGroup g = groups.get(gi);
                        int from = runImage == null ? g.from
                                : twelveRowTiles(src, runImage.steps.get(gi), g, wNative, nTaps, c, o, blocks, direct ? null : y,
                                        dst, b * plane * o, bv, reluTile);
                        if (batchTails) tailEntries(src, from, tailRows, runImage.runs.get(0), runLength, tail, (int) (b - tailFirst) * tailRows);
                        else sixRowTiles(src, bases, segments.get(gi), g, from, w, nTaps, c, o, blocks, merged, runLength, chunkBytes, y, bv, reluTile);
                    }
                    if (keepMask) {
                        for (int i = 0; i < plane * o; i++) {
                            boolean off = y[i] <= 0f; // NaN stays
                            masks[i] = (byte) (off ? 1 : 0);
                            if (off) y[i] = 0f;
                        }
                        MemorySegment.copy(masks, 0, maskDst, ValueLayout.JAVA_BYTE, b * plane * o, plane * o);
                    }
                    if (!direct) MemorySegment.copy(y, 0, dst, FL, b * plane * o * Float.BYTES, plane * o);
                    if (batchTails && (b + 1 - tailFirst == perTail || b + 1 == hi)) { // the batch's last rows, over the stale ones just copied
                        tailTile(tail, tailSteps, wNative, nTaps, groups.get(0).tapFrom, c, o, blocks, tailY, bv, reluTile, keepMask, (int) (b + 1 - tailFirst) * tailRows,
                                tailFirst, plane - tailRows, plane, dst, maskDst);
                        tailFirst = b + 1;
                    }
                }
            });
        } finally {
            if (wBuffer != null) wBuffer.release();
        }
        return keepMask ? List.of(maskResult, result) : List.of(result);
    }

    /**
     * Whether the forward conv takes {@link ChannelsLastTile#run12} tiles where a {@link RunImage} serves: with 512-bit
     * vectors (32 registers hold the 24 accumulators) and at least {@link #PANEL_MIN_CHANNELS} channels (runs long
     * enough to copy by vectors; conv 1's one channel keeps the 6-row tiles). The small CNN's conv 2 ran 1.2-1.35x faster
     * alone with them (ConvTileTiming, 2 threads, 2026-12-06).
     */
    static final boolean TWELVE_ROWS = ChannelsLastTile.L >= 16;

    /**
     * Group {@code g}'s rows in {@link ChannelsLastTile#run12} tiles over the run image {@code ri}, from its first row on,
     * each tile's whole reduction for every column block in turn (the tile's rows stay in L1; the packed kernel comes from
     * L2); returns the first row left, fewer than 12 before the group's end. The rows go to {@code y}, or (with {@code y}
     * null) to the native output {@code ys} from float {@code yBase} on ({@link ChannelsLastTile#run12Out}).
     */
    private static int twelveRowTiles(float[] ri, int[] steps, TapGroup g, MemorySegment w, int nTaps, int c, int o, int blocks,
                                      float[] y, MemorySegment ys, long yBase, float[] bias, boolean relu) {
        final int rows = ChannelsLastTile.RUN12_ROWS;
        int q = g.from;
        for (; g.to - q >= rows; q += rows) {
            for (int i = 0; i < blocks; i++) {
                int blk = (i + blocks - 1) % blocks; // a partial block first: the full blocks overwrite its spill
                long bBase = (long) (blk * nTaps + g.tapFrom) * c * W * Float.BYTES;
                if (y != null) ChannelsLastTile.run12(ri, q * RunImage.STRIDE, steps, steps.length, w, bBase, y, q * o + blk * W, o);
                else ChannelsLastTile.run12Out(ri, q * RunImage.STRIDE, steps, steps.length, w, bBase, ys, yBase + q * o + blk * W, o);
            }
            if (bias != null || relu) { // a row at a time, all its columns: its spill is overwritten by now
                for (int r = 0; r < rows; r++) {
                    if (y != null) ChannelsLastTile.finishRow(y, (q + r) * o, o, bias, 0, relu);
                    else ChannelsLastTile.finishRow(ys, yBase + (long) (q + r) * o, o, bias, 0, relu); // whole blocks
                }
            }
        }
        return q;
    }

    /** A {@link #tailTile}'s steps: run {@code k}'s floats at {@code k·12·RUN_STRIDE} on. */
    private static int[] tailSteps(int runs, int runLength) {
        int[] p = new int[runs * runLength];
        for (int i = 0; i < p.length; i++) p[i] = i / runLength * ChannelsLastTile.RUN12_ROWS * RunImage.STRIDE + i % runLength;
        return p;
    }

    /** The runs of the run image {@code ri}'s rows {@code from .. from + rows - 1} into {@code tail}'s slots {@code slot ..} ({@link #tailTile}). */
    private static void tailEntries(float[] ri, int from, int rows, int[] runs, int runLength, float[] tail, int slot) {
        final int rs = RunImage.STRIDE, t12 = ChannelsLastTile.RUN12_ROWS;
        for (int i = 0; i < rows; i++) {
            for (int k = 0; k < runs.length; k++) {
                System.arraycopy(ri, (from + i) * rs + runs[k], tail, (k * t12 + slot + i) * rs, runLength);
            }
        }
    }

    /**
     * The last rows {@code rowFrom .. rowTo - 1} of {@code slots / (rowTo - rowFrom)} images from {@code image0} on, whose
     * runs {@link #tailEntries} gathered in {@code tail}, as one {@link ChannelsLastTile#run12} tile per column block (the
     * slots past {@code slots} compute stale rows, not stored): each row the same fma chain from zero over the same steps
     * as the {@link ChannelsLastTile#runRow} tiles it replaces (which were latency bound: two dependent chains per call),
     * so the same bits; then the bias, ReLU and mask as the other rows get them, straight into the output.
     */
    private static void tailTile(float[] tail, int[] steps, MemorySegment w, int nTaps, int tapFrom, int c, int o, int blocks, float[] ty, float[] bias,
                                 boolean relu, boolean keepMask, int slots, long image0, int rowFrom, int plane, MemorySegment dst,
                                 MemorySegment maskDst) {
        for (int i = 0; i < blocks; i++) {
            int blk = (i + blocks - 1) % blocks; // a partial block first: the full blocks overwrite its spill
            ChannelsLastTile.run12(tail, 0, steps, steps.length, w, (long) (blk * nTaps + tapFrom) * c * W * Float.BYTES, ty, blk * W, o);
        }
        int rows = plane - rowFrom;
        for (int s = 0; s < slots; s++) {
            if (bias != null || relu) ChannelsLastTile.finishRow(ty, s * o, o, bias, 0, relu);
            long at = ((image0 + s / rows) * plane + rowFrom + s % rows) * o;
            if (keepMask) {
                for (int j = s * o; j < (s + 1) * o; j++) {
                    boolean off = ty[j] <= 0f; // NaN stays
                    maskDst.set(ValueLayout.JAVA_BYTE, at + j - s * o, (byte) (off ? 1 : 0));
                    if (off) ty[j] = 0f;
                }
            }
            MemorySegment.copy(ty, s * o, dst, FL, at * Float.BYTES, o);
        }
    }

    /**
     * Group {@code g}'s rows from {@code from} on in {@link ChannelsLastTile#run} tiles (and one-row tiles for the last one
     * or two), over {@code a} with the rows' bases {@code rowBase} and the group's runs {@code segOff}: column block by
     * block, the reduction in chunks of {@code chunkBytes} of the packed kernel.
     */
    private static void sixRowTiles(float[] a, int[] rowBase, int[] segOff, TapGroup g, int from, float[] w, int nTaps, int c, int o,
                                    int blocks, int merged, int runLength, int chunkBytes, float[] y, float[] bias, boolean relu) {
        int end = g.to - 1, gt = segOff.length;
        int chunk = Math.max(1, Math.min(gt, chunkBytes / (runLength * W * Float.BYTES)));
        for (int i = 0; from < g.to && i < blocks; i++) {
            int blk = (i + blocks - 1) % blocks;
            for (int t0 = 0; t0 == 0 || t0 < gt; t0 += chunk) { // once at least: rows with no taps get 0 + bias
                int nt = Math.min(chunk, gt - t0);
                boolean first = t0 == 0, last = t0 + nt == gt;
                int bBase = (blk * nTaps + g.tapFrom + t0 * merged) * c * W;
                float[] bvc = last ? bias : null;
                boolean reluc = last && relu;
                for (int q0 = from; q0 < g.to; q0 += R) {
                    if (g.to - q0 <= ChannelsLastTile.TAIL_ROWS) {
                        for (int q = q0; q < g.to; q++) {
                            ChannelsLastTile.runRow(a, rowBase[q], segOff, t0, nt, runLength, w, bBase, y,
                                    q * o + blk * W, !first, bvc, blk * W, reluc);
                        }
                        break;
                    }
                    ChannelsLastTile.run(a, rowBase[q0], rowBase[Math.min(q0 + 1, end)], rowBase[Math.min(q0 + 2, end)],
                            rowBase[Math.min(q0 + 3, end)], rowBase[Math.min(q0 + 4, end)], rowBase[Math.min(q0 + 5, end)],
                            segOff, t0, nt, runLength, w, bBase, y, q0 * o + blk * W, o, !first, bvc, blk * W, reluc);
                }
            }
        }
    }

    /**
     * {@code w} in 64-byte aligned native memory, as the GEMM's B panels (loads that straddle cache lines cost 15-20% there):
     * a pooled host block, which the caller releases once its tiles are done (an automatic arena's allocation took 0.04 ms
     * per call, a serial step before conv 2's tiles).
     */
    private static HostBuffer aligned(float[] w) {
        HostBuffer b = HostBuffer.uninitialized((long) w.length * Float.BYTES);
        MemorySegment.copy(w, 0, b.segment(), FL, 0, w.length);
        return b;
    }

    /**
     * The kernel cotangent: {@code x} channels-last ({@code [N, s..., C]}), {@code g} the output
     * cotangent channels-last ({@code [N, u..., O]}), {@code spec} the cotangent conv's (its strides
     * step the kernel taps, its kernel dilation the cotangent's positions); the result is
     * {@code [k..., C, O]}. {@code null} when the sizes do not fit int indexing or are empty.
     */
    static HostBuffer kernelGradient(MemorySegment x, Shape xs, MemorySegment g, Shape gs, ConvSpec spec, Parallel parallel) {
        return kernelGradient(x, xs, g, gs, spec, parallel, PANELS);
    }

    /**
     * Whether {@link #kernelGradient} takes {@link ChannelsLastTile#panel12} tiles ({@link #panelGradient}) where it can: with
     * 512-bit vectors (32 registers hold the 24 accumulators) and at least {@link #PANEL_MIN_CHANNELS} channels.
     */
    static final boolean PANELS = ChannelsLastTile.L >= 16;
    /** Fewer channels make the panel's runs too short to copy by vectors (conv 1's one channel: a run a row). */
    static final int PANEL_MIN_CHANNELS = 8;

    /**
     * {@link #kernelGradient}; {@code panels}: whether the 12-row panel tiles may run ({@link #PANELS}; tests compare
     * both paths, whose bits are the same).
     */
    static HostBuffer kernelGradient(MemorySegment x, Shape xs, MemorySegment g, Shape gs, ConvSpec spec, Parallel parallel,
                                     boolean panels) {
        int sr = spec.spatialRank();
        int n = xs.dim(0), c = xs.dim(sr + 1), o = gs.dim(sr + 1);
        int[] uDims = spatial(gs, 1, sr);
        PaddedImage img = new PaddedImage(spatial(xs, 1, sr), c, spec.padLow(), spec.padHigh());
        int[] kDims = slides(img, uDims, spec.kernelDilation(), spec.strides());
        long taps = product(kDims), positions = product(uDims);
        long rows = taps * c;
        int blocks = (o + W - 1) / W, pitch = blocks * W;
        boolean usePanels = panels && c >= PANEL_MIN_CHANNELS;
        int tileRows = usePanels ? ChannelsLastTile.PANEL_ROWS : R;
        long rowsPadded = (rows + tileRows - 1) / tileRows * tileRows;
        long gImage = positions * o;
        ChannelMajorImage cm = new ChannelMajorImage(img, spec.kernelDilation()[sr - 1]);
        if (n == 0 || o == 0 || rows == 0 || positions == 0 || img.size > MAX || cm.size > MAX || rowsPadded * pitch > MAX
                || gImage + W > MAX || blocks * positions * W > MAX) return null;
        int nr = (int) rows;
        // rows (tap, channel): the tap's position in the channel-major image, taps stepped by the strides
        int[] rowOff = new int[nr];
        int[] tap = new int[sr];
        for (int t = 0; t < taps; t++) {
            int at = cm.offset(tap, spec.strides());
            for (int ch = 0; ch < c; ch++) rowOff[t * c + ch] = ch * cm.channelSize + at;
            WindowGeometry.next(tap, kDims);
        }
        // the cotangent's positions: one unit-stride run per row of its last spatial axis
        int uLast = uDims[sr - 1];
        int[] rowStarts = new int[(int) (positions / uLast)];
        int[] u = new int[sr], rowDims = java.util.Arrays.copyOf(uDims, sr - 1); // walking rowDims leaves u's last axis at 0
        for (int i = 0; i < rowStarts.length; i++) {
            rowStarts[i] = cm.offset(u, spec.kernelDilation());
            WindowGeometry.next(u, rowDims);
        }
        int parts = Math.min(n, PARTIALS);
        // each allocated (zeroed) by the thread that sums into it, not all by the caller first
        float[][] partial = new float[parts][];
        int partialSize = (int) (rowsPadded * pitch);
        if (usePanels) {
            panelGradient(x, g, img, kDims, uDims, spec, c, o, nr, (int) positions, blocks, pitch, n, parts, partial, partialSize, parallel);
            return sumPartials(partial, parts, nr, o, pitch);
        }
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable participant = () -> { // as panelGradient's
            float[] a = new float[(int) img.size], at = new float[(int) cm.size];
            // the image's cotangent, and as [block][position][W] (a partial block's tail stays 0) unless that is the same
            float[] gi = new float[(int) gImage], gb = o == W ? gi : new float[(int) (blocks * positions * W)];
            int last = nr - 1;
            for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                float[] acc = partial[p] = new float[partialSize];
                for (long b = (long) p * n / parts; b < (long) (p + 1) * n / parts; b++) {
                    img.fill(x, b, a);
                    float[] image = cm.from(a, at);
                    MemorySegment.copy(g, FL, b * gImage * Float.BYTES, gi, 0, (int) gImage);
                    for (int blk = 0; gb != gi && blk < blocks; blk++) {
                        int width = Math.min(W, o - blk * W);
                        for (int q = 0; q < positions; q++) System.arraycopy(gi, q * o + blk * W, gb, (int) ((blk * positions + q) * W), width);
                    }
                    for (int blk = 0; blk < blocks; blk++) {
                        int bBase = (int) (blk * positions * W);
                        for (int r0 = 0; r0 < nr; r0 += R) {
                            ChannelsLastTile.run(image, rowOff[r0], rowOff[Math.min(r0 + 1, last)], rowOff[Math.min(r0 + 2, last)],
                                    rowOff[Math.min(r0 + 3, last)], rowOff[Math.min(r0 + 4, last)], rowOff[Math.min(r0 + 5, last)],
                                    rowStarts, 0, rowStarts.length, uLast, gb, bBase, acc, r0 * pitch + blk * W, pitch, true, null, 0, false);
                        }
                    }
                }
            }
        };
        parallel.runParticipants(rows * o * positions * n, participant);
        return sumPartials(partial, parts, nr, o, pitch);
    }

    /**
     * The partial sums added in order, as {@code [rows, O]}: by vectors, each lane the scalar sum's adds in the same order
     * (the same bits). On the caller: conv 2's kernel cotangent took 0.08 ms in a scalar loop, 0.035 ms by vectors, and
     * 0.09-0.11 ms by vectors on two threads (half the partials come from the other core's cache).
     */
    private static HostBuffer sumPartials(float[][] partial, int parts, int nr, int o, int pitch) {
        final int l = ChannelsLastTile.L;
        HostBuffer result = HostBuffer.uninitialized((long) nr * o * Float.BYTES);
        MemorySegment dst = result.segment();
        java.nio.ByteOrder order = java.nio.ByteOrder.nativeOrder();
        for (int r = 0; r < nr; r++) {
            for (int f = 0; f < o; f += l) {
                VectorMask<Float> m = ChannelsLastTile.S.indexInRange(f, o);
                int at = r * pitch + f; // the pitch is whole vectors: a last partial vector reads the row's padding
                FloatVector s = FloatVector.fromArray(ChannelsLastTile.S, partial[0], at);
                for (int p = 1; p < parts; p++) s = s.add(FloatVector.fromArray(ChannelsLastTile.S, partial[p], at));
                s.intoMemorySegment(dst, ((long) r * o + f) * Float.BYTES, order, m);
            }
        }
        return result;
    }

    /**
     * Whether {@link #scatterForward} computes this conv: a full correlation (each axis padded by the dilated kernel's
     * extent less one on both sides, unit strides: the input cotangent of a valid conv), no bias or ReLU, whole column
     * blocks of filters, {@link #PANEL_MIN_CHANNELS} channels or more.
     */
    private static boolean scatters(ConvSpec spec, int[] kDims, PaddedImage img, MemorySegment bias, boolean relu, int o, int c) {
        if (bias != null || relu || o % W != 0 || c < PANEL_MIN_CHANNELS) return false;
        for (int a = 0; a < kDims.length; a++) {
            int full = (kDims[a] - 1) * spec.kernelDilation()[a];
            if (spec.strides()[a] != 1 || spec.padLow()[a] != full || spec.padHigh()[a] != full || img.in[a] < 1) return false;
        }
        return true;
    }

    /**
     * A full correlation in scatter form: each input position {@code q} meets tap {@code t} in exactly one output position
     * ({@code q + (k - 1 - t)·dilation} per axis), so {@code y[p] = Σ_t Σ_c x[q, c]·w[t, c]} over the pairs that reach
     * {@code p}, with no products on the padding (a quarter of the padded form's on conv 2's 11×11 → 13×13 input
     * cotangent). Per group of {@link #scatterImages} images, their positions (consecutive over the images, so that a tile
     * is partial only at the group's end) are copied {@link ChannelsLastTile#RUN_STRIDE} floats apart, in chunks of at most
     * that many channels; then per 12 positions, tap, column block and chunk a {@link ChannelsLastTile#run12Rows} tile, which
     * continues its rows' stored sums. A later tap of an output position reads a later input position (row-major order),
     * so in a later or the same tile: each output's sum is one fma chain over (tap, channel) in order from +0, the padded
     * form's, less its zero products on the padding, which change no such sum (it is never -0): the padded form's bits.
     * Only with finite weights (an infinite or NaN weight meets the padding's zeros there).
     */
    private static HostBuffer scatterForward(MemorySegment x, int n, PaddedImage img, int[] kDims, int[] dil, int[] out, float[] w,
                                             int c, int o, int blocks, Parallel parallel) {
        // (null where the strided copy and the output would pass int indexing)
        final int pr = ChannelsLastTile.RUN12_ROWS, rs = ChannelsLastTile.RUN_STRIDE;
        int inPlane = (int) product(img.in), outPlane = (int) product(out), taps = (int) product(kDims);
        int group = Math.min(n, scatterImages(inPlane)), groups = (n + group - 1) / group;
        int positions = group * inPlane, tiles = (positions + pr - 1) / pr, rowsPadded = tiles * pr;
        int chunks = (c + rs - 1) / rs;
        long imageIn = (long) inPlane * c, imageOut = (long) outPlane * o;
        int[] rowAt = scatterRows(img.in, out, o, group, rowsPadded), shift = tapShifts(kDims, dil, out, o);
        // the dump row, shifted by a tap too, stays in the output's slack
        if ((long) chunks * rowsPadded * rs + group * imageOut + shift[0] + o > MAX) return null; // past int indexing: the padded form
        HostBuffer wBuffer = aligned(w);
        MemorySegment wNative = wBuffer.segment();
        HostBuffer result = HostBuffer.uninitialized((long) n * outPlane * o * Float.BYTES);
        MemorySegment dst = result.segment();
        int xsSize = chunks * rowsPadded * rs, ySize = (int) (group * imageOut) + shift[0] + o;
        try {
            parallel.forRange(groups, (long) positions * taps * c * o, (lo, hi) -> {
                // the strided copy at 0: chunk k of position q at (k·rowsPadded + q)·RUN_STRIDE; the group's output from ys on
                // (a per-thread scratch: fresh arrays per task cost their zeroing, 0.1 ms of a 2.3 ms call on 2 threads)
                float[] s = Scratch.floats(xsSize + ySize);
                int ys = xsSize;
                for (long gi = lo; gi < hi; gi++) {
                    long b0 = gi * group;
                    int count = (int) Math.min(group, n - b0);
                    // a last, partial group: its tiles past its images read stale rows and write rows not copied out
                    int used = (count * inPlane + pr - 1) / pr;
                    strided(x, b0 * imageIn, count * inPlane, c, s, rowsPadded);
                    java.util.Arrays.fill(s, ys, ys + ySize, 0f);
                    for (int ti = 0; ti < used * taps; ti++) { // tile-major, then taps in order
                        int tile = ti / taps, tap = ti % taps;
                        for (int blk = 0; blk < blocks; blk++) {
                            for (int k = 0; k < chunks; k++) {
                                ChannelsLastTile.run12Rows(s, (k * rowsPadded + tile * pr) * rs, Math.min(rs, c - k * rs), wNative,
                                        (long) ((blk * taps + tap) * c + k * rs) * W * Float.BYTES, s, rowAt, tile * pr, ys + shift[tap] + blk * W);
                            }
                        }
                    }
                    MemorySegment.copy(s, ys, dst, FL, b0 * imageOut * Float.BYTES, (int) (count * imageOut));
                }
            });
        } finally {
            wBuffer.release();
        }
        return result;
    }

    /**
     * {@code rowAt[q]}: where the group's input position {@code q} (over {@code group} images of {@code in}) meets the last
     * tap in the group's output ({@code [group][out][o]}); rows past the group's positions go to a dump row past it. Tap
     * {@code t} takes each position {@link #tapShifts}{@code [t]} further, the same for all.
     */
    private static int[] scatterRows(int[] in, int[] out, int o, int group, int rowsPadded) {
        int sr = in.length, inPlane = (int) product(in), outPlane = (int) product(out);
        int[] outStride = outStrides(out);
        int[] rowAt = new int[rowsPadded];
        int[] q = new int[sr];
        for (int qi = 0; qi < rowsPadded; qi++) {
            if (qi >= group * inPlane) {
                rowAt[qi] = group * outPlane * o;
                continue;
            }
            if (qi % inPlane == 0) java.util.Arrays.fill(q, 0);
            int at = (qi / inPlane) * outPlane;
            for (int a = 0; a < sr; a++) at += q[a] * outStride[a];
            rowAt[qi] = at * o;
            WindowGeometry.next(q, in);
        }
        return rowAt;
    }

    /**
     * Per tap {@code t}, {@code Σ_a (k_a - 1 - t_a)·dilation_a·outStride_a · o}: how much further than the last tap it takes
     * an input position.
     */
    private static int[] tapShifts(int[] kDims, int[] dil, int[] out, int o) {
        int sr = kDims.length, taps = (int) product(kDims);
        int[] outStride = outStrides(out), shift = new int[taps], t = new int[sr];
        for (int ti = 0; ti < taps; ti++) {
            int at = 0;
            for (int a = 0; a < sr; a++) at += (kDims[a] - 1 - t[a]) * dil[a] * outStride[a];
            shift[ti] = at * o;
            WindowGeometry.next(t, kDims);
        }
        return shift;
    }

    private static int[] outStrides(int[] out) {
        int[] outStride = new int[out.length];
        for (int a = out.length - 1, st = 1; a >= 0; st *= out[a], a--) outStride[a] = st;
        return outStride;
    }

    /**
     * {@code count} positions of {@code c} channels of {@code src} from float {@code at} on into {@code dst}: chunk {@code k}
     * of position {@code q} at {@code (k·rows + q)·RUN_STRIDE}, by vectors (the last one masked), straight from the input.
     */
    private static void strided(MemorySegment src, long at, int count, int c, float[] dst, int rows) {
        final int rs = ChannelsLastTile.RUN_STRIDE, l = ChannelsLastTile.L;
        java.nio.ByteOrder order = java.nio.ByteOrder.nativeOrder();
        for (int k = 0; k * rs < c; k++) {
            int width = Math.min(rs, c - k * rs);
            for (int q = 0; q < count; q++) {
                long from = (at + (long) q * c + k * rs) * Float.BYTES;
                int to = (k * rows + q) * rs, v = 0;
                for (; v + l <= width; v += l) {
                    FloatVector.fromMemorySegment(ChannelsLastTile.S, src, from + (long) v * Float.BYTES, order).intoArray(dst, to + v);
                }
                if (v < width) {
                    VectorMask<Float> m = ChannelsLastTile.S.indexInRange(v, width);
                    FloatVector.fromMemorySegment(ChannelsLastTile.S, src, from + (long) v * Float.BYTES, order, m).intoArray(dst, to + v, m);
                }
            }
        }
    }

    /**
     * Images per group of {@link #scatterForward}: the fewest (up to 4) whose last tile's unused rows are at most 2% of the
     * group's positions. Conv 2's 121 positions per image leave 11 of a last tile's 12 rows unused, 9% of the work; 4 images
     * leave 1.6%, and ran its input cotangent 5-15% faster alone than 1 (ConvTileTiming, 1 and 2 threads, 2026-12-06; 8
     * images no faster, their copies past L1).
     */
    static int scatterImages(int inPlane) {
        Integer forced = GROUP.get();
        if (forced != null) return forced;
        final int pr = ChannelsLastTile.RUN12_ROWS;
        for (int g = 1; g < 4; g++) {
            int unused = (pr - g * inPlane % pr) % pr;
            if (unused * 50 <= g * inPlane) return g;
        }
        return 4;
    }

    /** Tests: {@link #scatterForward}'s images per group while {@code call} runs on this thread. */
    private static final ThreadLocal<Integer> GROUP = new ThreadLocal<>();

    static <T> T scatterGroup(int images, java.util.function.Supplier<T> call) {
        GROUP.set(images);
        try {
            return call.get();
        } finally {
            GROUP.remove();
        }
    }

    /**
     * {@link #kernelGradient} on {@link ChannelsLastTile#panel12} tiles: per image, each block of 12 rows (tap, channel) is
     * run against every column block of the cotangent. Where a block's rows are one run of consecutive floats of the
     * zero-padded channels-last image (a kernel row's taps and channels are: all of conv 2's blocks), the tile reads them
     * there, position by position; other blocks are packed as a panel {@code [position][16]} first (a masked vector copy
     * per run and position). The cotangent is read where it lies when its rows are whole column blocks, else copied per
     * image to rows of whole blocks. Each partial sum sees the same products in the same order as the 6-row tiles (images
     * in order, positions in row-major order), so the same bits.
     */
    private static void panelGradient(MemorySegment x, MemorySegment g, PaddedImage img, int[] kDims, int[] uDims, ConvSpec spec,
                                      int c, int o, int nr, int positions, int blocks, int pitch, int n, int parts,
                                      float[][] partial, int partialSize, Parallel parallel) {
        final int pr = ChannelsLastTile.PANEL_ROWS, pp = ChannelsLastTile.PANEL_PITCH, l = ChannelsLastTile.L;
        int[] tapOff = offsets(kDims, spec.strides(), img); // taps stepped by the strides
        int[] uOff = offsets(uDims, spec.kernelDilation(), img); // positions stepped by the kernel dilation
        int panelCount = (nr + pr - 1) / pr;
        int[][] runs = new int[panelCount][];
        boolean packs = false;
        for (int pi = 0; pi < panelCount; pi++) {
            runs[pi] = panelRuns(tapOff, c, nr, pi);
            packs |= !inPlace(runs[pi]);
        }
        int[] packedAt = new int[positions]; // a packed panel's steps
        for (int q = 0; q < positions; q++) packedAt[q] = q * pp;
        long gImage = (long) positions * o;
        boolean gInPlace = o % W == 0; // the cotangent's rows are whole column blocks
        long bPitch = (long) (gInPlace ? o : pitch) * Float.BYTES;
        boolean pack = packs;
        // Participants claim the partial sums one at a time: the caller starts at once and a helper that wakes late takes
        // fewer (the fork-join pool's second worker often started 0.1-0.5 ms late, with 0.44 ms per partial sum on conv 2)
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        Runnable participant = () -> {
            float[] a = new float[(int) img.size + 2 * l]; // vector copies read up to a vector past a run
            float[] panel = pack ? new float[positions * pp + 2 * l] : null; // and write up to a vector past the panel
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                // rows of whole blocks, the columns past O zero (their sums land in the partials' padding)
                MemorySegment gCopy = gInPlace ? null : arena.allocate(positions * bPitch, 64);
                for (int p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                    float[] acc = partial[p] = new float[partialSize];
                    for (long b = (long) p * n / parts; b < (long) (p + 1) * n / parts; b++) {
                        img.fill(x, b, a);
                        MemorySegment gs = g;
                        long gBase = b * gImage * Float.BYTES;
                        if (!gInPlace) {
                            for (int q = 0; q < positions; q++) MemorySegment.copy(g, gBase + q * o * Float.BYTES, gCopy, q * bPitch, o * Float.BYTES);
                            gs = gCopy;
                            gBase = 0;
                        }
                        for (int pi = 0; pi < panelCount; pi++) {
                            int[] r = runs[pi];
                            float[] src = a;
                            int base = r[2];
                            int[] stepAt = uOff;
                            if (!inPlace(r)) {
                                pack(a, r, uOff, positions, panel);
                                src = panel;
                                base = 0;
                                stepAt = packedAt;
                            }
                            for (int blk = 0; blk < blocks; blk++) {
                                ChannelsLastTile.panel12(src, base, stepAt, positions, gs, gBase + blk * W * Float.BYTES, bPitch,
                                        acc, pi * pr * pitch + blk * W, pitch);
                            }
                        }
                    }
                }
            }
        };
        parallel.runParticipants((long) nr * o * positions * n, participant);
    }

    /**
     * Panel {@code pi}'s runs of rows that read consecutive floats of the padded image: (first row in the panel, length,
     * offset) triples; rows past the last ({@code nr}) read the last row again (their sums land in the partials' padding).
     */
    private static int[] panelRuns(int[] tapOff, int c, int nr, int pi) {
        final int pr = ChannelsLastTile.PANEL_ROWS;
        int[] r = new int[3 * pr];
        int k = 0, prev = Integer.MIN_VALUE;
        for (int i = 0; i < pr; i++) {
            int row = Math.min(pi * pr + i, nr - 1);
            int off = tapOff[row / c] + row % c;
            if (k > 0 && off == prev + 1) r[k - 2]++;
            else {
                r[k] = i;
                r[k + 1] = 1;
                r[k + 2] = off;
                k += 3;
            }
            prev = off;
        }
        return java.util.Arrays.copyOf(r, k);
    }

    /** Whether a panel of these runs is one run of all its rows: the tile reads it in the image, unpacked. */
    private static boolean inPlace(int[] runs) {
        return runs.length == 3 && runs[1] == ChannelsLastTile.PANEL_ROWS;
    }

    /**
     * The panel {@code [position][PANEL_PITCH]} of runs {@code r} ({@link #panelRuns}): position {@code q}'s rows from
     * {@code a[uOff[q] + offset ..]}, a masked vector copy per run and position.
     */
    private static void pack(float[] a, int[] r, int[] uOff, int positions, float[] panel) {
        final int pp = ChannelsLastTile.PANEL_PITCH, l = ChannelsLastTile.L;
        for (int k = 0; k < r.length; k += 3) {
            int i0 = r[k], len = r[k + 1], off = r[k + 2];
            for (int v = 0; v < len; v += l) { // once with 512-bit vectors (runs of at most 12)
                VectorMask<Float> m = ChannelsLastTile.S.indexInRange(v, len);
                for (int q = 0; q < positions; q++) {
                    FloatVector.fromArray(ChannelsLastTile.S, a, uOff[q] + off + v).intoArray(panel, q * pp + i0 + v, m);
                }
            }
        }
    }

    /**
     * Output positions {@code [from, to)} (a run of whole rows of the first spatial axis) whose taps outside
     * {@code [tapFrom, tapFrom + tapOffsets.length)} read only zero padding on that axis; the tiles skip those taps (the
     * input cotangent of a valid conv pads by the kernel's size less one: a quarter of its taps read padding on a small
     * image). Adding a zero product changes no sum's bits, except a -0 sum (products that underflowed to zero) into +0,
     * so skipping them keeps every bit but the sign of such a zero. Only with finite weights: an infinite or NaN
     * weight on padding gives NaN, as the oracle's.
     */
    record TapGroup(int from, int to, int tapFrom, int[] tapOffsets) {}

    private static List<TapGroup> tapGroups(PaddedImage img, int[] out, int[] kDims, ConvSpec spec, int[] tapOff) {
        int inner = tapOff.length / kDims[0], rowPlane = (int) (product(out) / out[0]);
        int real = Math.max(0, img.lo[0]), realEnd = Math.min(img.padded[0], img.lo[0] + img.in[0]); // unpadded rows
        int stride = spec.strides()[0], dil = spec.kernelDilation()[0];
        List<TapGroup> groups = new java.util.ArrayList<>();
        int start = 0, prevFrom = -1, prevTo = -1;
        for (int i = 0; i <= out[0]; i++) {
            int from = 0, to = 0;
            if (i < out[0]) {
                from = kDims[0];
                for (int t = 0; t < kDims[0]; t++) {
                    int at = i * stride + t * dil;
                    if (at >= real && at < realEnd) {
                        from = Math.min(from, t);
                        to = t + 1;
                    }
                }
                if (to == 0) from = 0;
            }
            if (i > 0 && (i == out[0] || from != prevFrom || to != prevTo)) {
                groups.add(new TapGroup(start * rowPlane, i * rowPlane, prevFrom * inner,
                        java.util.Arrays.copyOfRange(tapOff, prevFrom * inner, prevTo * inner)));
                start = i;
            }
            prevFrom = from;
            prevTo = to;
        }
        return groups;
    }

    /** {@code v[0], v[n], v[2n], ...}. */
    private static int[] everyNth(int[] v, int n) {
        int[] r = new int[v.length / n];
        for (int i = 0; i < r.length; i++) r[i] = v[i * n];
        return r;
    }

    private static boolean finite(float[] w) {
        for (float v : w) if (!Float.isFinite(v)) return false;
        return true;
    }

    /** Per axis, how many positions a window of {@code window} elements {@code dilation} apart takes in the padded image at {@code stride}. */
    static int[] slides(PaddedImage img, int[] window, int[] dilation, int[] stride) {
        int[] n = new int[window.length];
        for (int a = 0; a < n.length; a++) {
            long extent = (long) (window[a] - 1) * dilation[a] + 1;
            n[a] = (int) Math.max(0, Math.floorDiv(img.padded[a] - extent, stride[a]) + 1);
        }
        return n;
    }

    static long product(int[] dims) {
        long p = 1;
        for (int d : dims) p *= d;
        return p;
    }

    /** Dims {@code from..from+sr-1} of {@code s}. */
    static int[] spatial(Shape s, int from, int sr) {
        int[] d = new int[sr];
        for (int a = 0; a < sr; a++) d[a] = s.dim(from + a);
        return d;
    }

    /** Per row-major index {@code i} over {@code dims}: {@code Σ_a i_a · step_a · img.stride(a)}, the offset it reads in a padded image. */
    static int[] offsets(int[] dims, int[] step, PaddedImage img) {
        long count = product(dims);
        int[] off = new int[(int) count];
        int[] idx = new int[dims.length];
        for (int i = 0; i < count; i++) {
            long s = 0;
            for (int a = 0; a < dims.length; a++) s += (long) idx[a] * step[a] * img.stride(a);
            off[i] = (int) s;
            WindowGeometry.next(idx, dims);
        }
        return off;
    }

    /**
     * The canonical kernel {@code [O, C, taps]} as {@code [block][tap][channel][W]}: filters {@code block·W + j}, 0 past {@code O}.
     * Per (block, channel), its filters' taps: the writes rotate among {@code taps} lines and the reads go through a block's
     * filters' runs of taps, both in L1 (filter by filter, each write was a line {@code C·W} floats from the last: 0.05 ms
     * of conv 2's, a serial step before its tiles).
     */
    static float[] pack(MemorySegment k, int o, int c, int taps, int blocks) {
        float[] src = new float[o * c * taps];
        MemorySegment.copy(k, FL, 0, src, 0, src.length);
        float[] w = new float[blocks * taps * c * W];
        if (o % W == 0) {
            gatherPack(src, w, c, taps, blocks);
            return w;
        }
        for (int blk = 0; blk < blocks; blk++) {
            int width = Math.min(W, o - blk * W);
            for (int ch = 0; ch < c; ch++) {
                int to = (blk * taps * c + ch) * W;
                for (int j = 0; j < width; j++) {
                    int from = ((blk * W + j) * c + ch) * taps;
                    for (int t = 0; t < taps; t++) w[to + t * c * W + j] = src[from + t];
                }
            }
        }
        return w;
    }

    /**
     * {@link #pack} of whole column blocks by 16-lane gathers: each vector of a packed row ({@code w} sequentially) takes
     * its filters' weights of one (tap, channel), {@code c·taps} floats apart in {@code src}.
     */
    private static void gatherPack(float[] src, float[] w, int c, int taps, int blocks) {
        final int l = ChannelsLastTile.L;
        int[] index = new int[l];
        for (int j = 0; j < l; j++) index[j] = j * c * taps;
        int to = 0;
        for (int blk = 0; blk < blocks; blk++) {
            for (int t = 0; t < taps; t++) {
                for (int ch = 0; ch < c; ch++) {
                    for (int v = 0; v < W; v += l, to += l) {
                        FloatVector.fromArray(ChannelsLastTile.S, src, ((blk * W + v) * c + ch) * taps + t, index, 0).intoArray(w, to);
                    }
                }
            }
        }
    }
}
