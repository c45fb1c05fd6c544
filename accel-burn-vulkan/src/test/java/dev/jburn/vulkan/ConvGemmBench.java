package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.graph.ChannelsLastConvGroups.Kind;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.spi.ConvSpec;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Device time of each convolution of {@code jburn train --model cnn}'s step at batch 128 as the implicit GEMM runs it
 * ({@link ConvKernels#implicitGemm}) in the layouts the step uses (channels-last groups, {@link ChannelsLastConvs})
 * and in each {@link ConvGemmShader.Order}: one conv per submission, GPU timestamps, mean of {@code --runs} after
 * {@code --warmup}.
 *
 * <pre>
 * java ... dev.jburn.vulkan.ConvGemmBench [--batch 128] [--runs 200] [--warmup 20]
 * </pre>
 */
public final class ConvGemmBench {
    private ConvGemmBench() {}

    record Conv(String name, Kind kind, Shape x, Shape other, Shape out, Shape convInput, Shape convKernel, ConvSpec spec) {}

    public static void main(String[] args) {
        int batch = 128, runs = 200, warmup = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        int n = batch;
        int[] one = {1, 1}, zero = {0, 0}, two = {2, 2};
        ConvSpec valid = new ConvSpec(one, zero, zero, one, one, 1, 1), full = new ConvSpec(one, two, two, one, one, 1, 1);
        List<Conv> convs = List.of(
                new Conv("conv 1 forward", Kind.FORWARD, Shape.of(n, 28, 28, 1), Shape.of(32, 1, 3, 3), Shape.of(n, 26, 26, 32),
                        Shape.of(n, 1, 28, 28), Shape.of(32, 1, 3, 3), valid),
                new Conv("conv 1 kernel cotangent", Kind.KERNEL_GRADIENT, Shape.of(n, 28, 28, 1), Shape.of(n, 26, 26, 32), Shape.of(3, 3, 1, 32),
                        Shape.of(1, n, 28, 28), Shape.of(32, n, 26, 26), valid),
                new Conv("conv 2 forward", Kind.FORWARD, Shape.of(n, 13, 13, 32), Shape.of(64, 32, 3, 3), Shape.of(n, 11, 11, 64),
                        Shape.of(n, 32, 13, 13), Shape.of(64, 32, 3, 3), valid),
                new Conv("conv 2 input cotangent", Kind.FORWARD, Shape.of(n, 11, 11, 64), Shape.of(32, 64, 3, 3), Shape.of(n, 13, 13, 32),
                        Shape.of(n, 64, 11, 11), Shape.of(32, 64, 3, 3), full),
                new Conv("conv 2 kernel cotangent", Kind.KERNEL_GRADIENT, Shape.of(n, 13, 13, 32), Shape.of(n, 11, 11, 64), Shape.of(3, 3, 32, 64),
                        Shape.of(32, n, 13, 13), Shape.of(64, n, 11, 11), valid));
        System.out.println("device: " + b.deviceDescription());
        for (Conv c : convs) {
            DeviceBuffer x = (DeviceBuffer) b.upload(MemorySegment.ofArray(new float[(int) c.x.size()]));
            DeviceBuffer k = (DeviceBuffer) b.upload(MemorySegment.ofArray(new float[(int) c.other.size()]));
            int[] words = DirectConvPlan.params(c.convInput, c.convKernel, c.spec);
            long size = DirectConvPlan.outputSize(words), flops = 2 * size * DirectConvPlan.productsPerOutput(words);
            List<String> cols = new ArrayList<>();
            List<ConvGemmShader.Order> orders = new ArrayList<>(List.of(ConvGemmShader.Order.values()));
            orders.addFirst(null);
            for (ConvGemmShader.Order order : orders) {
                b.convs.orderOverride = order;
                ConvGemmShader.Strides st = ChannelsLastConvs.strides(c.kind, c.x, c.other, c.out);
                for (int i = 0; i < warmup; i++) b.convs.implicitGemm(x, k, words, st, size).release();
                b.synchronize();
                b.measureDeviceTime(true);
                long d0 = b.stats().deviceNanos(), t0 = System.nanoTime();
                for (int i = 0; i < runs; i++) {
                    b.convs.implicitGemm(x, k, words, st, size).release();
                    b.synchronize();
                }
                double dev = (b.stats().deviceNanos() - d0) / 1e3 / runs, wall = (System.nanoTime() - t0) / 1e3 / runs;
                b.measureDeviceTime(false);
                cols.add(String.format("%s %.1f us (%.2f TFLOP/s)", order == null ? "picked" : order.name().toLowerCase(), dev, flops / dev / 1e6));
            }
            b.convs.orderOverride = null;
            System.out.printf("%-24s %s%n", c.name, String.join(", ", cols));
            x.release();
            k.release();
        }
        // the same convolutions in the canonical layout (the front end's own conv, layout moves around it)
        for (Conv c : convs) {
            int[] words = DirectConvPlan.params(c.convInput, c.convKernel, c.spec);
            DeviceBuffer x = (DeviceBuffer) b.upload(MemorySegment.ofArray(new float[(int) c.convInput.size()]));
            DeviceBuffer k = (DeviceBuffer) b.upload(MemorySegment.ofArray(new float[(int) c.convKernel.size()]));
            long size = DirectConvPlan.outputSize(words);
            ConvGemmShader.Strides st = ConvGemmShader.Strides.canonical(words);
            for (int i = 0; i < warmup; i++) b.convs.implicitGemm(x, k, words, st, size).release();
            b.synchronize();
            b.measureDeviceTime(true);
            long d0 = b.stats().deviceNanos();
            for (int i = 0; i < runs; i++) {
                b.convs.implicitGemm(x, k, words, st, size).release();
                b.synchronize();
            }
            System.out.printf("%-24s canonical layout %.1f us%n", c.name, (b.stats().deviceNanos() - d0) / 1e3 / runs);
            b.measureDeviceTime(false);
            x.release();
            k.release();
        }
        System.out.println("fallbacks: " + vk.fallbackCounts());
    }
}
