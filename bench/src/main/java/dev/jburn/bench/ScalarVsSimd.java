package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.bench.peer.Plan;
import dev.jburn.bench.peer.TimedCase;
import dev.jburn.bench.peer.Timing;
import dev.jburn.spi.EngineConfig;
import dev.jburn.spi.EngineProvider;

import java.util.function.Function;

/**
 * What the cpu engine's SIMD kernels gain over its scalar kernels (what it runs without
 * {@code --add-modules jdk.incubator.vector}): the same inputs, in one JVM, on two engines that differ
 * only in {@link EngineConfig#vectorKernels()}. Run with {@code bench/scalar-vs-simd.sh}; the ratio is
 * what the cpu engine's log line quotes.
 */
public final class ScalarVsSimd {
    private ScalarVsSimd() {}

    private record Workload(String name, Shape shape, int operands, Function<Tensor[], Tensor> op) {}

    public static void main(String[] args) {
        Plan plan = Plan.single(5, 2, 0.2);
        EngineProvider cpu = java.util.ServiceLoader.load(EngineProvider.class).stream().map(java.util.ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("cpu")).findFirst().orElseThrow();
        Engine simd = Engine.create(cpu, EngineConfig.defaults());
        Engine scalar = Engine.create(cpu, EngineConfig.defaults().withVectorKernels(false));
        Workload[] workloads = {
            new Workload("gemm f32 [512,512]·[512,512]", Shape.of(512, 512), 2, t -> t[0].dot(t[1])),
            new Workload("a * b + c, f32 [4M]", Shape.of(1 << 22), 3, t -> t[0].multiply(t[1]).add(t[2])),
            new Workload("exp, f32 [4M]", Shape.of(1 << 22), 1, t -> t[0].exp()),
            new Workload("sum, f32 [4M]", Shape.of(1 << 22), 1, t -> t[0].sum()),
        };
        System.out.printf("%-32s %12s %12s %8s%n", "workload", "SIMD (ms)", "scalar (ms)", "ratio");
        for (Workload w : workloads) {
            double fast = time(w, simd, plan), slow = time(w, scalar, plan);
            System.out.printf("%-32s %12.3f %12.3f %7.1fx%n", w.name(), fast * 1e3, slow * 1e3, slow / fast);
        }
        simd.backend().close();
        scalar.backend().close();
    }

    private static double time(Workload w, Engine engine, Plan plan) {
        Tensor[] in = new Tensor[w.operands()];
        for (int i = 0; i < in.length; i++) {
            in[i] = Prng.uniform(Prng.key(i), w.shape(), DType.F32, -1, 1).values().to(engine);
        }
        try (TimedCase<Tensor> c = TimedCase.of(() -> w.op().apply(in), r -> "ok", Tensor::close, in)) {
            return Timing.measure(c, plan).medianSeconds();
        }
    }
}
