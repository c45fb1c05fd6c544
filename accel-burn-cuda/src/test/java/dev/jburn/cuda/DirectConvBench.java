package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The small CNN's conv 1 ({@code [N,28,28,1]} by a 3×3 kernel into 32 channels, no padding) on the GPU both ways in one
 * JVM: the forward conv and its kernel cotangent as direct kernels ({@link ChannelsLastDirectConv}) and as an im2col
 * gather plus a cuBLAS GEMM; and conv 2's forward ({@code [N,13,13,32]} into 64 channels: depth 288, in depth chunks)
 * and input cotangent (depth 576; also GEMM + col2im, the engine's path for it). The two results are compared within a float tolerance (their sums run in different
 * orders). Median µs per call of back-to-back calls, synchronized once per sample ({@link GpuTiming}), so the numbers
 * hold no per-node synchronization (a synced node profile adds ~25-40 µs to each node).
 *
 * <p>Usage on the GPU machine: {@code java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp ...
 * dev.jburn.cuda.DirectConvBench [batch...]}.
 */
public final class DirectConvBench {
    private DirectConvBench() {}

    public static void main(String[] args) {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        ChannelsLastConvs convs = new ChannelsLastConvs(b);
        int[] batches = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[] {128, 1024};
        int[] one = {1, 1}, zero = {0, 0};
        ConvSpec spec = new ConvSpec(one, zero, zero, one, one, 1, 1);
        for (int n : batches) {
            Shape xs = Shape.of(n, 28, 28, 1), ws = Shape.of(32, 1, 3, 3), out = Shape.of(n, 26, 26, 32), ks = Shape.of(3, 3, 1, 32);
            Operand x = GpuTiming.random(b, xs, 1), w = GpuTiming.random(b, ws, 2), g = GpuTiming.random(b, out, 3);
            Supplier<Buffer> forward = () -> convs.forward(x, w, spec, out, ChannelsLastConvs.Path.IM2COL);
            Supplier<Buffer> kernel = () -> convs.kernelGradient(x, g, spec, ks);
            row(b, convs, "conv 1 forward " + xs + " -> " + out, forward, out.size());
            row(b, convs, "conv 1 kernel cotangent -> " + ks, kernel, ks.size());
            x.buffer().release();
            w.buffer().release();
            g.buffer().release();
            // conv 2 forward (depth 288: the direct kernel in 9 depth chunks, past the engine's default depth)
            Shape x2s = Shape.of(n, 13, 13, 32), w2s = Shape.of(64, 32, 3, 3), out2 = Shape.of(n, 11, 11, 64);
            Operand x2 = GpuTiming.random(b, x2s, 4), w2 = GpuTiming.random(b, w2s, 5);
            convs.directForwardDepth = 288;
            row(b, convs, "conv 2 forward " + x2s + " -> " + out2, () -> convs.forward(x2, w2, spec, out2, ChannelsLastConvs.Path.IM2COL), out2.size());
            // conv 2 input cotangent (depth 576; the engine's default path is GEMM + col2im, timed alone after the row)
            ConvSpec full = new ConvSpec(one, new int[] {2, 2}, new int[] {2, 2}, one, one, 1, 1);
            Shape gs = Shape.of(n, 11, 11, 64), wts = Shape.of(32, 64, 3, 3);
            Operand g2 = GpuTiming.random(b, gs, 6), wt2 = GpuTiming.random(b, wts, 7);
            convs.directForwardDepth = 576;
            row(b, convs, "conv 2 input cotangent " + gs + " -> " + x2s, () -> convs.forward(g2, wt2, full, x2s, ChannelsLastConvs.Path.IM2COL), x2s.size());
            System.out.printf(Locale.ROOT, "  (GEMM + col2im: %.1f us)%n", GpuTiming.median(b, () -> convs.forward(g2, wt2, full, x2s, ChannelsLastConvs.Path.COL2IM)));
            convs.directForwardDepth = ChannelsLastDirectConv.MAX_FORWARD_DEPTH;
            x2.buffer().release();
            w2.buffer().release();
            g2.buffer().release();
            wt2.buffer().release();
        }
        System.out.println("direct runs: forward " + convs.directForwardRuns + ", kernel cotangent " + convs.directGradientRuns
                + "; fallbacks: " + gpu.fallbackCounts());
    }

    /** One line: the call with the direct kernels off and on, their times and whether the results agree. */
    private static void row(CudaBackend b, ChannelsLastConvs convs, String name, Supplier<Buffer> call, long n) {
        convs.directOverride = false;
        Buffer gemm = call.get();
        double tGemm = GpuTiming.median(b, call);
        convs.directOverride = true;
        Buffer direct = call.get();
        double tDirect = GpuTiming.median(b, call);
        convs.directOverride = null;
        double[] diff = GpuTiming.difference(b, gemm, direct, n);
        gemm.release();
        direct.release();
        System.out.printf(Locale.ROOT, "%s: im2col+GEMM %.1f us, direct %.1f us (%.2fx), results agree: %s (max |diff| %.3g, max |y| %.3g)%n",
                name, tGemm, tDirect, tGemm / tDirect, diff[0] <= 1e-5 * diff[1], diff[0], diff[1]);
    }
}
