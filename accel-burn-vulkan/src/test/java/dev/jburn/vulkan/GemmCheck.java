package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;

/**
 * {@link VulkanBench}'s correctness check of one GEMM dtype: the vulkan engine's {@code dot} against the
 * cpu engine's f32 {@code dot} of the same (exactly widened) inputs, on shapes that exercise the tiles'
 * edges and on {@code n×n·n×n}; prints the kernel each shape ran and the largest error. The bound is one
 * rounding to the dtype plus a small absolute term for f32 accumulation in another order.
 */
final class GemmCheck {
    private GemmCheck() {}

    /** Prints one line per shape; true when every element is within the bound and nothing fell back. */
    static boolean run(Engine vk, DType t, int n) {
        VulkanBackend b = (VulkanBackend) vk.backend();
        Engine cpu = Engine.select("cpu");
        double rel = switch (t) {
            case F16 -> 0x1p-10;
            case BF16 -> 0x1p-7;
            default -> 1e-5;
        };
        boolean ok = true;
        // n^3 only where the device runs it: the cpu engine's fallback at 4096 would take minutes.
        int[][] shapes = b.dots.supports(t) ? new int[][] {{1, 1, 1}, {17, 33, 65}, {129, 40, 136}, {n, n, n}}
                : new int[][] {{1, 1, 1}, {17, 33, 65}, {129, 40, 136}};
        for (int[] s : shapes) {
            int m = s[0], k = s[1], cols = s[2];
            try (Tensor a = random(t, m, k, 11); Tensor c = random(t, k, cols, 12);
                 Tensor av = a.to(vk); Tensor cv = c.to(vk);
                 Tensor a32 = a.asType(DType.F32); Tensor c32 = c.asType(DType.F32)) {
                String path = b.dots.supports(t) ? b.dots.gemm(t, k, cols).name() : "cpu fallback";
                long fallbacks = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum();
                float[] got, want;
                try (Tensor r = av.dot(cv)) {
                    got = r.toFloatArray();
                }
                boolean fellBack = vk.fallbackCounts().values().stream().mapToLong(Long::longValue).sum() != fallbacks;
                try (Tensor r = a32.to(cpu).dot(c32.to(cpu))) {
                    want = r.toFloatArray();
                }
                double maxErr = 0, worst = 0;
                for (int i = 0; i < want.length; i++) {
                    double err = Math.abs(got[i] - want[i]);
                    maxErr = Math.max(maxErr, err);
                    worst = Math.max(worst, err / (rel * Math.abs(want[i]) + 1e-3 * Math.sqrt(k)));
                }
                boolean pass = worst <= 1 && got.length == want.length && (!fellBack || !b.dots.supports(t));
                ok &= pass;
                System.out.printf("check %s %dx%dx%d [%s]%s: max abs error %.3g, %.2f of the bound: %s%n", t.shortName(), m, k, cols, path,
                        fellBack ? " (fell back)" : "", maxErr, worst, pass ? "ok" : "FAILED");
            }
        }
        return ok;
    }

    /** A cpu tensor of pseudo-random values in [-1, 1) rounded to {@code t}. */
    static Tensor random(DType t, int rows, int cols, int seed) {
        try (Tensor f = Tensor.of(values(rows * cols, seed)).to(Engine.select("cpu")); Tensor r = f.reshape(rows, cols)) {
            return r.asType(t);
        }
    }

    /** {@code size} pseudo-random values in [-1, 1) (xorshift), the same for the same seed. */
    static float[] values(int size, int seed) {
        float[] v = new float[size];
        long s = 0x9E3779B97F4A7C15L * seed;
        for (int i = 0; i < v.length; i++) {
            s ^= s << 13;
            s ^= s >>> 7;
            s ^= s << 17;
            v[i] = (s >>> 40) / (float) (1 << 23) - 1f;
        }
        return v;
    }
}
