package dev.jburn.vulkan;

import dev.jburn.kernels.DirectConvPlan;

/**
 * Direct convolution in GLSL, f32, in two forms over the same parameter block as Metal's {@code MslConv}
 * ({@link DirectConvPlan}): {@link #perOutput} gives each output element one invocation, which sums its
 * group's channels and kernel taps, tap-major (a tap's coordinates are worked out once for all channels:
 * per product they were most of the kernel's work; the cpu engine sums channel-major, so results differ in rounding);
 * {@link #perGroup} gives each output element a work group whose invocations sum strided shares of those
 * products and then add their partial sums in a tree: for a weight gradient, whose few outputs each sum
 * batch × output-plane products (the small CNN's first one: 288 outputs of 86,528 products at batch 128),
 * one invocation per output would leave the GPU idle. Products are rounded before each add
 * ({@code precise}: no contraction into fused multiply-adds). A tap on padding or between dilated input
 * elements multiplies a zero, so an infinite weight there gives NaN as Nx's pad-then-convolve does.
 *
 * <p>Why it exists: without it the front end decomposes a convolution into one slice, one contraction and
 * one add per kernel tap, and a weight gradient's "kernel" is a whole output plane: the small CNN's
 * training step was 4,262 dispatches (about 20 times the cuda engine's launches).
 */
final class ConvShader {
    private ConvShader() {}

    /** Invocations per work group: the movement shaders', so {@link MovementKernels#groups} sizes the grid. */
    static final int GROUP = StridedCopyShader.GROUP;

    /** Kernel-tap offsets (taps × spatial axes) a work group of {@link #perOutput} keeps in shared memory. */
    static final int TAP_WORDS = 2048;

    /**
     * Bindings: 0 input, 1 kernel, 2 output, 3 parameters; a grid-stride loop over the output elements. Where the
     * kernel's taps × axes fit {@link #TAP_WORDS}, the work group first works out each tap's offset along each axis
     * ({@code k · kernel dilation - low padding}) into shared memory, so an invocation's tap test is a multiply-add
     * and a range check per axis instead of a division and a remainder per axis (and two more with input dilation):
     * the small CNN's first convolution, 9 taps of one channel per output, spent its time there. The same
     * arithmetic, so the same results.
     */
    static String perOutput() {
        return common() + """
                shared int tapK[%2$d];
                bool tapShared(uint t, uint taps, out int off) {
                    int stride = 1;
                    bool inside = true;
                    off = 0;
                    for (int d = p[0] - 1; d >= 0; d--) {
                        int a = %3$d + %4$d * d;
                        int at = oc[d] * p[a + 3] + tapK[uint(d) * taps + t];
                        int dil = p[a + 5];
                        if (dil == 1) {
                            if (at < 0 || at >= p[a]) inside = false;
                            else off += at * stride;
                        } else if (at < 0 || at %% dil != 0 || at / dil >= p[a]) {
                            inside = false;
                        } else {
                            off += (at / dil) * stride;
                        }
                        stride *= p[a];
                    }
                    return inside;
                }
                void main() {
                    uint n = outputs();
                    uint taps = uint(p[8]);
                    bool keep = taps * uint(p[0]) <= %2$du;
                    if (keep) {
                        for (uint t = gl_LocalInvocationID.x; t < taps; t += %1$du) {
                            uint rt = t;
                            for (int d = p[0] - 1; d >= 0; d--) {
                                int a = %3$d + %4$d * d;
                                int k = int(rt %% uint(p[a + 1]));
                                rt /= uint(p[a + 1]);
                                tapK[uint(d) * taps + t] = k * p[a + 4] - p[a + 6];
                            }
                        }
                    }
                    memoryBarrierShared();
                    barrier();
                    uint step = gl_NumWorkGroups.x * %1$du;
                    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
                        locate(i);
                        uint cg = uint(p[3]), cStride = uint(p[9]);
                        uint inBase = (image * uint(p[4]) + channel0) * cStride, kBase = o * cg * taps;
                        precise float acc = 0.0;
                        for (uint t = 0u; t < taps; t++) {
                            int off;
                            bool inside = keep ? tapShared(t, taps, off) : tap(t, off); // once per tap, not per product
                            for (uint c = 0u; c < cg; c++) {
                                float xv = inside ? x[inBase + c * cStride + uint(off)] : 0.0;
                                precise float product = xv * w[kBase + c * taps + t];
                                acc = acc + product;
                            }
                        }
                        y[i] = acc;
                    }
                }
                """.formatted(GROUP, TAP_WORDS, DirectConvPlan.HEADER, DirectConvPlan.PER_AXIS);
    }

    /** Taps whose input offsets a work group of {@link #perGroup} works out at once, into shared memory. */
    static final int TAP_CHUNK = 1024;

    /**
     * Bindings as {@link #perOutput}; work group {@code x + y * countX} computes output element of that index. The
     * group's invocations first work out the input offsets of up to {@link #TAP_CHUNK} taps into shared memory (-1:
     * padding or a dilation hole), then invocation {@code lane} sums the products {@code j = lane, lane + GROUP, ...}
     * of (channel {@code j / taps}, tap {@code j % taps}) reading them, its (channel, tap) advanced by a constant
     * step instead of a division per product. A tap's offset took a division and a remainder per axis, and it was
     * worked out again for every product: the small CNN's second weight gradient (18,432 outputs of 15,488
     * products) was 60% of its Vulkan training step's device time. Up to {@code TAP_CHUNK} taps each invocation adds
     * the same products in the same order as before, so the bits are unchanged there.
     */
    static String perGroup() {
        return common() + """
                shared float partial[%1$d];
                shared int tapOffset[%2$d];
                void main() {
                    uint i = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
                    if (i >= outputs()) return;
                    locate(i);
                    uint taps = uint(p[8]), cg = uint(p[3]), cStride = uint(p[9]), lane = gl_LocalInvocationID.x;
                    uint inBase = (image * uint(p[4]) + channel0) * cStride, kBase = o * cg * taps;
                    precise float acc = 0.0;
                    for (uint t0 = 0u; t0 < taps; t0 += %2$du) {
                        uint nt = min(%2$du, taps - t0);
                        for (uint t = lane; t < nt; t += %1$du) {
                            int off;
                            tapOffset[t] = tap(t0 + t, off) ? off : -1;
                        }
                        memoryBarrierShared();
                        barrier();
                        uint total = nt * cg, stepC = %1$du / nt, stepT = %1$du %% nt;
                        uint c = lane / nt, t = lane %% nt;
                        for (uint j = lane; j < total; j += %1$du) {
                            int off = tapOffset[t];
                            float xv = off >= 0 ? x[inBase + c * cStride + uint(off)] : 0.0;
                            precise float product = xv * w[kBase + c * taps + t0 + t];
                            acc = acc + product;
                            c += stepC;
                            t += stepT;
                            if (t >= nt) { t -= nt; c++; }
                        }
                        barrier(); // every invocation is done with this chunk's offsets before the next overwrites them
                    }
                    partial[lane] = acc;
                    memoryBarrierShared();
                    barrier();
                    for (uint half_ = %1$du / 2u; half_ > 0u; half_ /= 2u) {
                        if (lane < half_) {
                            precise float sum = partial[lane] + partial[lane + half_];
                            partial[lane] = sum;
                        }
                        memoryBarrierShared();
                        barrier();
                    }
                    if (lane == 0u) y[i] = partial[0];
                }
                """.formatted(GROUP, TAP_CHUNK);
    }

    /**
     * Bindings, the parameter decoding and two helpers: {@code locate(i)} finds output element {@code i}'s
     * image, first channel and spatial coordinates; {@code tap(t, off)} whether its tap {@code t} reads the input
     * (not padding or a dilation hole) and where in a channel's plane.
     */
    private static String common() {
        return """
                #version 450
                // jburn direct convolution, f32
                layout(local_size_x = %1$d) in;
                layout(std430, binding = 0) readonly buffer In { float x[]; };
                layout(std430, binding = 1) readonly buffer Kernel { float w[]; };
                layout(std430, binding = 2) writeonly buffer Out { float y[]; };
                layout(std430, binding = 3) readonly buffer Params { int p[]; };
                uint image, channel0, o;
                int oc[%2$d];
                uint outputs() { return uint(p[5]) * uint(p[1]) * uint(p[10]); }
                void locate(uint i) {
                    uint O = uint(p[1]), outPlane = uint(p[10]);
                    uint q = i %% outPlane, bo = i / outPlane;
                    o = bo %% O;
                    uint b = bo / O, g = o / uint(p[2]);
                    image = p[6] != 0 ? g * uint(p[5]) + b : b;
                    channel0 = p[7] != 0 ? g * uint(p[3]) : 0u;
                    uint rest = q;
                    for (int d = p[0] - 1; d >= 0; d--) {
                        uint od = uint(p[%3$d + %4$d * d + 2]);
                        oc[d] = int(rest %% od);
                        rest /= od;
                    }
                }
                bool tap(uint t, out int off) {
                    uint rt = t;
                    int stride = 1;
                    bool inside = true;
                    off = 0;
                    for (int d = p[0] - 1; d >= 0; d--) {
                        int a = %3$d + %4$d * d;
                        int k = int(rt %% uint(p[a + 1]));
                        rt /= uint(p[a + 1]);
                        int at = oc[d] * p[a + 3] + k * p[a + 4] - p[a + 6];
                        int dil = p[a + 5];
                        if (at < 0 || at %% dil != 0 || at / dil >= p[a]) inside = false;
                        else off += (at / dil) * stride;
                        stride *= p[a];
                    }
                    return inside;
                }
                """.formatted(GROUP, DirectConvPlan.MAX_RANK, DirectConvPlan.HEADER, DirectConvPlan.PER_AXIS);
    }
}
