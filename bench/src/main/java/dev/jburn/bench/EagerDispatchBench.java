package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * Eager dispatch overhead: {@code add} of two 4K-element f32 tensors (goal: ≤ 0.4 µs per op),
 * beside a plain Java loop that allocates its output the same way.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class EagerDispatchBench {
    static final int N = 4096;
    Tensor a, b;
    float[] x, y;

    @Setup
    public void setup() {
        a = Tensor.iota(Shape.of(N), DType.F32);
        b = Tensor.iota(Shape.of(N), DType.F32);
        x = a.toFloatArray();
        y = b.toFloatArray();
    }

    /** One eager add, result freed at once (as a scope would). */
    @Benchmark
    public float jburnAdd4k() {
        try (Tensor c = a.add(b)) {
            return c.size();
        }
    }

    /** The same work as a plain Java loop into a fresh array. */
    @Benchmark
    public float[] javaLoopAdd4k() {
        float[] out = new float[N];
        for (int i = 0; i < N; i++) out[i] = x[i] + y[i];
        return out;
    }
}
