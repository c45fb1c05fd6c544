package dev.jburn.reference;

/**
 * A {@link PaddedImage} copied channel-major, each channel's positions in row-major order except that the last
 * spatial axis is split into {@code step} phases ({@code position = j·step + phase}, stored phase by phase): then the
 * positions {@code p, p + step, p + 2·step, ...} of one row are consecutive floats. The kernel gradient of the
 * channels-last convs ({@link ChannelsLastConvF32#kernelGradient}) walks the cotangent's positions that way (the
 * forward conv's stride is its step), so its reduction runs with unit stride, which {@link ChannelsLastTile#run}
 * needs (in the channels-last image those positions are {@code C·step} floats apart). With step 1 it is the plain
 * channel-major image.
 */
final class ChannelMajorImage {
    private final PaddedImage img;
    private final int step, phaseLength, lastPadded, rows;
    /** Floats of one channel, and of the whole image. */
    final int channelSize;
    final long size;

    ChannelMajorImage(PaddedImage img, int step) {
        this.img = img;
        this.step = step;
        int last = img.rank - 1;
        lastPadded = img.padded[last];
        phaseLength = (lastPadded + step - 1) / step;
        long r = 1;
        for (int a = 0; a < last; a++) r *= img.padded[a];
        rows = (int) Math.min(r, Integer.MAX_VALUE);
        long channel = r * step * phaseLength;
        channelSize = (int) Math.min(channel, Integer.MAX_VALUE);
        size = channel * img.channels;
    }

    /**
     * The offset within a channel of padded position {@code Σ_a index_a · scale_a} (per spatial axis; the last axis's
     * position is split into its phase and column).
     */
    int offset(int[] index, int[] scale) {
        int last = img.rank - 1;
        long row = 0;
        for (int a = 0; a < last; a++) row = row * img.padded[a] + (long) index[a] * scale[a];
        int p = index[last] * scale[last];
        return (int) ((row * step + p % step) * phaseLength + p / step);
    }

    /**
     * The image from the channels-last padded image {@code src} ({@link PaddedImage#fill}): {@code src} itself when the
     * layouts agree (one channel, step 1), else {@code dst[0..size)} filled.
     */
    float[] from(float[] src, float[] dst) {
        int c = img.channels;
        if (c == 1 && step == 1) return src;
        for (int r = 0; r < rows; r++) {
            for (int phase = 0; phase < step; phase++) {
                int to = (r * step + phase) * phaseLength;
                for (int p = phase; p < lastPadded; p += step, to++) {
                    int from = (r * lastPadded + p) * c;
                    for (int ch = 0, t = to; ch < c; ch++, t += channelSize) dst[t] = src[from + ch];
                }
            }
        }
        return dst;
    }
}
