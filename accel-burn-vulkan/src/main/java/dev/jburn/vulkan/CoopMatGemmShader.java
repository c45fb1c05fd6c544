package dev.jburn.vulkan;

import dev.jburn.DType;

/**
 * Batched f16/bf16 matrix multiply on cooperative matrices ({@code GL_KHR_cooperative_matrix}):
 * {@code C[b] = A[b]·B[b]} with {@code A [M,K]}, {@code B [K,N]} row-major and batches contiguous,
 * products accumulated in f32 and rounded once to the output type (as the cuda engine's cuBLAS
 * {@code GemmEx} with f32 compute).
 *
 * <p>A work group is four subgroups in a 2×2 grid; each subgroup owns a {@code WM×WN} block of C as
 * {@code TM×TN} accumulator matrices of the device's {@code lm×ln} configuration, so a work group
 * computes {@code BM×BN = 2WM×2WN} (128×128 for 16×16 matrices). Each step of {@code BK} along K,
 * the whole group stages the A and B tiles in shared memory with bounds-checked loads (zeros past
 * the edges, so any M, N, K work and the matrices never read outside the buffers), then each
 * subgroup loads its A and B matrices from there and multiplies. Shared memory holds {@code uvec4}s
 * of eight 16-bit values: {@code coopMatLoad} reads a f16 matrix from a {@code uvec4} array (the
 * stride counts {@code uvec4}s), global loads are {@code uvec4}s when {@code K} and {@code N} are
 * multiples of 8 ({@link #wideLoads}) and eight bounds-checked 16-bit loads otherwise. Rows are
 * padded by one {@code uvec4} so a matrix's rows do not all start in the same shared-memory bank.
 * Results leave through a per-subgroup f32 scratch matrix so the stores can be bounds-checked and
 * rounded exactly: f16 by {@code float16_t(x)} (round to nearest even on NVIDIA; Vulkan lets a
 * driver truncate instead) and bf16 by hand (round to nearest even, NaN kept quiet). Compiled without
 * spirv-opt ({@link ShaderCompiler#NO_SPIRV_OPT}).
 */
final class CoopMatGemmShader {
    private CoopMatGemmShader() {}

    /** Subgroups per work group (a 2×2 grid of subgroup blocks). */
    static final int SUBGROUPS = 4;

    /** The tiling for one matrix configuration: subgroup block {@code wm×wn}, work-group tile {@code bm×bn}, K step {@code bk}. */
    record Tiling(int lm, int ln, int lk, int tm, int tn, int bk) {
        static Tiling of(CoopMatrixSupport.Config c) {
            int tm = Math.max(1, 64 / c.m()), tn = Math.max(1, 64 / c.n());
            return new Tiling(c.m(), c.n(), c.k(), tm, tn, c.k() * Math.max(1, 32 / c.k()));
        }

        int bm() { return 2 * tm * lm; }

        int bn() { return 2 * tn * ln; }

        /** Shared memory the shader declares: the padded A and B tiles ({@code uvec4}s) and the f32 scratch matrices. */
        int sharedBytes() { return 16 * (bm() * (bk / 8 + 1) + bk * (bn() / 8 + 1)) + 4 * SUBGROUPS * lm * ln; }
    }

    /**
     * Whether a product with these {@code K} and {@code N} may load A and B as {@code uvec4}s: every
     * row of A and B then starts on a 16-byte boundary and a {@code uvec4} starting inside a row ends
     * inside it (staged tiles start at multiples of 8 columns).
     */
    static boolean wideLoads(long k, long n) {
        return k % 8 == 0 && n % 8 == 0;
    }

    /**
     * Bindings: 0 A, 1 B, 2 C (16-bit elements of {@code t}, F16 or BF16), 3 parameters
     * {@code [batch, M, N, K]}. {@code subgroupSize} is the device's (the work group is four of them).
     */
    static String source(DType t, Tiling g, int subgroupSize, boolean wideLoads) {
        if (t != DType.F16 && t != DType.BF16) throw new IllegalArgumentException("coopmat GEMM for " + t);
        boolean bf = t == DType.BF16;
        String elem = bf ? "bfloat16_t" : "float16_t";
        int threads = SUBGROUPS * subgroupSize;
        int rowA = g.bk() / 8 + 1, rowB = g.bn() / 8 + 1;
        String aLoad = wideLoads
                ? "(gr < M && gk < K) ? a4[(aOff + gr * K + gk) >> 3] : uvec4(0u)"
                : "load8(true, aOff + gr * K + gk, gr < M, K - min(gk, K))";
        String bLoad = wideLoads
                ? "(gk < K && gc < N) ? b4[(bOff + gk * N + gc) >> 3] : uvec4(0u)"
                : "load8(false, bOff + gk * N + gc, gk < K, N - min(gc, N))";
        String store = bf
                ? """
                        uint x = floatBitsToUint(v);
                        c16[o] = uint16_t(isnan(v) ? (x >> 16) | 0x40u : (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);"""
                : "c16[o] = uint16_t(float16BitsToUint16(float16_t(v)));";
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                #extension GL_KHR_cooperative_matrix : require
                #extension GL_KHR_memory_scope_semantics : require
                #extension GL_KHR_shader_subgroup_basic : require
                #extension GL_EXT_shader_16bit_storage : require
                #extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
                #extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
                %1$s
                %18$s
                // jburn coopmat GEMM, %2$s, %3$dx%4$dx%5$d matrices, %6$dx%7$d per subgroup, K step %8$d%9$s
                layout(local_size_x = %10$d) in;
                layout(std430, binding = 0) readonly buffer A { uint16_t a16[]; };
                layout(std430, binding = 1) readonly buffer B { uint16_t b16[]; };
                layout(std430, binding = 0) readonly buffer A4 { uvec4 a4[]; };
                layout(std430, binding = 1) readonly buffer B4 { uvec4 b4[]; };
                layout(std430, binding = 2) writeonly buffer C { uint16_t c16[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint LM = %3$du, LN = %4$du, LK = %5$du, TM = %6$du, TN = %7$du, BK = %8$du;
                const uint BM = 2u * TM * LM, BN = 2u * TN * LN, THREADS = %10$du;
                const uint ROW_A = %11$du, ROW_B = %12$du;
                shared uvec4 As[BM * ROW_A];
                shared uvec4 Bs[BK * ROW_B];
                shared float Cs[%13$d * LM * LN];
                // Eight consecutive 16-bit values from A (or B) at i, the first n of them (when inRange) real, the rest zero.
                uvec4 load8(bool fromA, uint i, bool inRange, uint n) {
                    uint h[8];
                    [[unroll]] for (uint e = 0u; e < 8u; e++) h[e] = inRange && e < n ? uint(fromA ? a16[i + e] : b16[i + e]) : 0u;
                    return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
                }
                void main() {
                    uint M = p[1], N = p[2], K = p[3];
                    uint batch = gl_WorkGroupID.z, tid = gl_LocalInvocationID.x;
                    uint sg = gl_SubgroupID, sgRow = sg >> 1, sgCol = sg & 1u;
                    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
                    uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;
                    coopmat<float, gl_ScopeSubgroup, LM, LN, gl_MatrixUseAccumulator> acc[TM][TN];
                    [[unroll]] for (uint i = 0u; i < TM; i++) [[unroll]] for (uint j = 0u; j < TN; j++)
                        acc[i][j] = coopmat<float, gl_ScopeSubgroup, LM, LN, gl_MatrixUseAccumulator>(0.0);
                    for (uint k0 = 0u; k0 < K; k0 += BK) {
                        [[unroll]] for (uint idx = tid; idx < BM * BK / 8u; idx += THREADS) {
                            uint r = idx / (BK / 8u), q = idx %% (BK / 8u);
                            uint gr = row0 + r, gk = k0 + 8u * q;
                            As[r * ROW_A + q] = %14$s;
                        }
                        [[unroll]] for (uint idx = tid; idx < BK * BN / 8u; idx += THREADS) {
                            uint r = idx / (BN / 8u), q = idx %% (BN / 8u);
                            uint gk = k0 + r, gc = col0 + 8u * q;
                            Bs[r * ROW_B + q] = %15$s;
                        }
                        barrier();
                        [[unroll]] for (uint kk = 0u; kk < BK; kk += LK) {
                            coopmat<%16$s, gl_ScopeSubgroup, LM, LK, gl_MatrixUseA> ma[TM];
                            [[unroll]] for (uint i = 0u; i < TM; i++)
                                coopMatLoad(ma[i], As, ((sgRow * TM + i) * LM) * ROW_A + kk / 8u, ROW_A, gl_CooperativeMatrixLayoutRowMajor);
                            [[unroll]] for (uint j = 0u; j < TN; j++) {
                                coopmat<%16$s, gl_ScopeSubgroup, LK, LN, gl_MatrixUseB> mb;
                                coopMatLoad(mb, Bs, kk * ROW_B + ((sgCol * TN + j) * LN) / 8u, ROW_B, gl_CooperativeMatrixLayoutRowMajor);
                                [[unroll]] for (uint i = 0u; i < TM; i++) acc[i][j] = coopMatMulAdd(ma[i], mb, acc[i][j]);
                            }
                        }
                        barrier();
                    }
                    uint lane = gl_SubgroupInvocationID, scratch = sg * LM * LN;
                    [[unroll]] for (uint i = 0u; i < TM; i++) [[unroll]] for (uint j = 0u; j < TN; j++) {
                        coopMatStore(acc[i][j], Cs, scratch, LN, gl_CooperativeMatrixLayoutRowMajor);
                        subgroupMemoryBarrierShared();
                        subgroupBarrier();
                        uint r0 = row0 + (sgRow * TM + i) * LM, c0 = col0 + (sgCol * TN + j) * LN;
                        for (uint e = lane; e < LM * LN; e += gl_SubgroupSize) {
                            uint r = r0 + e / LN, col = c0 + e %% LN;
                            if (r < M && col < N) {
                                float v = Cs[scratch + e];
                                uint o = cOff + r * N + col;
                %17$s
                            }
                        }
                        subgroupMemoryBarrierShared();
                        subgroupBarrier();
                    }
                }
                """.formatted(bf ? "#extension GL_EXT_bfloat16 : require" : "", t.shortName(), g.lm(), g.ln(), g.lk(),
                g.tm() * g.lm(), g.tn() * g.ln(), g.bk(), wideLoads ? ", uvec4 global loads" : "", threads, rowA, rowB, SUBGROUPS,
                aLoad, bLoad, elem, store.indent(16).stripTrailing(), ShaderCompiler.NO_SPIRV_OPT);
    }
}
