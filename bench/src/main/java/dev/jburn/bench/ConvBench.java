package dev.jburn.bench;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.openjdk.jmh.annotations.*;

import java.util.concurrent.TimeUnit;

/**
 * A ResNet-like block on 8×64×56×56 f32 (NCHW): a 3×3 conv 64→64 with stride 1 and same padding
 * (1.85 GFLOP), and a 1×1 conv 64→256 (0.82 GFLOP). Compare with
 * {@code torch.nn.functional.conv2d} at {@code torch.set_num_threads(2)} in the same sitting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class ConvBench {
    Tensor x, k3, k1;
    final ConvOptions same = ConvOptions.defaults().withPadding(Padding.SAME);

    @Setup
    public void setup() {
        Tensor key = Prng.key(11);
        x = Prng.normalSplit(key, Shape.of(8, 64, 56, 56), DType.F32, 0, 1);
        k3 = Prng.normalSplit(Prng.foldIn(key, 1), Shape.of(64, 64, 3, 3), DType.F32, 0, 0.05);
        k1 = Prng.normalSplit(Prng.foldIn(key, 2), Shape.of(256, 64, 1, 1), DType.F32, 0, 0.1);
    }

    @Benchmark
    public long conv3x3Same() {
        try (Tensor y = x.conv(k3, same)) { return y.size(); }
    }

    @Benchmark
    public long conv1x1() {
        try (Tensor y = x.conv(k1)) { return y.size(); }
    }
}
