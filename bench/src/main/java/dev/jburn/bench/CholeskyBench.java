package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.LinAlg;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * Cholesky of an n×n symmetric positive-definite matrix ({@code B·Bᵀ + n·I}) on the reference
 * engine: blocked right-looking, Vector API trailing update, computed in double. Compare with
 * {@code bench/cholesky_numpy.py} (LAPACK {@code dpotrf} through NumPy) run in the same sitting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class CholeskyBench {
    @Param({"256", "512", "1024"})
    int n;

    @Param({"F64", "F32"})
    String dtype;

    Tensor a;

    @Setup
    public void setup() {
        DType t = DType.valueOf(dtype);
        try (Tensor b = Prng.uniformSplit(Prng.key(7), Shape.of(n, n), DType.F64, -1, 1);
             Tensor bt = b.transpose();
             Tensor bbt = b.dot(bt);
             Tensor eye = Tensor.eye(n, DType.F64);
             Tensor shift = eye.multiply((double) n);
             Tensor spd = bbt.add(shift)) {
            a = spd.asType(t);
        }
    }

    @TearDown
    public void tearDown() { a.close(); }

    @Benchmark
    public long cholesky() {
        try (Tensor l = LinAlg.cholesky(a)) { return l.size(); }
    }
}
