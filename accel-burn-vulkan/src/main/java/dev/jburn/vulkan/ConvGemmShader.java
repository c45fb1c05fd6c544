package dev.jburn.vulkan;

import dev.jburn.kernels.DirectConvPlan;

/**
 * An ungrouped f32 convolution as an implicit GEMM, tiled in shared memory like {@link GemmShader}: with
 * {@code M = O} output channels, {@code N = batch × output plane} output positions and {@code K = C × taps}
 * products per output, {@code Y[o, n] = Σ_k W[o, k] · X[k, n]} where {@code W} is the kernel as stored
 * ({@code [O, C·taps]}, row-major) and {@code X[k, n]} the input element tap {@code k % taps} of channel
 * {@code k / taps} reads for position {@code n} (zero on padding and dilation holes), gathered straight into the
 * shared tile: no im2col buffer.
 *
 * <p>A 16×16 work group computes a 64×64 tile of Y, each invocation a 4×4 block (rows {@code 4ty..4ty+3}, columns
 * {@code 4tx..4tx+3}, read from shared memory as {@code vec4}s), stepping through K 16 at a time. Each invocation
 * loads one column of the B tile for the whole run: it works out that column's image and output coordinates once,
 * and walks its four rows' (channel, tap) by a constant step instead of dividing per element; tap offsets along each
 * axis come from a shared table ({@code k · kernel dilation - low padding}, as {@link ConvShader#perOutput}) where
 * taps × axes fit it, else from divisions. Work group {@code z} sums the share {@code [z·share, (z+1)·share)} of K
 * and writes its own copy of Y (split K: the caller adds the copies in order): a weight gradient's product has few
 * outputs and a long K.
 *
 * <p>Why: the per-output kernels re-read each input element once per output channel from global memory and each
 * weight once per position; on an H100 the small CNN's convolutions ran at 1.5-2.2 TFLOP/s, most of its Vulkan
 * training step. The multiply-adds may fuse and K is summed in its natural order, a rounding difference from the cpu
 * engine within a dot's tolerance (as the GEMM's).
 */
final class ConvGemmShader {
    private ConvGemmShader() {}

    /** Rows (output channels) and columns (output positions) of Y per work group. */
    static final int TILE = 64;

    /** Tap offsets (taps × spatial axes) kept in shared memory. */
    static final int TAP_WORDS = 2048;

    /** Index of the split's share word, after the convolution's words for {@code rank} spatial axes. */
    static int shareWord(int rank) { return DirectConvPlan.HEADER + DirectConvPlan.PER_AXIS * rank; }

    /**
     * Bindings: 0 input {@code [N, C, s...]}, 1 kernel {@code [O, C, k...]}, 2 output ({@code [splits, N, O, o...]}),
     * 3 parameters: {@link DirectConvPlan}'s words for {@code rank} spatial axes, then the share of K per split.
     */
    static String source(int rank) {
        if (rank < 1 || rank > DirectConvPlan.MAX_RANK) throw new IllegalArgumentException("conv gemm: rank " + rank);
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn implicit-GEMM convolution, f32, %1$d spatial axes, 64x64 tiles, 4x4 per invocation
                layout(local_size_x = 16, local_size_y = 16) in;
                layout(std430, binding = 0) readonly buffer In { float x[]; };
                layout(std430, binding = 1) readonly buffer Kernel { float w[]; };
                layout(std430, binding = 2) writeonly buffer Out { float y[]; };
                layout(std430, binding = 3) readonly buffer Params { int p[]; };
                const int R = %1$d;
                const int HEADER = %2$d;
                const int PER_AXIS = %3$d;
                const uint TAP_WORDS = %4$du;
                shared vec4 As[16][17];
                shared vec4 Bs[16][16];
                shared int tapK[TAP_WORDS];
                int ocs[R];
                bool tapAt(uint t, bool keep, uint taps, out int off) {
                    off = 0;
                    int stride = 1;
                    bool ok = true;
                    uint rt = t;
                    [[unroll]] for (int d = R - 1; d >= 0; d--) {
                        int a = HEADER + PER_AXIS * d;
                        int kd;
                        if (keep) {
                            kd = tapK[uint(d) * taps + t];
                        } else {
                            int k = int(rt %% uint(p[a + 1]));
                            rt /= uint(p[a + 1]);
                            kd = k * p[a + 4] - p[a + 6];
                        }
                        int at = ocs[d] + kd;
                        int dil = p[a + 5];
                        if (dil == 1) {
                            if (at < 0 || at >= p[a]) ok = false;
                            else off += at * stride;
                        } else if (at < 0 || at %% dil != 0 || at / dil >= p[a]) {
                            ok = false;
                        } else {
                            off += (at / dil) * stride;
                        }
                        stride *= p[a];
                    }
                    return ok;
                }
                void main() {
                    uint O = uint(p[1]), cg = uint(p[3]), C = uint(p[4]), taps = uint(p[8]);
                    uint inPlane = uint(p[9]), outPlane = uint(p[10]);
                    uint M = O, N = uint(p[5]) * outPlane, K = cg * taps;
                    uint share = uint(p[HEADER + PER_AXIS * R]);
                    uint kStart = gl_WorkGroupID.z * share, kEnd = min(K, kStart + share);
                    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * 16u + tx;
                    uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
                    bool keep = taps * uint(R) <= TAP_WORDS;
                    if (keep) {
                        for (uint t = tid; t < taps; t += 256u) {
                            uint rt = t;
                            [[unroll]] for (int d = R - 1; d >= 0; d--) {
                                int a = HEADER + PER_AXIS * d;
                                int k = int(rt %% uint(p[a + 1]));
                                rt /= uint(p[a + 1]);
                                tapK[uint(d) * taps + t] = k * p[a + 4] - p[a + 6];
                            }
                        }
                    }
                    // this invocation's column of the B tile, the same for every K step
                    uint bn = tid & 63u, bk0 = tid >> 6;
                    uint n = col0 + bn;
                    bool colValid = n < N;
                    uint img = colValid ? n / outPlane : 0u, q = colValid ? n %% outPlane : 0u;
                    uint rest = q;
                    [[unroll]] for (int d = R - 1; d >= 0; d--) {
                        int a = HEADER + PER_AXIS * d;
                        uint od = uint(p[a + 2]);
                        ocs[d] = int(rest %% od) * p[a + 3];
                        rest /= od;
                    }
                    uint xBase = img * C * inPlane;
                    // its four rows k = kStart + bk0 + 4l as (channel, tap), advanced 16 products a step
                    uint cr[4], tr[4];
                    [[unroll]] for (uint l = 0u; l < 4u; l++) {
                        uint k = kStart + bk0 + 4u * l;
                        cr[l] = k / taps;
                        tr[l] = k %% taps;
                    }
                    uint stepC = 16u / taps, stepT = 16u %% taps;
                    uint ar = tid >> 2, aq = tid & 3u, arow = row0 + ar;
                    vec4 acc[4];
                    [[unroll]] for (uint i = 0u; i < 4u; i++) acc[i] = vec4(0.0);
                    memoryBarrierShared();
                    barrier();
                    for (uint k0 = kStart; k0 < kEnd; k0 += 16u) {
                        [[unroll]] for (uint e = 0u; e < 4u; e++) {
                            uint k = k0 + 4u * aq + e;
                            float av = 0.0;
                            if (arow < M && k < kEnd) av = w[arow * K + k];
                            As[4u * aq + e][ar >> 2][ar & 3u] = av;
                        }
                        [[unroll]] for (uint l = 0u; l < 4u; l++) {
                            uint kr = bk0 + 4u * l;
                            float bv = 0.0;
                            int off;
                            if (colValid && k0 + kr < kEnd && tapAt(tr[l], keep, taps, off)) bv = x[xBase + cr[l] * inPlane + uint(off)];
                            Bs[kr][bn >> 2][bn & 3u] = bv;
                            cr[l] += stepC;
                            tr[l] += stepT;
                            if (tr[l] >= taps) { tr[l] -= taps; cr[l]++; }
                        }
                        memoryBarrierShared();
                        barrier();
                        [[unroll]] for (uint kk = 0u; kk < 16u; kk++) {
                            vec4 av = As[kk][ty];
                            vec4 bv = Bs[kk][tx];
                            [[unroll]] for (uint i = 0u; i < 4u; i++) acc[i] += av[i] * bv;
                        }
                        barrier();
                    }
                    uint outBase = gl_WorkGroupID.z * (uint(p[5]) * O * outPlane);
                    [[unroll]] for (uint j = 0u; j < 4u; j++) {
                        uint nn = col0 + 4u * tx + j;
                        if (nn >= N) continue;
                        uint im = nn / outPlane, qq = nn %% outPlane;
                        [[unroll]] for (uint i = 0u; i < 4u; i++) {
                            uint o = row0 + 4u * ty + i;
                            if (o < M) y[outBase + (im * O + o) * outPlane + qq] = acc[i][j];
                        }
                    }
                }
                """.formatted(rank, DirectConvPlan.HEADER, DirectConvPlan.PER_AXIS, TAP_WORDS);
    }
}
