package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.MemorySegment;

/**
 * Stable sort and argsort along one axis. Each line is turned into 64-bit keys whose signed
 * order is the wanted order ({@link #key}), then merge-sorted with its positions; the sort
 * writes the original element bits (NaN payloads and the sign of zero survive).
 */
final class SortKernels {
    private final Parallel parallel;

    SortKernels(Parallel parallel, EngineConfig config) {
        this.parallel = parallel;
    }

    Buffer sort(Operand x, int axis, boolean descending) {
        return run(x, axis, descending, null);
    }

    Buffer argsort(Operand x, int axis, boolean descending, DType indexType) {
        return run(x, axis, descending, indexType);
    }

    /** Sorts every line; writes values when {@code indexType} is null, positions otherwise. */
    private Buffer run(Operand x, int axis, boolean descending, DType indexType) {
        DType t = x.dtype();
        DType outType = indexType == null ? t : indexType;
        HostBuffer result = HostBuffer.uninitialized(outType.byteSize(x.size()));
        if (x.size() == 0) return result;
        AxisSplit split = AxisSplit.around(x.shape(), axis);
        MemorySegment src = HostBuffer.of(x.buffer());
        MemorySegment dst = result.segment();
        int n = (int) split.n();
        long stride = split.inner();
        int width = t.byteSize();
        parallel.forRange(split.lines(), n * 8L, (lo, hi) -> {
            long[] keys = new long[n], keyTmp = new long[n];
            int[] pos = new int[n], posTmp = new int[n];
            for (long line = lo; line < hi; line++) {
                long start = split.lineStart(line);
                for (int k = 0; k < n; k++) {
                    long e = start + k * stride;
                    long key = t.isFloat() ? key(HostElements.getDouble(src, t, e)) : key(HostElements.getLong(src, t, e), t);
                    keys[k] = descending ? ~key : key;
                    pos[k] = k;
                }
                StableSort.sort(keys, pos, keyTmp, posTmp);
                for (int k = 0; k < n; k++) {
                    long e = start + k * stride;
                    if (indexType == null) Elements.copy(src, start + pos[k] * stride, dst, e, width);
                    else HostElements.setLong(dst, indexType, e, pos[k]);
                }
            }
        });
        return result;
    }

    /**
     * A float as a signed 64-bit key of the same order: every NaN above +Inf (all NaN equal),
     * both zeros equal. Negative numbers have their magnitude bits flipped so that larger
     * magnitudes sort lower.
     */
    static long key(double v) {
        if (v != v) return Long.MAX_VALUE;
        if (v == 0) return 0;
        long bits = Double.doubleToRawLongBits(v);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** An integer (raw bits, as {@link HostElements#getLong} reads it) as a signed key; U64 flips its top bit. */
    static long key(long v, DType t) {
        return t == DType.U64 ? v ^ Long.MIN_VALUE : v;
    }

    /** Bottom-up merge sort of keys carrying positions; stable; insertion sort for short runs. */
    static final class StableSort {
        private StableSort() {}

        private static final int RUN = 32;

        static void sort(long[] keys, int[] pos, long[] keyTmp, int[] posTmp) {
            int n = keys.length;
            for (int lo = 0; lo < n; lo += RUN) insertion(keys, pos, lo, Math.min(n, lo + RUN));
            long[] k = keys, kt = keyTmp;
            int[] p = pos, pt = posTmp;
            for (int width = RUN; width < n; width *= 2) {
                for (int lo = 0; lo < n; lo += 2 * width) {
                    int mid = Math.min(n, lo + width), hi = Math.min(n, lo + 2 * width);
                    merge(k, p, kt, pt, lo, mid, hi);
                }
                long[] sk = k; k = kt; kt = sk;
                int[] sp = p; p = pt; pt = sp;
            }
            if (k != keys) {
                System.arraycopy(k, 0, keys, 0, n);
                System.arraycopy(p, 0, pos, 0, n);
            }
        }

        private static void insertion(long[] k, int[] p, int lo, int hi) {
            for (int i = lo + 1; i < hi; i++) {
                long key = k[i];
                int at = p[i];
                int j = i - 1;
                while (j >= lo && k[j] > key) {
                    k[j + 1] = k[j];
                    p[j + 1] = p[j];
                    j--;
                }
                k[j + 1] = key;
                p[j + 1] = at;
            }
        }

        /** Merges {@code [lo, mid)} and {@code [mid, hi)} of {@code k} into {@code kt}; ties take the left run first. */
        private static void merge(long[] k, int[] p, long[] kt, int[] pt, int lo, int mid, int hi) {
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                if (k[j] < k[i]) {
                    kt[o] = k[j];
                    pt[o++] = p[j++];
                } else {
                    kt[o] = k[i];
                    pt[o++] = p[i++];
                }
            }
            while (i < mid) {
                kt[o] = k[i];
                pt[o++] = p[i++];
            }
            while (j < hi) {
                kt[o] = k[j];
                pt[o++] = p[j++];
            }
        }
    }
}
