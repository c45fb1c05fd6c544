package dev.jburn.cuda;

import dev.jburn.DType;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Nx {@code gather} in two kernels: the first turns each index row into an element offset of
 * {@code x} and records the first (lowest row-major position) index that is out of range; the
 * engine reads that one cell back — the only synchronization, needed because a bad index must
 * fail as a {@code JBurnException} — and the second copies each row's slice.
 */
final class GatherKernels {
    static final String OFFSETS_ENTRY = "jburn_gather_offsets", COPY_ENTRY = "jburn_gather_copy";
    /** No bad index: the error cell's initial value. */
    static final long NO_ERROR = -1L;

    private static final Map<DType, String> OFFSETS = new ConcurrentHashMap<>();

    private GatherKernels() {}

    /** Whether indices of type {@code t} are supported (the integer types). */
    static boolean indexType(DType t) { return t.isInteger(); }

    /** Row offsets for indices of type {@code t}: {@code offsets[r] = Σ_j idx[r,j]·strides[j]}, bounds checked against {@code dims}. */
    static String offsets(DType t) {
        return OFFSETS.computeIfAbsent(t, k -> {
            String storage = LineKernels.storage(t);
            String bad = t.isUnsigned() ? "(unsigned long long)v >= (unsigned long long)dims.v[j]" : "(long long)v < 0 || (long long)v >= dims.v[j]";
            return """
                    struct JbDims { long long v[8]; };
                    extern "C" __global__ void %s(const %s* __restrict__ idx, long long* __restrict__ offsets,
                                                   unsigned long long* __restrict__ err, long long rows, int k,
                                                   JbDims dims, JbDims strides) {
                        for (long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += (long long)gridDim.x * blockDim.x) {
                            long long off = 0;
                            for (int j = 0; j < k; j++) {
                                %s v = idx[r * k + j];
                                if (%s) { atomicMin(err, (unsigned long long)(r * k + j)); off = 0; break; }
                                off += (long long)v * strides.v[j];
                            }
                            offsets[r] = off;
                        }
                    }
                    """.formatted(OFFSETS_ENTRY, storage, storage, bad);
        });
    }

    /** Copies slice {@code s} of row {@code r} to {@code out[r·sliceSize + s]}, for elements of {@code bytes} bytes. */
    static final String COPY = """
            struct JbDims { long long v[8]; };
            #define JB_GATHER(NAME, T) \\
            extern "C" __global__ void NAME(const T* __restrict__ x, const long long* __restrict__ offsets, T* __restrict__ out, \\
                                            long long n, long long sliceSize, int rank, JbDims dims, JbDims strides) { \\
                for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) { \\
                    long long row = i / sliceSize, r = i - row * sliceSize, src = offsets[row]; \\
                    for (int d = rank - 1; d >= 0; --d) { \\
                        long long q = r / dims.v[d]; \\
                        src += (r - q * dims.v[d]) * strides.v[d]; \\
                        r = q; \\
                    } \\
                    out[i] = x[src]; \\
                } \\
            }
            JB_GATHER(jburn_gather_copy_1, unsigned char)
            JB_GATHER(jburn_gather_copy_2, unsigned short)
            JB_GATHER(jburn_gather_copy_4, unsigned int)
            JB_GATHER(jburn_gather_copy_8, unsigned long long)
            """;

    static String copyEntry(int bytes) { return COPY_ENTRY + "_" + bytes; }

    static final String UPDATE_ENTRY = "jburn_indexed_update";
    private static final Map<String, String> UPDATES = new ConcurrentHashMap<>();

    /** Whether {@code indexedAdd} runs here for {@code t} (its own C arithmetic, or wrapping integers); puts run for every type. */
    static boolean adds(DType t) { return LineKernels.scans(t); }

    /**
     * {@code indexedAdd/Put}: one thread per slice element walks the rows in order, so duplicates sum
     * (or the last write wins) exactly as on the cpu engine; threads never share a position.
     */
    static String update(DType t, boolean accumulate) {
        return UPDATES.computeIfAbsent(t + ":" + accumulate, k -> {
            String storage = LineKernels.storage(t);
            String write = !accumulate ? "out[pos] = upd[r * sliceSize + j];"
                    : t.isFloat() ? "out[pos] = out[pos] + upd[r * sliceSize + j];"
                    : "out[pos] = (" + storage + ")((unsigned long long)out[pos] + (unsigned long long)upd[r * sliceSize + j]);";
            return """
                    struct JbDims { long long v[8]; };
                    extern "C" __global__ void %s(const %s* __restrict__ upd, const long long* __restrict__ offsets, %s* __restrict__ out,
                                                   long long rows, long long sliceSize, int rank, JbDims dims, JbDims strides) {
                        for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < sliceSize; j += (long long)gridDim.x * blockDim.x) {
                            long long r_ = j, so = 0;
                            for (int d = rank - 1; d >= 0; --d) {
                                long long q = r_ / dims.v[d];
                                so += (r_ - q * dims.v[d]) * strides.v[d];
                                r_ = q;
                            }
                            for (long long r = 0; r < rows; r++) {
                                long long pos = offsets[r] + so;
                                %s
                            }
                        }
                    }
                    """.formatted(UPDATE_ENTRY, storage, storage, write);
        });
    }
}
