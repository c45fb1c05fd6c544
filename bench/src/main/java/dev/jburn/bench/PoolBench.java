package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * Pooling on 8×64×112×112 f32 (NCHW): 3×3 max pooling with stride 2 and same padding (ResNet's
 * stem), and 2×2 stride-2 average pooling as a window sum. Compare with
 * {@code torch.nn.functional.max_pool2d(x, 3, 2, padding=1)} and {@code avg_pool2d(x, 2, 2)} at
 * {@code torch.set_num_threads(2)} in the same sitting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class PoolBench {
    Tensor x;
    final int[] window3 = {1, 1, 3, 3};
    final int[] window2 = {1, 1, 2, 2};
    final WindowOptions maxPool = WindowOptions.defaults().withStrides(1, 1, 2, 2).withPadding(Padding.SAME);
    final WindowOptions avgPool = WindowOptions.defaults().withStrides(1, 1, 2, 2);

    @Setup
    public void setup() {
        x = Prng.normalSplit(Prng.key(12), Shape.of(8, 64, 112, 112), DType.F32, 0, 1);
    }

    @Benchmark
    public long maxPool3x3Stride2() {
        try (Tensor y = x.windowMax(window3, maxPool)) { return y.size(); }
    }

    @Benchmark
    public long sumPool2x2Stride2() {
        try (Tensor y = x.windowSum(window2, avgPool)) { return y.size(); }
    }
}
