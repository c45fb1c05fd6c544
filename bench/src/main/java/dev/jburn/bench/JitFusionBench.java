package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import org.openjdk.jmh.annotations.*;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Fused {@code a*b+c} on 10M f32: the compiled function (one fused pass over cache-sized blocks),
 * the same graph compiled without fusion, and eager (two full passes and a 40 MB intermediate).
 * Compare with numpy's {@code a*b+c} run in the same sitting:
 * {@code python3 -c "import numpy as np,timeit; a,b,c=(np.random.rand(10_000_000).astype(np.float32) for _ in range(3)); print(min(timeit.repeat(lambda: a*b+c, number=10, repeat=7))/10*1e3, 'ms')"}.
 *
 * <p>{@link #main} prints the trace + compile time of a 784-256-10 MLP forward step (batch 128).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class JitFusionBench {
    static final int N = 10_000_000;
    Tensor a, b, c;
    CompiledFunction fused, unfused;

    @Setup
    public void setup() {
        Tensor key = Prng.key(7);
        a = Prng.uniformSplit(key, Shape.of(N), DType.F32, -1, 1);
        b = Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(N), DType.F32, -1, 1);
        c = Prng.uniformSplit(Prng.foldIn(key, 2), Shape.of(N), DType.F32, -1, 1);
        fused = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))));
        unfused = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))), JitOptions.defaults().withFusion(false));
    }

    @TearDown
    public void tearDown() {
        a.close();
        b.close();
        c.close();
    }

    @Benchmark
    public long jitFusedMultiplyAdd() {
        try (Tensor r = fused.apply(List.of(a, b, c)).getFirst()) { return r.size(); }
    }

    @Benchmark
    public long jitUnfusedMultiplyAdd() {
        try (Tensor r = unfused.apply(List.of(a, b, c)).getFirst()) { return r.size(); }
    }

    @Benchmark
    public long eagerMultiplyAdd() {
        try (Tensor t = a.multiply(b); Tensor r = t.add(c)) { return r.size(); }
    }

    /**
     * Without arguments: trace + optimize time of an MLP forward step (784-256-10, batch 128),
     * fresh function each time: first, median, min. With {@code fma}: best-of-N times of the
     * three {@code a*b+c} variants, interleaved (comparable with numpy's best-of-N under load).
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("fma")) {
            JitFusionBench bench = new JitFusionBench();
            bench.setup();
            CompiledFunction donating = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))),
                    JitOptions.defaults().withDonation(2));
            double fusedBest = Double.MAX_VALUE, unfusedBest = Double.MAX_VALUE, eagerBest = Double.MAX_VALUE, donatedBest = Double.MAX_VALUE;
            for (int i = 0; i < 40; i++) {
                Tensor c2 = bench.c.add(0.0); // the donated copy of c, made outside the timing
                long d0 = System.nanoTime();
                try (Tensor r = donating.apply(List.of(bench.a, bench.b, c2)).getFirst()) {
                    donatedBest = Math.min(donatedBest, (System.nanoTime() - d0) / 1e6);
                }
                long t0 = System.nanoTime();
                bench.jitFusedMultiplyAdd();
                long t1 = System.nanoTime();
                bench.jitUnfusedMultiplyAdd();
                long t2 = System.nanoTime();
                bench.eagerMultiplyAdd();
                long t3 = System.nanoTime();
                fusedBest = Math.min(fusedBest, (t1 - t0) / 1e6);
                unfusedBest = Math.min(unfusedBest, (t2 - t1) / 1e6);
                eagerBest = Math.min(eagerBest, (t3 - t2) / 1e6);
            }
            System.out.printf(Locale.ROOT, "a*b+c 10M f32, best of 40: jit fused %.2f ms, jit fused into donated c %.2f ms, "
                    + "jit unfused %.2f ms, eager %.2f ms%n", fusedBest, donatedBest, unfusedBest, eagerBest);
            bench.tearDown();
            return;
        }
        Tensor key = Prng.key(3);
        Tensor x = Prng.uniformSplit(key, Shape.of(128, 784), DType.F32, -1, 1);
        Tensor w1 = Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(784, 256), DType.F32, -0.05, 0.05);
        Tensor b1 = Prng.uniformSplit(Prng.foldIn(key, 2), Shape.of(256), DType.F32, -0.05, 0.05);
        Tensor w2 = Prng.uniformSplit(Prng.foldIn(key, 3), Shape.of(256, 10), DType.F32, -0.05, 0.05);
        Tensor b2 = Prng.uniformSplit(Prng.foldIn(key, 4), Shape.of(10), DType.F32, -0.05, 0.05);
        int reps = 30;
        double[] ms = new double[reps];
        String report = "";
        for (int i = 0; i < reps; i++) {
            CompiledFunction f = Jit.compileList(xs -> List.of(
                    xs.get(0).dot(xs.get(1)).add(xs.get(2)).maximum(0.0).dot(xs.get(3)).add(xs.get(4))));
            f.apply(List.of(x, w1, b1, w2, b2)).forEach(Tensor::close);
            ms[i] = f.compileTime().toNanos() / 1e6;
            report = f.passReport().toString();
        }
        double first = ms[0];
        java.util.Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "MLP 784-256-10 forward, trace+compile: first %.1f ms, median %.2f ms, min %.2f ms (%d fresh compiles)%n",
                first, ms[reps / 2], ms[0], reps);
        System.out.println(report);
    }
}
