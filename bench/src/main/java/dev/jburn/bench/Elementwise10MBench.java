package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/** Element-wise ops on 10M f32 (both cores), against plain Java loops over float arrays. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class Elementwise10MBench {
    static final int N = 10_000_000;
    Tensor a, b;
    float[] x, y, out;

    @Setup
    public void setup() {
        Tensor key = Prng.key(7);
        a = Prng.uniformSplit(key, Shape.of(N), DType.F32, -1, 1);
        b = Prng.uniformSplit(Prng.foldIn(key, 1), Shape.of(N), DType.F32, 0.5, 2);
        x = a.toFloatArray();
        y = b.toFloatArray();
        out = new float[N];
    }

    @Benchmark
    public long jburnAdd() {
        try (Tensor c = a.add(b)) { return c.size(); }
    }

    @Benchmark
    public long jburnMultiply() {
        try (Tensor c = a.multiply(b)) { return c.size(); }
    }

    @Benchmark
    public long jburnExp() {
        try (Tensor c = a.exp()) { return c.size(); }
    }

    @Benchmark
    public float[] javaLoopAdd() {
        for (int i = 0; i < N; i++) out[i] = x[i] + y[i];
        return out;
    }

    @Benchmark
    public float[] javaLoopMultiply() {
        for (int i = 0; i < N; i++) out[i] = x[i] * y[i];
        return out;
    }

    @Benchmark
    public float[] javaLoopExp() {
        for (int i = 0; i < N; i++) out[i] = (float) Math.exp(x[i]);
        return out;
    }
}
