package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;

import java.util.List;

/**
 * A batched f32 matrix product {@code C[b] = A[b]·B[b]} on simdgroup matrices (MSL 2.3, GPU family
 * Apple7 and later): what MPS's {@code MPSMatrixMultiplication} does not cover here (batched dots,
 * operands stored transposed, BF16 through exact F32 casts). A threadgroup of 256 threads (8
 * simdgroups of 32, Apple GPUs' width) computes a 32×32 tile of C: each simdgroup two 8×8 blocks, K
 * in steps of 32 through threadgroup memory, zero-filled past the edges, so any M, N, K work.
 * Accumulation is in f32 in the hardware's order (the tests compare with a tolerance, as for MPS).
 * Integer products have their own plain kernel ({@link #integer}).
 *
 * <p>Inputs: 0 A ({@code [batch, M, K]}, or {@code [batch, K, M]} when {@code aT}), 1 B
 * ({@code [batch, K, N]}, or {@code [batch, N, K]} when {@code bT}), 2 the parameter words
 * {@code [M, N, K, aT, bT, tilesM, tilesN]}; the output is {@code [batch, M, N]}; {@code n} is the
 * number of threadgroups, {@code batch × tilesM × tilesN}.
 */
final class MslGemm {
    private MslGemm() {}

    /** Rows and columns of C per threadgroup. */
    static final int TILE = 32;

    /**
     * A batched integer product, one thread per element of C walking K in order: the sum wraps in the
     * unsigned type of the element width, which keeps the low bits the cpu engine's 64-bit sum keeps.
     * Inputs as {@link #source()}'s, with the parameter words {@code [M, N, K, aT, bT]}; {@code n} is the
     * size of C; C is written as the unsigned type of its width (the same bits).
     */
    static KernelSource integer(DType t) {
        String st = Dialect.METAL.storageType(t);
        DType bits = MslMovement.bits(t.byteSize());
        String acc = t.byteSize() == 8 ? "ulong" : "uint";
        String entry = "jb_gemm_" + t.shortName();
        List<DType> in = List.of(t, t, DType.S32);
        String code = MslMovement.HEADER + "// jburn batched " + t.shortName() + " GEMM: one thread per element, wrapping sums\n"
                + Dialect.METAL.open(entry, in, bits) + """
                    device const int* p = in2;
                    uint M = uint(p[0]), N = uint(p[1]), K = uint(p[2]);
                    bool aT = p[3] != 0, bT = p[4] != 0;
                    uint col = i %% N, row = (i / N) %% M, batch = i / (M * N);
                    uint aOff = batch * M * K, bOff = batch * K * N;
                    %1$s sum = 0;
                    for (uint k = 0u; k < K; k++) {
                      %1$s a = %1$s(in0[aOff + (aT ? k * M + row : row * K + k)]);
                      %1$s b = %1$s(in1[bOff + (bT ? col * K + k : k * N + col)]);
                      sum = sum + a * b;
                    }
                    out[i] = %2$s(sum);
                """.formatted(acc, Dialect.METAL.storageType(bits)) + Dialect.METAL.close();
        return new KernelSource(entry, code, in, bits);
    }

    static KernelSource source() {
        String entry = "jb_gemm_f32_simdgroup";
        String code = MslMovement.HEADER + "// jburn batched f32 GEMM on simdgroup matrices: 32x32 tiles, K in steps of 32\n"
                + "kernel void " + entry + "(\n"
                + "    device const float* in0 [[buffer(0)]],\n"
                + "    device const float* in1 [[buffer(1)]],\n"
                + "    device const int* in2 [[buffer(2)]],\n"
                + "    device float* out [[buffer(3)]],\n"
                + "    constant uint& n [[buffer(4)]],\n"
                + "    uint o [[threadgroup_position_in_grid]],\n"
                + "    uint t [[thread_position_in_threadgroup]]) {\n"
                + """
                  threadgroup float As[32 * 32];
                  threadgroup float Bs[32 * 32];
                  threadgroup float Cs[32 * 32];
                  if (o >= n) return; // the same for the whole group
                  device const int* p = in2;
                  uint M = uint(p[0]), N = uint(p[1]), K = uint(p[2]);
                  bool aT = p[3] != 0, bT = p[4] != 0;
                  uint tilesM = uint(p[5]), tilesN = uint(p[6]);
                  uint batch = o / (tilesM * tilesN), rest = o % (tilesM * tilesN);
                  uint row0 = (rest / tilesN) * 32u, col0 = (rest % tilesN) * 32u;
                  uint aOff = batch * M * K, bOff = batch * K * N;
                  // Apple GPUs run simdgroups of 32 threads: threads 32s..32s+31 are simdgroup s.
                  uint sg = t / 32u;
                  uint blockRow = (sg / 2u) * 8u, blockCol = (sg % 2u) * 16u;
                  simdgroup_float8x8 c0 = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
                  simdgroup_float8x8 c1 = make_filled_simdgroup_matrix<float, 8, 8>(0.0f);
                  for (uint k0 = 0u; k0 < K; k0 += 32u) {
                    for (uint e = t; e < 32u * 32u; e += 256u) {
                      uint r = e / 32u, c = e % 32u;
                      uint ar = row0 + r, ak = k0 + c;
                      As[e] = ar < M && ak < K ? in0[aOff + (aT ? ak * M + ar : ar * K + ak)] : 0.0f;
                      uint bk = k0 + r, bc = col0 + c;
                      Bs[e] = bk < K && bc < N ? in1[bOff + (bT ? bc * K + bk : bk * N + bc)] : 0.0f;
                    }
                    threadgroup_barrier(mem_flags::mem_threadgroup);
                    for (uint kk = 0u; kk < 32u; kk += 8u) {
                      simdgroup_float8x8 a, b0, b1;
                      simdgroup_load(a, &As[blockRow * 32u + kk], 32);
                      simdgroup_load(b0, &Bs[kk * 32u + blockCol], 32);
                      simdgroup_load(b1, &Bs[kk * 32u + blockCol + 8u], 32);
                      simdgroup_multiply_accumulate(c0, a, b0, c0);
                      simdgroup_multiply_accumulate(c1, a, b1, c1);
                    }
                    threadgroup_barrier(mem_flags::mem_threadgroup);
                  }
                  simdgroup_store(c0, &Cs[blockRow * 32u + blockCol], 32);
                  simdgroup_store(c1, &Cs[blockRow * 32u + blockCol + 8u], 32);
                  threadgroup_barrier(mem_flags::mem_threadgroup);
                  for (uint e = t; e < 32u * 32u; e += 256u) {
                    uint r = row0 + e / 32u, c = col0 + e % 32u;
                    if (r < M && c < N) out[batch * M * N + r * N + c] = Cs[e];
                  }
                }
                """;
        return new KernelSource(entry, code, List.of(DType.F32, DType.F32, DType.S32), DType.F32);
    }
}
