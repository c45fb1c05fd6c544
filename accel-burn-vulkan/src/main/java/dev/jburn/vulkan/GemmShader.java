package dev.jburn.vulkan;

/**
 * Batched matrix multiply {@code C[b] = A[b]·B[b]} ({@code A [M,K]}, {@code B [K,N]}, row-major,
 * batches contiguous) tiled in shared memory: a 16×16 work group computes a 64×64 tile of C, each
 * invocation a 4×4 block strided by 16 (so neighbouring invocations read neighbouring shared
 * words), stepping through K 16 at a time. Bounds are checked at the edges, so any M, N, K work.
 */
final class GemmShader {
    private GemmShader() {}

    static final int TILE = 64;

    /** Bindings: 0 A, 1 B, 2 C, 3 parameters {@code [batch, M, N, K]}. */
    static String source(boolean f64) {
        String t = f64 ? "double" : "float";
        String ext = "";
        return """
                #version 450
                %s// jburn tiled GEMM, %s
                layout(local_size_x = 16, local_size_y = 16) in;
                layout(std430, binding = 0) readonly buffer A { %s a[]; };
                layout(std430, binding = 1) readonly buffer B { %s b[]; };
                layout(std430, binding = 2) writeonly buffer C { %s c[]; };
                layout(std430, binding = 3) readonly buffer Params { uint p[]; };
                shared %s As[16][64];
                shared %s Bs[16][64];
                void main() {
                    uint M = p[1], N = p[2], K = p[3];
                    uint batch = gl_WorkGroupID.z;
                    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
                    uint tid = ty * 16u + tx;
                    uint row0 = gl_WorkGroupID.y * 64u, col0 = gl_WorkGroupID.x * 64u;
                    uint aOff = batch * M * K, bOff = batch * K * N, cOff = batch * M * N;
                    %s acc[4][4];
                    for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) acc[i][j] = %s(0);
                    for (uint k0 = 0u; k0 < K; k0 += 16u) {
                        for (uint l = 0u; l < 4u; l++) {
                            uint idx = tid + l * 256u;
                            uint ar = idx >> 4, ak = idx & 15u;
                            uint gr = row0 + ar, gk = k0 + ak;
                            %s av = %s(0);
                            if (gr < M && gk < K) av = a[aOff + gr * K + gk];
                            As[ak][ar] = av;
                            uint bk = idx >> 6, bc = idx & 63u;
                            uint gk2 = k0 + bk, gc = col0 + bc;
                            %s bv = %s(0);
                            if (gk2 < K && gc < N) bv = b[bOff + gk2 * N + gc];
                            Bs[bk][bc] = bv;
                        }
                        barrier();
                        for (uint kk = 0u; kk < 16u; kk++) {
                            %s av[4], bv[4];
                            for (uint i = 0u; i < 4u; i++) av[i] = As[kk][ty + 16u * i];
                            for (uint j = 0u; j < 4u; j++) bv[j] = Bs[kk][tx + 16u * j];
                            for (uint i = 0u; i < 4u; i++) for (uint j = 0u; j < 4u; j++) acc[i][j] += av[i] * bv[j];
                        }
                        barrier();
                    }
                    for (uint i = 0u; i < 4u; i++) {
                        uint r = row0 + ty + 16u * i;
                        if (r >= M) continue;
                        for (uint j = 0u; j < 4u; j++) {
                            uint col = col0 + tx + 16u * j;
                            if (col < N) c[cOff + r * N + col] = acc[i][j];
                        }
                    }
                }
                """.formatted(ext, t, t, t, t, t, t, t, t, t, t, t, t, t);
    }
}
