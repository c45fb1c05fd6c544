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

    /**
     * Rows (output channels) and columns (output positions) of Y per work group of 256 invocations, each a 4×4 block.
     * (A 32×128 tile for convolutions of at most 32 output channels, which compute half of a 64-row tile for nothing,
     * measured no faster on an H100: the small CNN's second input cotangent 217-297 µs against 195-222.)
     */
    static final int TILE = 64;

    /** Tap offsets along the axes (taps × spatial axes) kept in shared memory. */
    static final int TAP_WORDS = 2048;

    /** Kernel offsets of taps kept in shared memory (with {@link #TAP_WORDS}: both tables or neither). */
    static final int KERNEL_TAPS = 1024;

    /**
     * Bytes of shared memory a work group declares: the A and B tiles (16 K steps of a padded row of {@code vec4}s each),
     * the two tap tables, half the finished tile and its column offsets: 29,568 bytes, within the 32 KB that lavapipe and
     * many GPUs give; where a device gives less (Vulkan promises 16 KB), {@link ConvKernels} declines and the per-output
     * kernels run the conv.
     */
    static final int SHARED_BYTES = 2 * 16 * (TILE / 4 + 1) * 16 + 4 * (TAP_WORDS + KERNEL_TAPS) + 4 * (TILE / 2) * (TILE + 1) + 4 * TILE;

    /**
     * Where each operand's elements lie: element {@code (b, c, s...)} of the input at {@code b·x[0] + c·x[1] + Σ s_d·x[2+d]},
     * {@code (o, c, k...)} of the kernel at {@code o·w[0] + c·w[1] + Σ k_d·w[2+d]}, {@code (b, o, q...)} of the output at
     * {@code b·y[0] + o·y[1] + Σ q_d·y[2+d]} (in elements): the canonical layout's row-major strides
     * ({@link #canonical}), or a channels-last layer's, whose layout moves the convolution then reads and writes in
     * place ({@code ChannelsLastConvs}).
     */
    record Strides(long[] x, long[] w, long[] y) {
        /** Row-major strides of the canonical {@code [N, C, s...]}, {@code [O, C, k...]}, {@code [N, O, o...]} of {@code words}. */
        static Strides canonical(int[] words) {
            int r = words[0];
            long[] in = new long[r], k = new long[r], out = new long[r];
            for (int d = 0; d < r; d++) {
                int a = DirectConvPlan.HEADER + DirectConvPlan.PER_AXIS * d;
                in[d] = words[a];
                k[d] = words[a + 1];
                out[d] = words[a + 2];
            }
            return new Strides(rowMajor(words[4], in), rowMajor(words[3], k), rowMajor(words[1], out));
        }

        /** Strides of {@code [n, c, s...]} stored row-major in that order. */
        static long[] rowMajor(long c, long[] spatial) {
            long[] st = new long[spatial.length + 2];
            long step = 1;
            for (int d = spatial.length - 1; d >= 0; d--) {
                st[2 + d] = step;
                step *= spatial[d];
            }
            st[1] = step;
            st[0] = step * c;
            return st;
        }
    }

    /** Index of the split's share word for {@code rank} spatial axes: after the convolution's words and the strides. */
    static int shareWord(int rank) { return DirectConvPlan.HEADER + DirectConvPlan.PER_AXIS * rank + 3 * (rank + 2); }

    /**
     * The parameter block: {@code words} ({@link DirectConvPlan}), the strides, then {@code share}; {@code null} where a
     * stride does not fit 31 bits.
     */
    static int[] params(int[] words, Strides st, long share) {
        int r = words[0];
        int[] p = java.util.Arrays.copyOf(words, shareWord(r) + 1);
        int at = DirectConvPlan.HEADER + DirectConvPlan.PER_AXIS * r;
        for (long[] s : new long[][] {st.x(), st.w(), st.y()}) {
            for (long v : s) {
                if (v < 0 || v >= Integer.MAX_VALUE) return null;
                p[at++] = (int) v;
            }
        }
        p[at] = (int) share;
        return p;
    }

    /**
     * How the GEMM's K and N run over the convolution, chosen for where the input's contiguous axis lies, so that the
     * invocations loading the B tile read neighbouring words: {@link #CHANNEL_MAJOR} (K = channel, then tap; N = image,
     * then position; neighbouring invocations take neighbouring positions: the canonical layout, whose positions are
     * contiguous) and {@link #TAP_MAJOR} (K = tap, then channel; neighbouring invocations take neighbouring channels
     * of one position: a channels-last input; on an H100 the small CNN's second conv took 67.6 µs this way against 77.9,
     * its input cotangent 195 against 222). Each output still sums all its products once; only the order differs.
     * (An order with the images innermost, for kernel cotangents, measured the same as channel-major and was dropped.)
     */
    enum Order {
        CHANNEL_MAJOR, TAP_MAJOR;

        /** The order for an input laid out as {@code x} strides say (batch, channel, axes) with {@code channels} channels. */
        static Order of(long[] x, long channels) {
            return x[1] == 1 && channels > 1 ? TAP_MAJOR : CHANNEL_MAJOR;
        }
    }

    /** Loads the products {@code kl .. kl + 15} of the A and B tiles into {@code pa}, {@code pb}, and moves every row 16 on. */
    private static final String LOAD = """
                            {
                                uint c = ca, t = ta;
                                [[unroll]] for (uint e = 0u; e < KA; e++) {
                                    pa[e] = 0.0;
                                    if (arow < M && kl + KA * aq + e < kEnd) pa[e] = w[wRow + c * wc + uint(kernelOffset(t, keep))];
                                    next(c, t);
                                }
                                [[unroll]] for (uint l = 0u; l < LB; l++) {
                                    int off;
                                    pb[l] = 0.0;
                                    if (colValid[l] && kl + br[l] < kEnd && tapAt(tr[l], keep, ocs[l], off)) pb[l] = x[xb[l] + cr[l] * xc + uint(off)];
                                }
                                // every row 16 products on
                                [[unroll]] for (uint l = 0u; l <= LB; l++) {
                                    uint hi = l < LB ? (TAP_MAJOR ? tr[l] : cr[l]) : (TAP_MAJOR ? ta : ca);
                                    uint lo = l < LB ? (TAP_MAJOR ? cr[l] : tr[l]) : (TAP_MAJOR ? ca : ta);
                                    uint size = TAP_MAJOR ? cg : taps;
                                    hi += stepHi;
                                    lo += stepLo;
                                    if (lo >= size) { lo -= size; hi++; }
                                    if (l < LB) {
                                        if (TAP_MAJOR) { tr[l] = hi; cr[l] = lo; } else { cr[l] = hi; tr[l] = lo; }
                                    } else {
                                        if (TAP_MAJOR) { ta = hi; ca = lo; } else { ca = hi; ta = lo; }
                                    }
                                }
                            }
            """;

    /** Stores {@code pa}, {@code pb} into the shared tiles, then waits for every invocation's. */
    private static final String STASH = """
                            [[unroll]] for (uint e = 0u; e < KA; e++) As[KA * aq + e][ar >> 2][ar & 3u] = pa[e];
                            [[unroll]] for (uint l = 0u; l < LB; l++) Bs[br[l]][bc[l] >> 2][bc[l] & 3u] = pb[l];
                            memoryBarrierShared();
                            barrier();
            """;

    private static final String MULTIPLY = """
                            [[unroll]] for (uint kk = 0u; kk < 16u; kk++) {
                                vec4 av = As[kk][ty];
                                vec4 bv = Bs[kk][tx];
                                [[unroll]] for (uint i = 0u; i < 4u; i++) acc[i] += av[i] * bv;
                            }
                            barrier();
            """;

    private static final String LOOP = """
                        float pa[KA], pb[LB];
                        for (uint k0 = kStart; k0 < kEnd; k0 += 16u) {
                            uint kl = k0;
            """ + LOAD + STASH + MULTIPLY + """
                        }
            """;

    private static final String PREFETCH_LOOP = """
                        float pa[KA], pb[LB];
                        uint kl = kStart;
            """ + LOAD + """
                        for (uint k0 = kStart; k0 < kEnd; k0 += 16u) {
            """ + STASH + """
                            kl = k0 + 16u;
                            if (kl < kEnd) {
            """ + LOAD + """
                            }
            """ + MULTIPLY + """
                        }
            """;

    /**
     * Bindings: 0 input, 1 kernel, 2 output (its {@code z}-th copy at {@code z ×} the output's size), 3 parameters
     * ({@link #params}) for {@code rank} spatial axes. Each invocation loads four elements of the B tile a step: rows of one column ({@link Order#CHANNEL_MAJOR}) or one row of several columns ({@link Order#TAP_MAJOR});
     * it works out their columns once and walks their rows' (channel, tap) by a constant step. {@code prefetch}: each
     * step's global loads are issued into registers before the step before it multiplies, so their latency (gathers
     * behind index arithmetic) hides behind those products; without, they are waited for before the step's barrier.
     */
    static String source(int rank, Order order, boolean prefetch) {
        if (rank < 1 || rank > DirectConvPlan.MAX_RANK) throw new IllegalArgumentException("conv gemm: rank " + rank);
        boolean tapMajor = order == Order.TAP_MAJOR;
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn implicit-GEMM convolution, f32, %1$d spatial axes, strided operands, %6$s, %8$dx%9$d tiles, 4x4 per invocation%11$s
                layout(local_size_x = %9$d / 4, local_size_y = %8$d / 4) in;
                layout(std430, binding = 0) readonly buffer In { float x[]; };
                layout(std430, binding = 1) readonly buffer Kernel { float w[]; };
                layout(std430, binding = 2) writeonly buffer Out { float y[]; };
                layout(std430, binding = 3) readonly buffer Params { int p[]; };
                const int R = %1$d;
                const int HEADER = %2$d;
                const int PER_AXIS = %3$d;
                const uint TAP_WORDS = %4$du;
                const uint KERNEL_TAPS = %5$du;
                const bool TAP_MAJOR = %7$s;
                const uint TM = %8$du, TN = %9$du;  // the tile: rows (output channels) x columns (positions)
                const uint LB = TN / 16u;          // B elements each invocation loads a step
                const uint KA = TM / 16u;          // A elements (consecutive k) each invocation loads a step
                const int SX = HEADER + PER_AXIS * R;  // input strides: batch, channel, axes
                const int SW = SX + R + 2;             // kernel strides: output channel, channel, axes
                const int SY = SW + R + 2;             // output strides: batch, output channel, axes
                const int SHARE = SY + R + 2;
                shared vec4 As[16][TM / 4u + 1u];
                shared vec4 Bs[16][TN / 4u + 1u];
                shared int tapK[TAP_WORDS];
                shared int tapW[KERNEL_TAPS];
                // the finished tile, for stores in the output's own order, and each tile column's output offset (~0u past N)
                shared float Ys[TM / 2u][TN + 1u];
                shared uint colOff[TN];
                uint cg, taps;
                int kernelOffset(uint t, bool keep) {
                    if (keep) return tapW[t];
                    int off = 0;
                    uint rt = t;
                    [[unroll]] for (int d = R - 1; d >= 0; d--) {
                        int a = HEADER + PER_AXIS * d;
                        off += int(rt %% uint(p[a + 1])) * p[SW + 2 + d];
                        rt /= uint(p[a + 1]);
                    }
                    return off;
                }
                bool tapAt(uint t, bool keep, int ocs[R], out int off) {
                    off = 0;
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
                            else off += at * p[SX + 2 + d];
                        } else if (at < 0 || at %% dil != 0 || at / dil >= p[a]) {
                            ok = false;
                        } else {
                            off += (at / dil) * p[SX + 2 + d];
                        }
                    }
                    return ok;
                }
                // product k as (channel, tap) in this kernel's order, and k + 1 from k
                void decode(uint k, out uint c, out uint t) {
                    if (TAP_MAJOR) { t = k / cg; c = k %% cg; } else { c = k / taps; t = k %% taps; }
                }
                void next(inout uint c, inout uint t) {
                    if (TAP_MAJOR) { if (++c == cg) { c = 0u; t++; } } else { if (++t == taps) { t = 0u; c++; } }
                }
                void main() {
                    uint O = uint(p[1]), images = uint(p[5]), outPlane = uint(p[10]);
                    cg = uint(p[3]);
                    taps = uint(p[8]);
                    uint M = O, N = images * outPlane, K = cg * taps;
                    uint share = uint(p[SHARE]);
                    uint kStart = gl_WorkGroupID.z * share, kEnd = min(K, kStart + share);
                    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * (TN / 4u) + tx;
                    uint row0 = gl_WorkGroupID.y * TM, col0 = gl_WorkGroupID.x * TN;
                    bool keep = taps * uint(R) <= TAP_WORDS && taps <= KERNEL_TAPS;
                    if (keep) {
                        for (uint t = tid; t < taps; t += 256u) {
                            uint rt = t;
                            int kw = 0;
                            [[unroll]] for (int d = R - 1; d >= 0; d--) {
                                int a = HEADER + PER_AXIS * d;
                                int k = int(rt %% uint(p[a + 1]));
                                rt /= uint(p[a + 1]);
                                tapK[uint(d) * taps + t] = k * p[a + 4] - p[a + 6];
                                kw += k * p[SW + 2 + d];
                            }
                            tapW[t] = kw;
                        }
                    }
                    if (tid < TN) {
                        uint nn = col0 + tid, off = ~0u;
                        if (nn < N) {
                            uint qq = nn %% outPlane;
                            off = gl_WorkGroupID.z * (images * O * outPlane) + (nn / outPlane) * uint(p[SY]);
                            [[unroll]] for (int d = R - 1; d >= 0; d--) {
                                uint od = uint(p[HEADER + PER_AXIS * d + 2]);
                                off += (qq %% od) * uint(p[SY + 2 + d]);
                                qq /= od;
                            }
                        }
                        colOff[tid] = off;
                    }
                    // this invocation's LB elements of the B tile: rows br[l], columns bc[l]
                    uint br[LB], bc[LB];
                    [[unroll]] for (uint l = 0u; l < LB; l++) {
                        br[l] = TAP_MAJOR ? (tid & 15u) : tid / TN + (256u / TN) * l;
                        bc[l] = TAP_MAJOR ? (tid >> 4) + 16u * l : tid %% TN;
                    }
                    // their columns' image offsets and output coordinates (times the strides), worked out once
                    bool colValid[LB];
                    uint xb[LB];
                    int ocs[LB][R];
                    [[unroll]] for (uint l = 0u; l < LB; l++) {
                        uint n = col0 + bc[l], img = 0u, q = 0u;
                        colValid[l] = n < N;
                        if (colValid[l]) { img = n / outPlane; q = n %% outPlane; }
                        [[unroll]] for (int d = R - 1; d >= 0; d--) {
                            int a = HEADER + PER_AXIS * d;
                            uint od = uint(p[a + 2]);
                            ocs[l][d] = int(q %% od) * p[a + 3];
                            q /= od;
                        }
                        xb[l] = img * uint(p[SX]);
                    }
                    uint xc = uint(p[SX + 1]);
                    // their rows as (channel, tap), advanced 16 products a step
                    uint cr[LB], tr[LB];
                    [[unroll]] for (uint l = 0u; l < LB; l++) decode(kStart + br[l], cr[l], tr[l]);
                    uint stepHi = 16u / (TAP_MAJOR ? cg : taps), stepLo = 16u %% (TAP_MAJOR ? cg : taps);
                    // the A tile: row arow, k = k0 + KA·aq .. + KA - 1
                    uint ar = tid / (16u / KA), aq = tid %% (16u / KA), arow = row0 + ar;
                    uint wRow = arow * uint(p[SW]), wc = uint(p[SW + 1]);
                    uint ca, ta;
                    decode(kStart + KA * aq, ca, ta);
                    vec4 acc[4];
                    [[unroll]] for (uint i = 0u; i < 4u; i++) acc[i] = vec4(0.0);
                    memoryBarrierShared();
                    barrier();
%10$s                    // Through shared memory, so that neighbouring invocations store neighbouring words: along the output
                    // channels where they are contiguous (channels last), else along the positions. Stored straight from the
                    // 4x4 blocks, a warp's stores to a channels-last output touched 32 lines each. Half the tile's rows at a
                    // time, so that the work group's shared memory stays within 32 KB.
                    uint cols = min(TN, N - col0), ys1 = uint(p[SY + 1]);
                    [[unroll]] for (uint h = 0u; h < 2u; h++) {
                        if (ty / (TM / 8u) == h) {
                            [[unroll]] for (uint i = 0u; i < 4u; i++) [[unroll]] for (uint j = 0u; j < 4u; j++) {
                                Ys[4u * ty + i - h * (TM / 2u)][4u * tx + j] = acc[i][j];
                            }
                        }
                        memoryBarrierShared();
                        barrier();
                        uint rh0 = row0 + h * (TM / 2u);
                        uint rows = rh0 < M ? min(TM / 2u, M - rh0) : 0u;
                        if (ys1 == 1u) {
                            for (uint e = tid; e < rows * cols; e += 256u) {
                                uint o = e %% rows, nl = e / rows;
                                y[colOff[nl] + rh0 + o] = Ys[o][nl];
                            }
                        } else {
                            for (uint e = tid; e < rows * cols; e += 256u) {
                                uint nl = e %% cols, o = e / cols;
                                y[colOff[nl] + (rh0 + o) * ys1] = Ys[o][nl];
                            }
                        }
                        barrier();
                    }
                }
                """.formatted(rank, DirectConvPlan.HEADER, DirectConvPlan.PER_AXIS, TAP_WORDS, KERNEL_TAPS, order.name().toLowerCase(java.util.Locale.ROOT),
                tapMajor, TILE, TILE, prefetch ? PREFETCH_LOOP : LOOP, prefetch ? ", prefetch" : "");
    }
}
