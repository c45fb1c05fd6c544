package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The F32 GEMMs of the small CNN's training step whose output has few tiles (the dense layer's forward product and
 * kernel cotangent, the convs' kernel cotangents as im2col GEMMs) with cuBLAS alone and split into contraction slices
 * ({@link SplitK}), in one JVM: median µs per call ({@link GpuTiming}) for each slice count that divides the
 * contraction, the heuristic's choice marked, each result compared with the unsplit one.
 *
 * <p>Usage on the GPU machine: {@code java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp ...
 * dev.jburn.cuda.SplitKBench}.
 */
public final class SplitKBench {
    private SplitKBench() {}

    /** A product {@code [m, k]·[k, n]}, A stored transposed ({@code [k, m]}) where {@code aT}. */
    private record Product(String name, long m, long n, long k, boolean aT) {}

    public static void main(String[] args) {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        int sms = b.device().multiprocessors;
        System.out.println("device: " + b.device().name + ", " + sms + " multiprocessors");
        Product[] products = {
                new Product("dense forward, batch 1024", 1024, 128, 1600, false),
                new Product("dense forward, batch 512", 512, 128, 1600, false),
                new Product("dense kernel cotangent, batch 1024", 1600, 128, 1024, true),
                new Product("dense 2 forward, batch 1024", 1024, 10, 128, false),
                new Product("conv 2 kernel cotangent, batch 1024", 288, 64, 1024L * 11 * 11, true),
                new Product("conv 1 kernel cotangent, batch 1024", 9, 32, 1024L * 26 * 26, true)};
        for (Product p : products) {
            Shape as = p.aT ? Shape.of(p.k, p.m) : Shape.of(p.m, p.k), bs = Shape.of(p.k, p.n);
            Operand a = GpuTiming.random(b, as, 1), bb = GpuTiming.random(b, bs, 2);
            int[] contractA = {p.aT ? 0 : 1};
            Supplier<Buffer> call = () -> b.dot(a, contractA, new int[0], bb, new int[] {0}, new int[0], DType.F32);
            int chosen = SplitK.slices(p.m, p.n, p.k, sms);
            b.splitKSlices = 1;
            Buffer whole = call.get();
            double t1 = GpuTiming.median(b, call);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-38s [%d,%d]x[%d,%d]: 1 slice %.1f us", p.name, p.m, p.k, p.k, p.n, t1));
            for (int s = 2; s <= SplitK.MAX_SLICES; s++) {
                if (p.k % s != 0 || p.k / s < 64) continue;
                b.splitKSlices = s;
                Buffer split = call.get();
                double[] diff = GpuTiming.difference(b, whole, split, p.m * p.n);
                split.release();
                double t = GpuTiming.median(b, call);
                line.append(String.format(Locale.ROOT, ", %d%s %.1f%s", s, s == chosen ? "*" : "", t, diff[0] <= 1e-4 * diff[1] ? "" : " (DIFFERS)"));
            }
            b.splitKSlices = -1;
            whole.release();
            System.out.println(line.append(" (heuristic: ").append(chosen).append(")"));
            a.buffer().release();
            bb.buffer().release();
        }
        System.out.println("fallbacks: " + gpu.fallbackCounts());
    }
}
