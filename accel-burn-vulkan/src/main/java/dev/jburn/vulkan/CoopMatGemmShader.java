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
 * the whole group stages the A and B tiles in shared memory from registers loaded with bounds
 * checks (zeros past the edges, so any M, N, K work and the matrices never read outside the
 * buffers), issues the next step's global loads into those registers, then each subgroup loads
 * its A and B matrices from shared memory and multiplies while the loads arrive (the structure of
 * NVIDIA's vk_cooperative_matrix_perf sample). Shared memory holds {@code uvec4}s
 * of eight 16-bit values: {@code coopMatLoad} reads a f16 matrix from a {@code uvec4} array (the
 * stride counts {@code uvec4}s), global loads are {@code uvec4}s when {@code K} and {@code N} are
 * multiples of 8 ({@link #wideLoads}) and eight bounds-checked 16-bit loads otherwise. Rows are
 * padded by one {@code uvec4} so a matrix's rows do not all start in the same shared-memory bank.
 * Results leave through a per-subgroup f32 scratch matrix so the stores can be bounds-checked and
 * rounded exactly: f16 by {@code float16_t(x)} (round to nearest even on NVIDIA; Vulkan lets a
 * driver truncate instead) and bf16 by hand (round to nearest even, NaN kept quiet).
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
        String elem = t == DType.BF16 ? "bfloat16_t" : "float16_t";
        String extensions = """
                #extension GL_KHR_cooperative_matrix : require
                #extension GL_KHR_memory_scope_semantics : require
                #extension GL_KHR_shader_subgroup_basic : require
                """ + (t == DType.BF16 ? "#extension GL_EXT_bfloat16 : require\n" : "");
        String matrices = """
                #define MAT_A coopmat<%1$s, gl_ScopeSubgroup, LM, LK, gl_MatrixUseA>
                #define MAT_B coopmat<%1$s, gl_ScopeSubgroup, LK, LN, gl_MatrixUseB>
                #define MAT_C coopmat<float, gl_ScopeSubgroup, LM, LN, gl_MatrixUseAccumulator>
                #define ZERO_C MAT_C(0.0)
                #define LOAD_A(m, at) coopMatLoad(m, As, at, ROW_A, gl_CooperativeMatrixLayoutRowMajor)
                #define LOAD_B(m, at) coopMatLoad(m, Bs, at, ROW_B, gl_CooperativeMatrixLayoutRowMajor)
                #define MUL_ADD(a, b, c) coopMatMulAdd(a, b, c)
                #define STORE_C(m, at) coopMatStore(m, Cs, at, LN, gl_CooperativeMatrixLayoutRowMajor)
                #define SUBGROUP_ID gl_SubgroupID
                #define LANE gl_SubgroupInvocationID
                #define LANES gl_SubgroupSize
                #define SUBGROUP_SYNC() subgroupMemoryBarrierShared(); subgroupBarrier()
                """.formatted(elem);
        return source(t, g, subgroupSize, wideLoads, extensions, matrices);
    }

    /**
     * The kernel with the matrix operations {@code matrices} defines ({@code MAT_A}, {@code LOAD_A},
     * {@code MUL_ADD}, {@code SUBGROUP_SYNC}, ...: cooperative matrices in {@link #source(DType, Tiling, int, boolean)};
     * a test defines them as plain arrays to run the staging, edges and rounding on a device without coopmat).
     */
    static String source(DType t, Tiling g, int subgroupSize, boolean wideLoads, String extensions, String matrices) {
        if (t != DType.F16 && t != DType.BF16) throw new IllegalArgumentException("coopmat GEMM for " + t);
        boolean bf = t == DType.BF16;
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
                : "c16[o] = float16BitsToUint16(float16_t(v));";
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                #extension GL_EXT_shader_16bit_storage : require
                #extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
                #extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
                %1$s
                // jburn coopmat GEMM, %2$s, %3$dx%4$dx%5$d matrices, %6$dx%7$d per subgroup, K step %8$d%9$s
                layout(local_size_x = %10$d) in;
                layout(std430, binding = 0) readonly buffer A { uint16_t a16[]; };
                layout(std430, binding = 1) readonly buffer B { uint16_t b16[]; };
                layout(std430, binding = 0) readonly buffer A4 { uvec4 a4[]; };
                layout(std430, binding = 1) readonly buffer B4 { uvec4 b4[]; };
                layout(std430, binding = 2) writeonly buffer C { uint16_t c16[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint LM = %3$du, LN = %4$du, LK = %5$du, TM = %19$du, TN = %20$du, BK = %8$du;
                const uint BM = 2u * TM * LM, BN = 2u * TN * LN, THREADS = %10$du, SUBGROUP_SIZE = %17$du;
                const uint ROW_A = %11$du, ROW_B = %12$du;
                const uint A_VECS = BM * BK / 8u, B_VECS = BK * BN / 8u;
                const uint A_PER = (A_VECS + THREADS - 1u) / THREADS, B_PER = (B_VECS + THREADS - 1u) / THREADS;
                shared uvec4 As[BM * ROW_A];
                shared uvec4 Bs[BK * ROW_B];
                shared float Cs[%13$d * LM * LN];
                %16$s
                // Eight consecutive 16-bit values from A (or B) at i, the first n of them (when inRange) real, the rest zero.
                uvec4 load8(bool fromA, uint i, bool inRange, uint n) {
                    uint h[8];
                    [[unroll]] for (uint e = 0u; e < 8u; e++) h[e] = inRange && e < n ? uint(fromA ? a16[i + e] : b16[i + e]) : 0u;
                    return uvec4(h[0] | (h[1] << 16), h[2] | (h[3] << 16), h[4] | (h[5] << 16), h[6] | (h[7] << 16));
                }
                // The A and B tiles of the K step at k0, as uvec4s of eight values, A_PER and B_PER per invocation.
                void fetch(uint k0, uint aOff, uint bOff, uint M, uint N, uint K, uint row0, uint col0, uint tid,
                           out uvec4 ta[A_PER], out uvec4 tb[B_PER]) {
                    [[unroll]] for (uint l = 0u; l < A_PER; l++) {
                        uint idx = tid + l * THREADS;
                        uint gr = row0 + idx / (BK / 8u), gk = k0 + 8u * (idx %% (BK / 8u));
                        ta[l] = idx < A_VECS ? %14$s : uvec4(0u);
                    }
                    [[unroll]] for (uint l = 0u; l < B_PER; l++) {
                        uint idx = tid + l * THREADS;
                        uint gk = k0 + idx / (BN / 8u), gc = col0 + 8u * (idx %% (BN / 8u));
                        tb[l] = idx < B_VECS ? %15$s : uvec4(0u);
                    }
                }
                void main() {
                    uint M = p[1], N = p[2], K = p[3];
                    uint batch = gl_WorkGroupID.z, tid = gl_LocalInvocationID.x;
                    uint sg = SUBGROUP_ID, sgRow = sg >> 1, sgCol = sg & 1u;
                    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
                    uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;
                    MAT_C acc[TM][TN];
                    [[unroll]] for (uint i = 0u; i < TM; i++) [[unroll]] for (uint j = 0u; j < TN; j++) acc[i][j] = ZERO_C;
                    uvec4 ta[A_PER], tb[B_PER];
                    fetch(0u, aOff, bOff, M, N, K, row0, col0, tid, ta, tb);
                    for (uint k0 = 0u; k0 < K; k0 += BK) {
                        barrier(); // every subgroup has finished reading the last step's tiles
                        [[unroll]] for (uint l = 0u; l < A_PER; l++) {
                            uint idx = tid + l * THREADS;
                            if (idx < A_VECS) As[(idx / (BK / 8u)) * ROW_A + idx %% (BK / 8u)] = ta[l];
                        }
                        [[unroll]] for (uint l = 0u; l < B_PER; l++) {
                            uint idx = tid + l * THREADS;
                            if (idx < B_VECS) Bs[(idx / (BN / 8u)) * ROW_B + idx %% (BN / 8u)] = tb[l];
                        }
                        barrier();
                        // The next step's loads are in flight while this step multiplies.
                        if (k0 + BK < K) fetch(k0 + BK, aOff, bOff, M, N, K, row0, col0, tid, ta, tb);
                        [[unroll]] for (uint kk = 0u; kk < BK; kk += LK) {
                            MAT_A ma[TM];
                            [[unroll]] for (uint i = 0u; i < TM; i++) LOAD_A(ma[i], ((sgRow * TM + i) * LM) * ROW_A + kk / 8u);
                            [[unroll]] for (uint j = 0u; j < TN; j++) {
                                MAT_B mb;
                                LOAD_B(mb, kk * ROW_B + ((sgCol * TN + j) * LN) / 8u);
                                [[unroll]] for (uint i = 0u; i < TM; i++) acc[i][j] = MUL_ADD(ma[i], mb, acc[i][j]);
                            }
                        }
                    }
                    uint scratch = sg * LM * LN;
                    [[unroll]] for (uint i = 0u; i < TM; i++) [[unroll]] for (uint j = 0u; j < TN; j++) {
                        STORE_C(acc[i][j], scratch);
                        SUBGROUP_SYNC();
                        uint r0 = row0 + (sgRow * TM + i) * LM, c0 = col0 + (sgCol * TN + j) * LN;
                        for (uint e = LANE; e < LM * LN; e += LANES) {
                            uint r = r0 + e / LN, col = c0 + e %% LN;
                            if (r < M && col < N) {
                                float v = Cs[scratch + e];
                                uint o = cOff + r * N + col;
                %18$s
                            }
                        }
                        SUBGROUP_SYNC();
                    }
                }
                """.formatted(extensions, t.shortName(), g.lm(), g.ln(), g.lk(),
                g.tm() * g.lm(), g.tn() * g.ln(), g.bk(), wideLoads ? ", uvec4 global loads" : "", threads, rowA, rowB, SUBGROUPS,
                aLoad, bLoad, matrices, subgroupSize, store.indent(16).stripTrailing(), g.tm(), g.tn());
    }
}
