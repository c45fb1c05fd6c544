package dev.jburn.cuda;

import dev.jburn.DType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stable sort and argsort along an axis by ranking: each element's 64-bit key is made as on the cpu
 * engine (every NaN above +Inf, both zeros equal, U64 with its top bit flipped, descending as the
 * complement), and its place is the number of elements of its line with a smaller key, or an equal
 * key at an earlier position — which is exactly the stable order. One thread per element, n reads
 * each, so it is used for lines up to {@link #MAX_LINE}; longer lines fall back to the cpu engine.
 */
final class RankSort {
    static final int MAX_LINE = 4096;
    static final String ENTRY = "jburn_rank_sort";

    private static final Map<String, String> SOURCES = new ConcurrentHashMap<>();

    private RankSort() {}

    private static String key(DType t, String e) {
        return switch (t) {
            case F16 -> "jb_fkey((double)jb_f16(" + e + "))";
            case BF16 -> "jb_fkey((double)jb_bf16(" + e + "))";
            case F32, F64 -> "jb_fkey((double)(" + e + "))";
            case U64 -> "(i64)((u64)(" + e + ") ^ 0x8000000000000000ull)";
            case PRED, U8, U16, U32, S8, S16, S32, S64 -> "(i64)(" + e + ")";
        };
    }

    /** The kernel for elements of {@code t}; writes positions as {@code indexType}, or the elements when it is null. */
    static String source(DType t, boolean descending, DType indexType) {
        String k = t + ":" + descending + ":" + indexType;
        return SOURCES.computeIfAbsent(k, key -> {
            String in = LineKernels.storage(t), out = indexType == null ? in : LineKernels.storage(indexType);
            String kx = key(t, "in[start + j * inner]"), ks = key(t, "in[start + p * inner]");
            if (descending) {
                kx = "~" + kx;
                ks = "~" + ks;
            }
            String write = indexType == null ? "out[start + rank * inner] = in[start + p * inner];" : "out[start + rank * inner] = (" + out + ")p;";
            return LineKernelsCommon.TEXT + """
                    static __device__ __forceinline__ i64 jb_fkey(double v) {
                        if (v != v) return 0x7fffffffffffffffll;
                        if (v == 0) return 0;
                        i64 bits = __double_as_longlong(v);
                        return bits ^ ((bits >> 63) & 0x7fffffffffffffffll);
                    }
                    extern "C" __global__ void %s(const %s* __restrict__ in, %s* __restrict__ out, i64 total, i64 n, i64 inner) {
                        for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (i64)gridDim.x * blockDim.x) {
                            i64 line = e / n, p = e - line * n;
                            i64 start = (line / inner) * n * inner + line %% inner;
                            i64 mine = %s;
                            i64 rank = 0;
                            for (i64 j = 0; j < n; j++) {
                                i64 other = %s;
                                rank += (other < mine || (other == mine && j < p)) ? 1 : 0;
                            }
                            %s
                        }
                    }
                    """.formatted(ENTRY, in, out, ks, kx, write);
        });
    }
}
