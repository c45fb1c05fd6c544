package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The small CNN's conv2 input cotangent ({@code [N,11,11,64]} cotangent by the reversed, transposed 3×3 kernel
 * {@code [32,64,3,3]}, full padding 2, into {@code [N,13,13,32]}) on the GPU both ways in one JVM: im2col gather + GEMM
 * and GEMM + col2im ({@link ChannelsLastConvs.Path}), at batch 128 and 1024. The two results are compared within a float
 * tolerance (their sums run in different orders; TF32 GEMMs, {@code -Djburn.cuda.tf32=true}, get a wider one). Median
 * µs per call of back-to-back calls, synchronized once per sample, as {@link WindowBench}. One line per batch size.
 *
 * <p>Usage on the GPU machine: {@code java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp ...
 * dev.jburn.cuda.Col2imBench [batch...]}.
 */
public final class Col2imBench {
    private Col2imBench() {}

    public static void main(String[] args) {
        Engine gpu = Engine.select("cuda");
        CudaBackend b = (CudaBackend) gpu.backend();
        ChannelsLastConvs convs = new ChannelsLastConvs(b);
        int[] batches = args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray() : new int[] {128, 1024};
        ConvSpec spec = new ConvSpec(new int[] {1, 1}, new int[] {2, 2}, new int[] {2, 2}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        boolean tf32 = b.config().tf32();
        for (int n : batches) {
            Shape gs = Shape.of(n, 11, 11, 64), ws = Shape.of(32, 64, 3, 3), out = Shape.of(n, 13, 13, 32);
            ChannelsLastConvs.Path chosen = ChannelsLastConvs.path(new ChannelsLastConvs.Plan(Kind.FORWARD, spec, DType.F32), gs, ws, out, true);
            Operand g = GpuTiming.random(b, gs, 1), w = GpuTiming.random(b, ws, 2);
            Buffer old = convs.forward(g, w, spec, out, ChannelsLastConvs.Path.IM2COL);
            Buffer neu = convs.forward(g, w, spec, out, ChannelsLastConvs.Path.COL2IM);
            double[] diff = GpuTiming.difference(b, old, neu, out.size());
            old.release();
            neu.release();
            // F32 sums of 576 products in two orders differ by a few ulps of the largest; TF32 keeps 10 mantissa bits
            boolean agree = diff[0] <= (tf32 ? 2e-3 : 1e-5) * diff[1];
            double tOld = GpuTiming.median(b, () -> convs.forward(g, w, spec, out, ChannelsLastConvs.Path.IM2COL));
            double tNew = GpuTiming.median(b, () -> convs.forward(g, w, spec, out, ChannelsLastConvs.Path.COL2IM));
            System.out.printf(Locale.ROOT, "conv2 input cotangent %s -> %s%s: im2col+GEMM %.1f us, GEMM+col2im %.1f us (%.2fx), planner picks %s, "
                            + "results agree: %s (max |diff| %.3g, max |y| %.3g)%n",
                    gs, out, tf32 ? " tf32" : "", tOld, tNew, tOld / tNew, chosen, agree, diff[0], diff[1]);
            g.buffer().release();
            w.buffer().release();
        }
        System.out.println("fallbacks: " + gpu.fallbackCounts());
    }
}
