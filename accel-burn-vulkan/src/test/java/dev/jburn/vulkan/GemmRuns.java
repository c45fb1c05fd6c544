package dev.jburn.vulkan;

import dev.jburn.spi.Buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Runs one {@link DotKernels.Gemm} on host f32 operands, for the tiling test and bench: the kernel alone, no dot planning. */
final class GemmRuns {
    private GemmRuns() {}

    /** Device copies of host floats. */
    static DeviceBuffer upload(VulkanBackend b, float[] host) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate((long) host.length * Float.BYTES, 16);
            MemorySegment.copy(host, 0, s, ValueLayout.JAVA_FLOAT, 0, host.length);
            return VulkanBackend.device(b.upload(s), "gemm-runs");
        }
    }

    /** The {@code count} floats of {@code c}. */
    static float[] download(VulkanBackend b, Buffer c, int count) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate((long) count * Float.BYTES, 16);
            b.download(c, 0, s);
            return s.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    /** {@code C[batch] = A[batch]·B[batch]} by {@code g} ({@code A [m,k]}, {@code B [k,n]} row-major), read back. */
    static float[] run(VulkanBackend b, DotKernels.Gemm g, float[] a, float[] bb, int batch, int m, int n, int k) {
        DeviceBuffer da = upload(b, a), db = upload(b, bb);
        try {
            DeviceBuffer c = b.dots.run(g, da, db, batch, m, n, k, Float.BYTES);
            if (c == null) throw new IllegalStateException(g.name() + ": grid too large for " + m + "x" + n);
            try {
                return download(b, c, batch * m * n);
            } finally {
                c.release();
            }
        } finally {
            da.release();
            db.release();
        }
    }

    /** The product in f64 on the host, rounded to f32: the oracle. */
    static float[] oracle(float[] a, float[] bb, int batch, int m, int n, int k) {
        float[] c = new float[batch * m * n];
        for (int z = 0; z < batch; z++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int p = 0; p < k; p++) s += (double) a[(z * m + i) * k + p] * bb[(z * k + p) * n + j];
                    c[(z * m + i) * n + j] = (float) s;
                }
            }
        }
        return c;
    }

    /** {@code count} values in [-1, 1) from a fixed seed. */
    static float[] random(int count, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        float[] x = new float[count];
        for (int i = 0; i < count; i++) x[i] = (float) (r.nextDouble() * 2 - 1);
        return x;
    }

    /** Runs {@code g} on a random {@code [batch, m, k]·[batch, k, n]} and checks each element against {@link #oracle}. */
    static void assertMatchesOracle(VulkanBackend b, DotKernels.Gemm g, int batch, int m, int k, int n) {
        float[] a = random(batch * m * k, 11 + m), bb = random(batch * k * n, 12 + n);
        float[] got = run(b, g, a, bb, batch, m, n, k);
        float[] want = oracle(a, bb, batch, m, n, k);
        for (int i = 0; i < want.length; i++) {
            double tol = 1e-5 * k + 1e-5 * Math.abs(want[i]);
            int at = i;
            org.junit.jupiter.api.Assertions.assertEquals(want[i], got[i], tol, () -> g.name() + " " + batch + "x" + m + "x" + k + "x" + n + " element " + at);
        }
    }

    /** A NaN in A's row 3 makes C's row 3 NaN; +Inf in row 40 makes it infinite, NaN where it meets a zero of B. */
    static void assertNonFiniteReachTheirOutputs(VulkanBackend b, DotKernels.Gemm g) {
        int m = 70, k = 36, n = 72;
        float[] a = random(m * k, 5), bb = random(k * n, 6);
        a[3 * k + 7] = Float.NaN;                // row 3 of C: NaN
        a[40 * k + 2] = Float.POSITIVE_INFINITY; // row 40: ±Inf or NaN where B's row 2 is 0
        bb[2 * n + 5] = 0f;                      // ... C[40,5] = Inf·0 + ... = NaN
        float[] c = run(b, g, a, bb, 1, m, n, k);
        String name = g.name();
        for (int j = 0; j < n; j++) org.junit.jupiter.api.Assertions.assertTrue(Float.isNaN(c[3 * n + j]), name + ": C[3," + j + "] = " + c[3 * n + j]);
        org.junit.jupiter.api.Assertions.assertTrue(Float.isNaN(c[40 * n + 5]), name + ": C[40,5]");
        for (int j = 0; j < n; j++) {
            if (j != 5) org.junit.jupiter.api.Assertions.assertTrue(Float.isInfinite(c[40 * n + j]), name + ": C[40," + j + "] = " + c[40 * n + j]);
        }
        org.junit.jupiter.api.Assertions.assertFalse(Float.isNaN(c[4 * n]) || Float.isInfinite(c[4 * n]), name + ": C[4,0] stays finite");
    }
}
