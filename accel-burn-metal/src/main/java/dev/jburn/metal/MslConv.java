package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.kernels.KernelSource;

import java.util.List;

/**
 * Direct convolution in canonical layout (input {@code [N, C, s...]}, kernel {@code [O, C/G, k...]},
 * output {@code [N/batchGroups, O, o...]}) in MSL, f32: one thread per output element sums its group's
 * channels and kernel taps (channel-major, taps row-major, the cpu engine's oracle order) in float;
 * a tap on padding or between dilated input elements multiplies a zero (so an infinite weight there
 * gives NaN, as Nx's pad-then-convolve does). Strides, padding (negative too), input
 * and kernel dilation, feature and batch groups, up to {@link #MAX_RANK} spatial axes. No im2col and
 * no shared-memory tiling: correct first, a tuned kernel is future work.
 *
 * <p>Inputs: 0 input, 1 kernel, 2 the parameter words (see {@link DirectConvPlan}); the output is
 * the convolution; {@code n} is its size.
 */
final class MslConv {
    private MslConv() {}

    /** The most spatial axes the kernel walks. */
    static final int MAX_RANK = DirectConvPlan.MAX_RANK;
    /** Words before the per-axis records ({@link DirectConvPlan}). */
    static final int HEADER = DirectConvPlan.HEADER;
    /** Words per spatial axis. */
    static final int PER_AXIS = DirectConvPlan.PER_AXIS;

    static KernelSource source() {
        String entry = "jb_conv_f32_direct";
        List<DType> in = List.of(DType.F32, DType.F32, DType.S32);
        String code = MslMovement.HEADER + "// jburn direct convolution, f32: one thread per output element, channel-major, taps row-major\n"
                + Dialect.METAL.open(entry, in, DType.F32) + """
                    device const int* p = in2;
                    int rank = p[0];
                    uint O = uint(p[1]), og = uint(p[2]), cg = uint(p[3]), C = uint(p[4]), outBatch = uint(p[5]);
                    bool batchGrouped = p[6] != 0, featureGrouped = p[7] != 0;
                    uint taps = uint(p[8]), inPlane = uint(p[9]), outPlane = uint(p[10]);
                    uint q = i %% outPlane, bo = i / outPlane;
                    uint o = bo %% O, b = bo / O, g = o / og;
                    uint image = batchGrouped ? g * outBatch + b : b;
                    uint channel0 = featureGrouped ? g * cg : 0u;
                    int oc[%1$d];
                    uint rest = q;
                    for (int d = rank - 1; d >= 0; d--) {
                      uint od = uint(p[%2$d + %3$d * d + 2]);
                      oc[d] = int(rest %% od);
                      rest /= od;
                    }
                    float acc = 0.0f;
                    for (uint c = 0u; c < cg; c++) {
                      uint inBase = (image * C + channel0 + c) * inPlane, kBase = (o * cg + c) * taps;
                      for (uint t = 0u; t < taps; t++) {
                        uint rt = t;
                        int off = 0, step = 1;
                        bool inside = true;
                        for (int d = rank - 1; d >= 0; d--) {
                          int a = %2$d + %3$d * d;
                          int k = int(rt %% uint(p[a + 1]));
                          rt /= uint(p[a + 1]);
                          int at = oc[d] * p[a + 3] + k * p[a + 4] - p[a + 6];
                          int dil = p[a + 5];
                          if (at < 0 || at %% dil != 0 || at / dil >= p[a]) inside = false;
                          else off += (at / dil) * step;
                          step *= p[a];
                        }
                        // a tap on padding or between dilated elements reads a zero that still multiplies (Nx pads,
                        // then convolves): an infinite or NaN weight there gives NaN, as on the cpu engine
                        float xv = inside ? in0[inBase + uint(off)] : 0.0f;
                        acc += xv * in1[kBase + t];
                      }
                    }
                    out[i] = acc;
                """.formatted(MAX_RANK, HEADER, PER_AXIS) + Dialect.METAL.close();
        return new KernelSource(entry, code, in, DType.F32);
    }
}
