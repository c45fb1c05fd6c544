package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * The small CNN's five channels-last convs of a training step at batch 128 ({@link ChannelsLastConvF32}), timed alone:
 * median wall time of {@code reps} calls after a warm-up, and GFLOP/s, on 1 thread and on every core. Not a test:
 * a quick loop for kernel work (the peer comparison is {@code bench/peers.sh --only cnn}).
 * <pre>{@code
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED [-Donly="conv2 forward.*"] [-Dthreads=2,1] -cp <test classpath> dev.jburn.reference.ConvTileTiming [reps]
 * }</pre>
 */
public final class ConvTileTiming {
    private ConvTileTiming() {}

    private static MemorySegment floats(Random rnd, long n) {
        MemorySegment s = Arena.global().allocate(n * 4, 64);
        for (long i = 0; i < n; i++) s.setAtIndex(ValueLayout.JAVA_FLOAT, i, rnd.nextFloat() * 2 - 1);
        return s;
    }

    private static ConvSpec valid(int pad) {
        return new ConvSpec(new int[] {1, 1}, new int[] {pad, pad}, new int[] {pad, pad}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
    }

    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Random rnd = new Random(1);
        int n = 128;
        MemorySegment x1 = floats(rnd, n * 28 * 28), k1 = floats(rnd, 32 * 9), g1 = floats(rnd, n * 26 * 26 * 32);
        MemorySegment x2 = floats(rnd, n * 13 * 13 * 32), k2 = floats(rnd, 64 * 32 * 9), g2 = floats(rnd, n * 11 * 11 * 64);
        MemorySegment k2t = floats(rnd, 32 * 64 * 9), b2 = floats(rnd, 64), b1 = floats(rnd, 32);
        MemorySegment xc = floats(rnd, n * 32 * 32 * 3), kc = floats(rnd, 32 * 3 * 9);
        if (System.getProperty("dump") != null) { // a training step's own conv 2 input cotangent operands
            try {
                g2 = Arena.global().allocate(n * 11 * 11 * 64 * 4, 64).copyFrom(MemorySegment.ofArray(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(System.getProperty("dump") + ".g"))));
                k2t = Arena.global().allocate(32 * 64 * 9 * 4, 64).copyFrom(MemorySegment.ofArray(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(System.getProperty("dump") + ".k"))));
            } catch (java.io.IOException e) { throw new RuntimeException(e); }
        }
        final MemorySegment g2f = g2, k2f = k2t;
        // The peer bench's ResNet-like 3x3 conv, NCHW [8,64,56,56] * OIHW [64,64,3,3], stride 1, pad 1 (DirectConvF32).
        MemorySegment xr = floats(rnd, 8L * 64 * 56 * 56), kr = floats(rnd, 64L * 64 * 9);
        ConvGeometry resnet = new ConvGeometry(Shape.of(8, 64, 56, 56), Shape.of(64, 64, 3, 3), valid(1));
        MemorySegment gr = floats(rnd, 8L * 64 * 56 * 56);
        ConvGeometry resnetDk = new ConvGeometry(Shape.of(64, 8, 56, 56), Shape.of(64, 8, 56, 56), valid(1));
        // -Dthreads=2,1: the thread counts in that order (default: 1, then every core)
        int[] counts = System.getProperty("threads") == null ? new int[] {1, Runtime.getRuntime().availableProcessors()}
                : java.util.Arrays.stream(System.getProperty("threads").split(",")).mapToInt(Integer::parseInt).toArray();
        for (int threads : counts) {
            Parallel p = new Parallel(threads, 1 << 15);
            time("resnet forward", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> {
                HostBuffer y = HostBuffer.uninitialized(resnet.outSize() * Float.BYTES);
                DirectConvF32.run(resnet, xr, kr, y.segment(), p);
                return y;
            });
            for (int m : new int[] {2, 4}) { // either Winograd form alone (F(4x4): AVX2 only)
                if (m == 4 && !WinogradConvF32.F4) continue;
                time("resnet forward winograd" + m + "x" + m, threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> {
                    HostBuffer y = HostBuffer.uninitialized(resnet.outSize() * Float.BYTES);
                    if (!WinogradConvF32.run(resnet, xr, kr, y.segment(), p, m)) throw new IllegalStateException("declined");
                    return y;
                });
            }
            time("resnet forward direct", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> { // without Winograd's first try
                HostBuffer y = HostBuffer.uninitialized(resnet.outSize() * Float.BYTES);
                DirectConvF32.run(resnet, xr, kr, y.segment(), p, DirectConvF32.LANES);
                return y;
            });
            time("resnet forward positions in lanes", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> {
                HostBuffer y = HostBuffer.uninitialized(resnet.outSize() * Float.BYTES);
                DirectConvF32.run(resnet, xr, kr, y.segment(), p, false);
                return y;
            });
            time("resnet dk", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> { // autodiff's conv for the kernel cotangent
                HostBuffer y = HostBuffer.uninitialized(resnetDk.outSize() * Float.BYTES);
                if (!KernelCotangentConvF32.run(resnetDk, xr, gr, y.segment(), p)) throw new IllegalStateException("declined");
                return y;
            });
            time("resnet dk from NCHW", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> { // as CanonicalKernelCotangents runs it
                HostBuffer y = HostBuffer.uninitialized(resnetDk.outSize() * Float.BYTES);
                if (!KernelCotangentConvF32.run(resnetDk, xr, gr, y.segment(), p, true)) throw new IllegalStateException("declined");
                return y;
            });
            time("resnet dk operand copy", threads, reps, 0, () -> // one of the two NCHW -> channels-last copies it makes
                    KernelCotangentConvF32.channelsLast(xr, 64, 8, 56 * 56, true, p));
            time("resnet dk channels-last", threads, reps, 2.0 * 8 * 64 * 56 * 56 * 64 * 9, () -> ChannelsLastConvF32.kernelGradient(
                    xr, Shape.of(8, 56, 56, 64), gr, Shape.of(8, 56, 56, 64), valid(1), p));
            time("conv1 forward", threads, reps, 2.0 * n * 26 * 26 * 32 * 9,
                    () -> ChannelsLastConvF32.forward(x1, Shape.of(n, 28, 28, 1), k1, Shape.of(32, 1, 3, 3), null, false, false, valid(0), p));
            time("conv1 forward bias", threads, reps, 2.0 * n * 26 * 26 * 32 * 9, // as the peer bench's row (6-row tiles)
                    () -> ChannelsLastConvF32.forward(x1, Shape.of(n, 28, 28, 1), k1, Shape.of(32, 1, 3, 3), b1, false, false, valid(0), p));
            time("conv1 forward few channels", threads, reps, 2.0 * n * 26 * 26 * 32 * 9, // the Jit path's on AVX2
                    () -> ChannelsLastFewChannelsF32.forward(x1, Shape.of(n, 28, 28, 1), k1, Shape.of(32, 1, 3, 3), b1, false, false, valid(0), p));
            time("conv1 forward few channels relu", threads, reps, 2.0 * n * 26 * 26 * 32 * 9, // the training step's (nn layers' ReLU)
                    () -> ChannelsLastFewChannelsF32.forward(x1, Shape.of(n, 28, 28, 1), k1, Shape.of(32, 1, 3, 3), b1, true, false, valid(0), p));
            time("conv1 forward few channels mask", threads, reps, 2.0 * n * 26 * 26 * 32 * 9,
                    () -> ChannelsLastFewChannelsF32.forward(x1, Shape.of(n, 28, 28, 1), k1, Shape.of(32, 1, 3, 3), b1, true, true, valid(0), p));
            // a CIFAR-like first layer, 3 channels: what MAX_CHANNELS of the few-channel form rests on
            time("rgb forward bias", threads, reps, 2.0 * n * 32 * 32 * 32 * 27,
                    () -> ChannelsLastConvF32.forward(xc, Shape.of(n, 32, 32, 3), kc, Shape.of(32, 3, 3, 3), b1, false, false, valid(1), p));
            time("rgb forward few channels", threads, reps, 2.0 * n * 32 * 32 * 32 * 27,
                    () -> ChannelsLastFewChannelsF32.forward(xc, Shape.of(n, 32, 32, 3), kc, Shape.of(32, 3, 3, 3), b1, false, false, valid(1), p));
            time("conv1 dk", threads, reps, 2.0 * n * 26 * 26 * 32 * 9,
                    () -> ChannelsLastConvF32.kernelGradient(x1, Shape.of(n, 28, 28, 1), g1, Shape.of(n, 26, 26, 32), valid(0), p));
            time("conv2 forward", threads, reps, 2.0 * n * 11 * 11 * 64 * 288,
                    () -> ChannelsLastConvF32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3), null, false, false, valid(0), p));
            time("conv2 forward 6-row tiles", threads, reps, 2.0 * n * 11 * 11 * 64 * 288,
                    () -> ChannelsLastConvF32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3), null, false, false, valid(0), p,
                            true, ChannelsLastConvF32.CHUNK_BYTES, true, false));
            time("conv2 forward bias relu", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, // as the training step's
                    () -> ChannelsLastConvF32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3), b2, true, false, valid(0), p));
            time("conv2 dx", threads, reps, 2.0 * n * 11 * 11 * 64 * 288,
                    () -> ChannelsLastConvF32.forward(g2f, Shape.of(n, 11, 11, 64), k2f, Shape.of(32, 64, 3, 3), null, false, false, valid(2), p));
            time("conv2 forward winograd", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, // as the Jit path runs it first
                    () -> ChannelsLastWinogradF32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3), b2, false, false, valid(0), p));
            time("conv2 dx winograd", threads, reps, 2.0 * n * 11 * 11 * 64 * 288,
                    () -> ChannelsLastWinogradF32.forward(g2f, Shape.of(n, 11, 11, 64), k2f, Shape.of(32, 64, 3, 3), null, false, false, valid(2), p));
            time("conv2 dx winograd4x4", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, () -> { // AVX2 only in the Jit path
                java.util.List<dev.jburn.spi.Buffer> r = ChannelsLastWinograd4x4F32.forward(g2f, Shape.of(n, 11, 11, 64), k2f, Shape.of(32, 64, 3, 3),
                        null, false, false, valid(2), p);
                if (r == null) throw new IllegalStateException("declined");
                return r;
            });
            time("conv2 forward winograd mask", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, // the training step's F(2x2) (16-lane path)
                    () -> ChannelsLastWinogradF32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3), b2, true, true, valid(0), p));
            time("conv2 forward winograd4x4 mask", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, () -> { // the training step's, AVX2 only
                java.util.List<dev.jburn.spi.Buffer> r = ChannelsLastWinograd4x4F32.forward(x2, Shape.of(n, 13, 13, 32), k2, Shape.of(64, 32, 3, 3),
                        b2, true, true, valid(0), p);
                if (r == null) throw new IllegalStateException("declined");
                return r;
            });
            time("conv2 dk winograd", threads, reps, 2.0 * n * 11 * 11 * 64 * 288, () -> { // AVX2 only
                HostBuffer r = ChannelsLastWinogradKernelCotangentF32.kernelGradient(x2, Shape.of(n, 13, 13, 32), g2f, Shape.of(n, 11, 11, 64), valid(0), p);
                if (r == null) throw new IllegalStateException("declined");
                return r;
            });
            time("conv2 dk", threads, reps, 2.0 * n * 11 * 11 * 64 * 288,
                    () -> ChannelsLastConvF32.kernelGradient(x2, Shape.of(n, 13, 13, 32), g2f, Shape.of(n, 11, 11, 64), valid(0), p));
        }
    }

    /** With {@code -Dcold=true}, each timed call starts after 64 MiB of other data went through the caches, as in a training step. */
    private static final float[] FLUSH = Boolean.getBoolean("cold") ? new float[16 << 20] : null;

    private static void flush() {
        if (FLUSH == null) return;
        for (int i = 0; i < FLUSH.length; i += 16) FLUSH[i] += 1f;
    }

    /** With {@code -Donly=<regex>}, only the convs whose name matches it (e.g. {@code -Donly="conv2 forward.*"}). */
    private static final String ONLY = System.getProperty("only", "");

    private static void time(String name, int threads, int reps, double flops, java.util.function.Supplier<Object> call) {
        if (!ONLY.isEmpty() && !name.matches(ONLY)) return;
        long end = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < end) release(call.get());
        long[] t = new long[reps];
        for (int i = 0; i < reps; i++) {
            flush();
            long t0 = System.nanoTime();
            Object r = call.get();
            t[i] = System.nanoTime() - t0;
            release(r);
        }
        java.util.Arrays.sort(t);
        double ms = t[reps / 2] / 1e6;
        System.out.printf("%-14s threads %d: %7.3f ms (best %7.3f), %6.1f GFLOP/s%n", name, threads, ms, t[0] / 1e6, flops / ms / 1e6);
    }

    private static void release(Object r) {
        if (r instanceof java.util.List<?> l) for (Object b : l) ((dev.jburn.spi.Buffer) b).release();
        else if (r instanceof dev.jburn.spi.Buffer b) b.release();
    }
}
