package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/** Full reductions of 10M f32, against plain Java loops (which the JIT cannot vectorize for floats). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class Reduction10MBench {
    static final int N = 10_000_000;
    Tensor a, m;
    float[] x;

    @Setup
    public void setup() {
        a = Prng.uniformSplit(Prng.key(3), Shape.of(N), DType.F32, -1, 1);
        m = a.reshape(10_000, 1000);
        x = a.toFloatArray();
    }

    @Benchmark
    public Number jburnSum() {
        try (Tensor s = a.sum()) { return s.item(); }
    }

    @Benchmark
    public Number jburnMax() {
        try (Tensor s = a.max()) { return s.item(); }
    }

    /** Row sums of a 10000×1000 matrix (innermost-axis reduction). */
    @Benchmark
    public long jburnRowSums() {
        try (Tensor s = m.sum(new int[] {1})) { return s.size(); }
    }

    @Benchmark
    public float javaLoopSum() {
        float s = 0;
        for (int i = 0; i < N; i++) s += x[i];
        return s;
    }

    @Benchmark
    public float javaLoopMax() {
        float s = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < N; i++) s = Math.max(s, x[i]);
        return s;
    }
}
