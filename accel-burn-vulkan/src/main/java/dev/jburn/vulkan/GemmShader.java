package dev.jburn.vulkan;

/**
 * Batched matrix multiply {@code C[b] = A[b]·B[b]} ({@code A [M,K]}, {@code B [K,N]}, row-major,
 * batches contiguous) tiled in shared memory: a 16×16 work group computes a {@code 16R×16R} tile
 * of C, each invocation an {@code R×R} block strided by 16 (so neighbouring invocations read
 * neighbouring shared words), stepping through K 16 at a time. R is 8 for f32 (128×128 tiles: 16
 * shared loads per 64 multiply-adds) and 4 for f64 (its tiles stay within 32 KB of shared memory).
 * Bounds are checked at the edges, so any M, N, K work. Every fixed-count loop is marked
 * {@code [[unroll]]}: a driver that keeps such a loop rolled must put {@code acc} in local memory,
 * which is many times slower than registers. The A tile has one word of padding
 * per row so the transposing stores into it do not all hit one shared-memory bank. The compiler may fuse each multiply-add
 * (as the cpu engine's GEMM does); a dot's rounding is within the kit's tolerance either way.
 */
final class GemmShader {
    private GemmShader() {}

    /**
     * The start of both kernels' {@code main}: sizes from the parameters, this invocation's place in
     * its 16×16 work group, the work group's tile of C ({@code T} square) and the batch's offsets.
     */
    static final String TILE_COORDINATES = """
                uint M = p[1], N = p[2], K = p[3];
                uint batch = gl_WorkGroupID.z;
                uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
                uint tid = ty * 16u + tx;
                uint row0 = gl_WorkGroupID.y * T, col0 = gl_WorkGroupID.x * T;
                uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;\
            """;

    /** Elements per invocation along each axis. */
    static int perThread(boolean f64) { return f64 ? 4 : 8; }

    /** Rows (and columns) of C per work group. */
    static int tile(boolean f64) { return 16 * perThread(f64); }

    /**
     * Bindings: 0 A, 1 B, 2 C, 3 parameters {@code [batch, M, N, K]}. {@code wideLoads} (f32 only, and only
     * when {@code K} and {@code N} are multiples of 4, see {@link #wideLoads}) reads A and B from global
     * memory as {@code vec4}s: a quarter of the load instructions. The engine runs {@link GemmShaderTiled}'s
     * kernel of the same tiling for wide f32 products (it also stores {@code vec4}s); this one stays as the twin
     * it is checked against, bit for bit ({@code GemmShaderTiledTest}).
     */
    static String source(boolean f64, boolean wideLoads) {
        return f64 ? strided(true) : vec4Blocks(wideLoads);
    }

    /**
     * Whether a product with these {@code K} and {@code N} may use wide loads: every row of A and B then
     * starts on a 16-byte boundary, and a {@code vec4} that starts inside the matrix ends inside it.
     */
    static boolean wideLoads(long k, long n) {
        return k % 4 == 0 && n % 4 == 0;
    }

    /**
     * The f32 kernel: the same 128×128 tiles and 16-deep K steps, but each invocation's 8 rows are two
     * runs of 4 ({@code 4ty..4ty+3} and {@code 64+4ty..}), likewise its columns, so it reads its A and B
     * values from shared memory as four {@code vec4}s per k instead of 16 scalars: the loop was
     * bound by shared-memory loads (16 loads per 64 multiply-adds). A quarter-warp's {@code vec4} reads
     * of B cover 128 contiguous bytes (no bank conflict) and its reads of A are one broadcast. The A
     * tile's rows are padded by one {@code vec4} against conflicts of the transposing stores.
     */
    private static String vec4Blocks(boolean wideLoads) {
        String scalarLoads = """
                        [[unroll]] for (uint l = 0u; l < 8u; l++) {
                            uint idx = tid + l * 256u;
                            uint ar = idx >> 4, ak = idx & 15u;
                            uint gr = row0 + ar, gk = k0 + ak;
                            float av = 0.0;
                            if (gr < M && gk < K) av = a[aOff + gr * K + gk];
                            As[ak][ar >> 2][ar & 3u] = av;
                            uint bk = idx >> 7, bc = idx & 127u;
                            uint gk2 = k0 + bk, gc = col0 + bc;
                            float bv = 0.0;
                            if (gk2 < K && gc < N) bv = b[bOff + gk2 * N + gc];
                            Bs[bk][bc >> 2][bc & 3u] = bv;
                        }
                """;
        // A: 128 rows x 4 vec4s along k; B: 16 rows x 32 vec4s along n; two of each per invocation.
        String vectorLoads = """
                        [[unroll]] for (uint l = 0u; l < 2u; l++) {
                            uint idx = tid + l * 256u;
                            uint ar = idx >> 2, aq = idx & 3u;
                            uint gr = row0 + ar, gk = k0 + 4u * aq;
                            vec4 av = vec4(0.0);
                            if (gr < M && gk < K) av = a4[(aOff + gr * K + gk) >> 2];
                            [[unroll]] for (uint e = 0u; e < 4u; e++) As[4u * aq + e][ar >> 2][ar & 3u] = av[e];
                            uint bk = idx >> 5, bq = idx & 31u;
                            uint gk2 = k0 + bk, gc = col0 + 4u * bq;
                            vec4 bv = vec4(0.0);
                            if (gk2 < K && gc < N) bv = b4[(bOff + gk2 * N + gc) >> 2];
                            Bs[bk][bq] = bv;
                        }
                """;
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn tiled GEMM, float, 8x8 per invocation as 2x2 blocks of 4x4, vec4 shared reads%1$s
                layout(local_size_x = 16, local_size_y = 16) in;
%6$s                shared vec4 As[16][T / 4u + 1u];
                shared vec4 Bs[16][T / 4u];
                void main() {
                %2$s
                    vec4 acc[8][2];
                    [[unroll]] for (uint i = 0u; i < 8u; i++) { acc[i][0] = vec4(0.0); acc[i][1] = vec4(0.0); }
                    for (uint k0 = 0u; k0 < K; k0 += 16u) {
                %3$s        barrier();
%4$s                        barrier();
                    }
%5$s                }
                """.formatted(wideLoads ? ", vec4 global loads" : "", TILE_COORDINATES, wideLoads ? vectorLoads : scalarLoads,
                multiplyVec4Blocks(16, "As", "Bs"), STORE_VEC4_BLOCKS, F32_BINDINGS);
    }

    /**
     * One K step of the vec4-block kernels: {@code depth} rank-1 updates of the 8×8 accumulators from
     * the shared tiles {@code as[k][m/4]} and {@code bs[k][n/4]} (names that may index a buffer, {@code "As[buf]"}).
     */
    static String multiplyVec4Blocks(int depth, String as, String bs) {
        return """
                        [[unroll]] for (uint kk = 0u; kk < %1$du; kk++) {
                            vec4 a0 = %2$s[kk][ty], a1 = %2$s[kk][16u + ty];
                            vec4 b0 = %3$s[kk][tx], b1 = %3$s[kk][16u + tx];
                            [[unroll]] for (uint i = 0u; i < 4u; i++) {
                                acc[i][0] += a0[i] * b0;
                                acc[i][1] += a0[i] * b1;
                                acc[4u + i][0] += a1[i] * b0;
                                acc[4u + i][1] += a1[i] * b1;
                            }
                        }
                """.formatted(depth, as, bs);
    }

    /** The f32 vec4-block kernels' bindings (A and B also as {@code vec4}s for wide loads) and their tile size. */
    static final String F32_BINDINGS = """
                layout(std430, binding = 0) readonly buffer A { float a[]; };
                layout(std430, binding = 1) readonly buffer B { float b[]; };
                layout(std430, binding = 0) readonly buffer A4 { vec4 a4[]; };
                layout(std430, binding = 1) readonly buffer B4 { vec4 b4[]; };
                layout(std430, binding = 2) writeonly buffer C { float c[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint T = 128u;
            """;

    /** The vec4-block kernels' bounds-checked stores of their 8×8 accumulators. */
    static final String STORE_VEC4_BLOCKS = """
                    [[unroll]] for (uint i = 0u; i < 8u; i++) {
                        uint r = row0 + (i < 4u ? 4u * ty + i : 64u + 4u * ty + (i - 4u));
                        if (r >= M) continue;
                        [[unroll]] for (uint h = 0u; h < 2u; h++) {
                            uint col = col0 + 64u * h + 4u * tx;
                            [[unroll]] for (uint j = 0u; j < 4u; j++) {
                                if (col + j < N) c[cOff + r * N + col + j] = acc[i][h][j];
                            }
                        }
                    }
            """;

    /** The original layout: each invocation's R×R block strided by 16 (f64 uses it: R = 4). */
    private static String strided(boolean f64) {
        String t = f64 ? "double" : "float";
        int r = perThread(f64);
        int tile = 16 * r;
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn tiled GEMM, %1$s, %2$dx%2$d per invocation
                layout(local_size_x = 16, local_size_y = 16) in;
                layout(std430, binding = 0) readonly buffer A { %1$s a[]; };
                layout(std430, binding = 1) readonly buffer B { %1$s b[]; };
                layout(std430, binding = 2) writeonly buffer C { %1$s c[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                const uint R = %2$du;
                const uint T = %3$du;
                shared %1$s As[16][T + 1u];
                shared %1$s Bs[16][T];
                void main() {
                %4$s
                    %1$s acc[R][R];
                    [[unroll]] for (uint i = 0u; i < R; i++) [[unroll]] for (uint j = 0u; j < R; j++) acc[i][j] = %1$s(0);
                    for (uint k0 = 0u; k0 < K; k0 += 16u) {
                        [[unroll]] for (uint l = 0u; l < R; l++) {
                            uint idx = tid + l * 256u;
                            uint ar = idx >> 4, ak = idx & 15u;
                            uint gr = row0 + ar, gk = k0 + ak;
                            %1$s av = %1$s(0);
                            if (gr < M && gk < K) av = a[aOff + gr * K + gk];
                            As[ak][ar] = av;
                            uint bk = idx / T, bc = idx %% T;
                            uint gk2 = k0 + bk, gc = col0 + bc;
                            %1$s bv = %1$s(0);
                            if (gk2 < K && gc < N) bv = b[bOff + gk2 * N + gc];
                            Bs[bk][bc] = bv;
                        }
                        barrier();
                        [[unroll]] for (uint kk = 0u; kk < 16u; kk++) {
                            %1$s av[R], bv[R];
                            [[unroll]] for (uint i = 0u; i < R; i++) av[i] = As[kk][ty + 16u * i];
                            [[unroll]] for (uint j = 0u; j < R; j++) bv[j] = Bs[kk][tx + 16u * j];
                            [[unroll]] for (uint i = 0u; i < R; i++) [[unroll]] for (uint j = 0u; j < R; j++) acc[i][j] += av[i] * bv[j];
                        }
                        barrier();
                    }
                    [[unroll]] for (uint i = 0u; i < R; i++) {
                        uint r = row0 + ty + 16u * i;
                        if (r >= M) continue;
                        [[unroll]] for (uint j = 0u; j < R; j++) {
                            uint col = col0 + tx + 16u * j;
                            if (col < N) c[cOff + r * N + col] = acc[i][j];
                        }
                    }
                }
                """.formatted(t, r, tile, TILE_COORDINATES);
    }
}
