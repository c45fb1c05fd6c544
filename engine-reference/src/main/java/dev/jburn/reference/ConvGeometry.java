package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

/**
 * Sizes of a canonical convolution (input {@code [N, C, n...]}, kernel {@code [O, Cg, k...]},
 * output {@code [outN, O, o...]}) and its groups: group {@code g} of output batch {@code b} reads
 * input image {@link #image(int, int)} from channel {@link #channelBase(int)} on, and writes
 * output channels {@code [g*og, (g+1)*og)}.
 */
final class ConvGeometry {
    final int batch, channels, outChannels, outBatch, groups, cg, og, spatialRank;
    final int[] in, kernel, out;
    final long inPlane, kernelTaps, outPlane;
    final ConvSpec spec;

    ConvGeometry(Shape input, Shape kernelShape, ConvSpec spec) {
        this.spec = spec;
        spatialRank = spec.spatialRank();
        batch = input.dim(0);
        channels = input.dim(1);
        outChannels = kernelShape.dim(0);
        cg = kernelShape.dim(1);
        outBatch = batch / spec.batchGroups();
        groups = Math.max(spec.featureGroups(), spec.batchGroups());
        og = outChannels / groups;
        in = new int[spatialRank];
        kernel = new int[spatialRank];
        out = new int[spatialRank];
        long ip = 1, kt = 1, op = 1;
        for (int i = 0; i < spatialRank; i++) {
            in[i] = input.dim(i + 2);
            kernel[i] = kernelShape.dim(i + 2);
            long inEff = in[i] == 0 ? 0 : (long) (in[i] - 1) * spec.inputDilation()[i] + 1;
            long kEff = (long) (kernel[i] - 1) * spec.kernelDilation()[i] + 1;
            long span = inEff + spec.padLow()[i] + spec.padHigh()[i] - kEff;
            out[i] = (int) Math.max(0, Math.floorDiv(span, spec.strides()[i]) + 1);
            ip *= in[i];
            kt *= kernel[i];
            op *= out[i];
        }
        inPlane = ip;
        kernelTaps = kt;
        outPlane = op;
    }

    /** Elements of the output. */
    long outSize() { return (long) outBatch * outChannels * outPlane; }

    /** The input image that output batch {@code b} reads in group {@code g}. */
    int image(int b, int g) { return spec.batchGroups() > 1 ? g * outBatch + b : b; }

    /** The first input channel of group {@code g}. */
    int channelBase(int g) { return spec.featureGroups() > 1 ? g * cg : 0; }

    /**
     * Per spatial axis, the input index that output index {@code o} and kernel index {@code k}
     * read, or -1 where that falls on padding or between dilated input elements:
     * {@code table[axis][o * kernel[axis] + k]}.
     */
    int[][] inputIndexTables() {
        int[][] t = new int[spatialRank][];
        for (int a = 0; a < spatialRank; a++) {
            t[a] = new int[out[a] * kernel[a]];
            int id = spec.inputDilation()[a];
            for (int o = 0; o < out[a]; o++) {
                for (int k = 0; k < kernel[a]; k++) {
                    long q = (long) o * spec.strides()[a] + (long) k * spec.kernelDilation()[a] - spec.padLow()[a];
                    t[a][o * kernel[a] + k] = q >= 0 && q % id == 0 && q / id < in[a] ? (int) (q / id) : -1;
                }
            }
        }
        return t;
    }
}
