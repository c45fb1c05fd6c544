package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * f32 matrix multiply {@code a.dot(b)} of two n×n matrices (2n³ flops), and with the right
 * operand transposed (read in place as a strided view). GFLOP/s = 2n³ / time.
 *
 * <p>Measured on the 2-core AVX-512 build machine (Xeon, 2 vCPUs shared with other jobs, so
 * every number moves by ±30% from run to run; its FMA peak measured ~215 GFLOP/s per core):
 * <pre>
 * n       JMH matmul avg (best iteration)   numpy a @ b, best of 8 bursts, right after
 * 256     158 (161) GFLOP/s                 194-201 GFLOP/s
 * 512     190 (197)                         238-242
 * 1024    199 (205)                         288-289
 * 2048    165 (208)                         294
 * </pre>
 * {@code bench/gemm_vs_numpy.py} alternates short bursts of both so they share the load; in
 * its clean rounds JBurn/numpy was 0.78-0.87 (256), 0.76-0.82 (512), 0.86-0.90 (1024) and
 * 0.80-0.84 (2048). Single-threaded the kernel phase runs at ~165 GFLOP/s (77% of peak;
 * C2's code for the 12×32 kernel is tight, numpy's assembly kernel gets more), and the whole
 * GEMM at ~125-140, packing and C-tile updates taking the rest.
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
        a = Prng.uniformSplit(Prng.key(1), Shape.of(n, n), DType.F32, -1, 1);
        b = Prng.uniformSplit(Prng.key(2), Shape.of(n, n), DType.F32, -1, 1);
        bt = Prng.uniformSplit(Prng.key(3), Shape.of(n, n), DType.F32, -1, 1);
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
