package dev.jburn.vulkan;

/**
 * An f32 GEMM that overlaps the global loads of the next K step with the arithmetic of this one,
 * the layout of the classic 128×128×8 SGEMM: the same 128×128 tiles, 256 invocations and 8×8
 * results per invocation (2×2 blocks of 4×4, {@code vec4} shared reads) as {@link GemmShader}'s
 * f32 kernel, but K steps of 8 through two shared-memory buffers. Each step first issues the
 * global loads of the next step into registers (one {@code vec4} of A and one of B per invocation
 * with wide loads, so the prefetch costs 8 registers next to the 64 accumulators), multiplies
 * from the current buffer while they arrive, writes them to the other buffer, and needs one
 * barrier, not two: a buffer is written only after every invocation passed the barrier that ended
 * its last reading. Same bounds checks, same results up to the order of FMA rounding within a dot
 * (exactly the same order, in fact: k ascends in both). An earlier register prefetch of 16-deep
 * steps (32 more registers) measured slower on the H200 (4.27 ms against 3.67), and so does this one on an
 * H100 (device time 3.99 against 3.60 ms at 4096, 2026-12-06; {@code GemmTilingBench}): kept to compare, chosen by
 * {@code -Djburn.vulkan.gemmDoubleBuffer=true}.
 */
final class GemmShaderDoubleBuffered {
    private GemmShaderDoubleBuffered() {}

    /** Bindings as {@link GemmShader#source}: 0 A, 1 B, 2 C, 3 parameters {@code [batch, M, N, K]}. */
    static String source(boolean wideLoads) {
        // Wide: A 128 rows x 2 vec4s along k, B 8 rows x 32 vec4s along n, one of each per invocation.
        String wide = """
                    void fetch(uint k0, uint aOff, uint bOff, uint M, uint N, uint K, uint row0, uint col0, uint tid, out vec4 av, out vec4 bv) {
                        uint ar = tid >> 1, aq = tid & 1u;
                        uint gr = row0 + ar, gk = k0 + 4u * aq;
                        av = (gr < M && gk < K) ? a4[(aOff + gr * K + gk) >> 2] : vec4(0.0);
                        uint bk = tid >> 5, bq = tid & 31u;
                        uint gk2 = k0 + bk, gc = col0 + 4u * bq;
                        bv = (gk2 < K && gc < N) ? b4[(bOff + gk2 * N + gc) >> 2] : vec4(0.0);
                    }
                """;
        String scalar = """
                    void fetch(uint k0, uint aOff, uint bOff, uint M, uint N, uint K, uint row0, uint col0, uint tid, out vec4 av, out vec4 bv) {
                        uint ar = tid >> 1, aq = tid & 1u;
                        uint gr = row0 + ar, gk = k0 + 4u * aq;
                        uint bk = tid >> 5, bq = tid & 31u;
                        uint gk2 = k0 + bk, gc = col0 + 4u * bq;
                        [[unroll]] for (uint e = 0u; e < 4u; e++) {
                            av[e] = (gr < M && gk + e < K) ? a[aOff + gr * K + gk + e] : 0.0;
                            bv[e] = (gk2 < K && gc + e < N) ? b[bOff + gk2 * N + gc + e] : 0.0;
                        }
                    }
                """;
        return """
                #version 450
                #extension GL_EXT_control_flow_attributes : require
                // jburn tiled GEMM, float, 8x8 per invocation, K steps of 8 double-buffered%1$s
                layout(local_size_x = 16, local_size_y = 16) in;
%6$s                // A transposed (k major), rows padded by one vec4 against conflicts of the transposing stores.
                shared vec4 As[2][8][T / 4u + 1u];
                shared vec4 Bs[2][8][T / 4u];
                %2$s
                void stash(uint buf, uint tid, vec4 av, vec4 bv) {
                    uint ar = tid >> 1, aq = tid & 1u;
                    [[unroll]] for (uint e = 0u; e < 4u; e++) As[buf][4u * aq + e][ar >> 2][ar & 3u] = av[e];
                    Bs[buf][tid >> 5][tid & 31u] = bv;
                }
                void main() {
                %3$s
                    vec4 acc[8][2];
                    [[unroll]] for (uint i = 0u; i < 8u; i++) { acc[i][0] = vec4(0.0); acc[i][1] = vec4(0.0); }
                    vec4 av, bv;
                    fetch(0u, aOff, bOff, M, N, K, row0, col0, tid, av, bv);
                    stash(0u, tid, av, bv);
                    barrier();
                    uint buf = 0u;
                    for (uint k0 = 0u; k0 < K; k0 += 8u) {
                        bool more = k0 + 8u < K;
                        if (more) fetch(k0 + 8u, aOff, bOff, M, N, K, row0, col0, tid, av, bv);
%4$s                        if (more) stash(buf ^ 1u, tid, av, bv);
                        barrier();
                        buf ^= 1u;
                    }
%5$s                }
                """.formatted(wideLoads ? ", vec4 global loads" : "", wideLoads ? wide : scalar, GemmShader.TILE_COORDINATES,
                GemmShader.multiplyVec4Blocks(8, "As[buf]", "Bs[buf]"), GemmShader.STORE_VEC4_BLOCKS, GemmShader.F32_BINDINGS);
    }
}
