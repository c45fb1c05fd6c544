package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;

import java.util.List;

/**
 * The metal engine's hand-written indexing kernels, in MSL: gather, indexed add/put and
 * argmax/argmin. Shapes come from a parameter buffer in {@link dev.jburn.kernels.SliceLayout}'s
 * words (the Vulkan engine's shaders read the same), so one pipeline serves every shape. Indices
 * are read in their own integer type and widened to {@code long}; the backend has checked them on
 * the host before the dispatch (shared storage), and the kernels also skip any index out of range
 * rather than touch memory outside a buffer. Signatures are the dialect's: inputs {@code in0..},
 * then {@code out}, the count {@code n}, and the thread's position.
 */
final class MslIndexing {
    private MslIndexing() {}

    private static String storage(DType t) { return Dialect.METAL.storageType(t); }

    /**
     * Nx gather of {@code bytes}-wide elements with {@code index} indices. Inputs: 0 x, 1 indices,
     * 2 {@code SliceLayout.params(n, rows, slice)}; one thread per output element.
     */
    static KernelSource gather(int bytes, DType index) {
        DType t = MslMovement.bits(bytes);
        String entry = "jb_gather" + bytes + "_" + index.shortName();
        List<DType> in = List.of(t, index, DType.S32);
        String code = MslMovement.HEADER + "// jburn gather, " + bytes + "-byte elements, " + index.shortName() + " indices\n"
                + Dialect.METAL.open(entry, in, t) + """
                    device const int* p = in2;
                    uint slice = uint(p[2]), k = uint(p[3]);
                    int sliceRank = p[4];
                    uint row = i / slice, s = i % slice;
                    uint so = 0u;
                    for (uint j = 0u; j < k; j++) {
                      long v = long(in1[row * k + j]);
                      if (v < 0 || v >= long(p[5u + 2u * j])) return; // checked on the host: never taken
                      so += uint(v) * uint(p[6u + 2u * j]);
                    }
                    uint b = 5u + 2u * k;
                    for (int d = sliceRank - 1; d >= 0; d--) {
                      uint dd = uint(p[b + 2u * uint(d)]);
                      so += (s % dd) * uint(p[b + 2u * uint(d) + 1u]);
                      s /= dd;
                    }
                    out[i] = in0[so];
                """ + Dialect.METAL.close();
        return new KernelSource(entry, code, in, t);
    }

    /**
     * The type an indexed add of {@code t} adds in, or {@code null} where it has none: floats in
     * {@code float}, integers in the unsigned type of their width, so they wrap as the cpu engine's do
     * (two's complement) with no signed overflow. F16/BF16 (the cpu engine rounds after every add) and
     * PRED are left to the cpu engine, as on Vulkan; F64 has no MSL type.
     */
    static DType accumulator(DType t) {
        return switch (t) {
            case F32 -> DType.F32;
            case S8, U8 -> DType.U8;
            case S16, U16 -> DType.U16;
            case S32, U32 -> DType.U32;
            case S64, U64 -> DType.U64;
            case PRED, F16, BF16, F64 -> null;
        };
    }

    /**
     * Nx indexed add ({@code acc} from {@link #accumulator}) or put ({@code acc == null}) of
     * {@code bytes}-wide elements into {@code out}, which already holds the target. Inputs: 0 updates,
     * 1 indices, 2 {@code SliceLayout.params(slice, rows)}; {@code n} is the slice size. One thread per
     * slice element walks the index rows in order, so every target element is touched by one thread in
     * row order: sums round as the cpu engine's sequential loop does and the last duplicate write wins,
     * with no atomics (the parallelism is the slice, as on the CUDA and Vulkan engines).
     */
    static KernelSource indexUpdate(DType acc, int bytes, DType index) {
        DType t = acc != null ? acc : MslMovement.bits(bytes);
        String type = storage(t);
        String entry = "jb_indexed_" + (acc != null ? "add" : "put") + bytes + "_" + index.shortName();
        List<DType> in = List.of(t, index, DType.S32);
        String write = acc == null ? "out[at] = in0[src];"
                : bytes < 4 ? "out[at] = " + type + "(uint(out[at]) + uint(in0[src]));"
                : "out[at] = " + type + "(out[at] + in0[src]);";
        String code = MslMovement.HEADER + "// jburn indexed " + (acc != null ? "add" : "put") + ", " + bytes + "-byte elements, "
                + index.shortName() + " indices\n" + Dialect.METAL.open(entry, in, t) + """
                    device const int* p = in2;
                    uint slice = uint(p[0]), rows = uint(p[1]), k = uint(p[2]);
                    int sliceRank = p[3];
                    uint so = 0u, rest = i, b = 4u + 2u * k;
                    for (int d = sliceRank - 1; d >= 0; d--) {
                      uint dd = uint(p[b + 2u * uint(d)]);
                      so += (rest %% dd) * uint(p[b + 2u * uint(d) + 1u]);
                      rest /= dd;
                    }
                    for (uint row = 0u; row < rows; row++) {
                      uint at = so;
                      bool inRange = true;
                      for (uint j = 0u; j < k; j++) {
                        long v = long(in1[row * k + j]);
                        if (v < 0 || v >= long(p[4u + 2u * j])) inRange = false; // checked on the host: never taken
                        else at += uint(v) * uint(p[5u + 2u * j]);
                      }
                      if (!inRange) continue;
                      uint src = row * slice + i;
                      %s
                    }
                """.formatted(write) + Dialect.METAL.close();
        return new KernelSource(entry, code, in, t);
    }

    /** The MSL type {@code t}'s values compare in: exactly, narrow integers widened, F16/BF16 not at all (the caller widens them first). */
    static String compareType(DType t) {
        return switch (t) {
            case F32 -> "float";
            case S8, S16, S32 -> "int";
            case PRED, U8, U16, U32 -> "uint";
            case S64 -> "long";
            case U64 -> "ulong";
            case F16, BF16, F64 -> null;
        };
    }

    /**
     * {@code argmax}/{@code argmin} of each row of a row-major {@code [rows, len]} matrix of {@code in}
     * (which {@link #compareType} has), one threadgroup of 256 per row; {@code n} is the row count.
     * Inputs: 0 x, 1 {@code [len]}. Each thread scans a strided share of the row in increasing order
     * under the cpu engine's rules (every NaN takes the lead, so the last NaN wins; ±0 compare equal;
     * ties go to the first index, or the last when {@code high}); the group then combines the
     * candidates in a tree with the same rules stated order-free (of two NaNs the higher index; of
     * equal values the lower index, or the higher), so the answer is the sequential scan's. This is
     * the Vulkan engine's {@code ArgReduceShader} in MSL.
     */
    static KernelSource argReduce(DType in, DType out, boolean max, boolean high) {
        String ct = compareType(in);
        String entry = "jb_" + (max ? "argmax" : "argmin") + "_" + in.shortName() + "_" + out.shortName() + (high ? "_high" : "_low");
        String beats = max ? "v > bv" : "v < bv";
        String ties = high ? "true" : "false";
        String isNan = in.isFloat() ? "isnan(v)" : "false";
        String code = MslMovement.HEADER + "// jburn " + (max ? "argmax" : "argmin") + " of rows, ties to the " + (high ? "last" : "first") + " index\n"
                + "kernel void " + entry + "(\n"
                + "    device const " + storage(in) + "* in0 [[buffer(0)]],\n"
                + "    device const uint* in1 [[buffer(1)]],\n"
                + "    device " + storage(out) + "* out [[buffer(2)]],\n"
                + "    constant uint& n [[buffer(3)]],\n"
                + "    uint o [[threadgroup_position_in_grid]],\n"
                + "    uint t [[thread_position_in_threadgroup]]) {\n"
                + """
                  threadgroup %1$s sv[256];
                  threadgroup int si[256];
                  threadgroup uchar sn[256];
                  if (o >= n) return; // the same for the whole group
                  uint len = in1[0];
                  int best = -1;
                  %1$s bv = %1$s(0);
                  bool nan = false;
                  for (uint k = t; k < len; k += 256u) {
                    %1$s v = %1$s(in0[o * len + k]);
                    if (%2$s) { best = int(k); nan = true; }
                    else if (!nan && (best < 0 || %3$s || (v == bv && %4$s))) { best = int(k); bv = v; }
                  }
                  sv[t] = bv; si[t] = best; sn[t] = nan ? 1 : 0;
                  threadgroup_barrier(mem_flags::mem_threadgroup);
                  for (uint s = 128u; s > 0u; s >>= 1) {
                    if (t < s) {
                      int bi = si[t + s];
                      if (bi >= 0) {
                        int ai = si[t];
                        bool take;
                        if (ai < 0) take = true;
                        else if (sn[t] != 0 || sn[t + s] != 0) take = sn[t + s] != 0 && (sn[t] == 0 || bi > ai);
                        else {
                          %1$s cv = sv[t + s], cb = sv[t];
                          take = %5$s || (cv == cb && (%4$s ? bi > ai : bi < ai));
                        }
                        if (take) { sv[t] = sv[t + s]; si[t] = bi; sn[t] = sn[t + s]; }
                      }
                    }
                    threadgroup_barrier(mem_flags::mem_threadgroup);
                  }
                  if (t == 0u) out[o] = %6$s(si[0]);
                }
                """.formatted(ct, isNan, beats, ties, max ? "cv > cb" : "cv < cb", storage(out));
        return new KernelSource(entry, code, List.of(in, DType.U32), out);
    }
}
