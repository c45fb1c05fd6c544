package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

/**
 * Measures (prints, never asserts) trace + compile time of a small MLP forward pass
 * (784-256-10, batch 128) and the time per call compiled and eager. Speed belongs in {@code bench};
 * this is the quick number for the issue note.
 */
class JitMeasureTest {
    private static Tensor normal(long seed, int... dims) {
        return Prng.normal(Prng.key(seed), Shape.of(dims), DType.F32, 0, 0.05).values();
    }

    private static final Function<List<Tensor>, List<Tensor>> MLP = xs -> {
        Tensor h = xs.get(0).dot(xs.get(1)).add(xs.get(2)).maximum(0.0);
        Tensor logits = h.dot(xs.get(3)).add(xs.get(4));
        Tensor shifted = logits.subtract(logits.max(new int[] {1}, true));
        return List.of(shifted.subtract(shifted.exp().sum(new int[] {1}, true).log()));
    };

    @Test
    void mlpForward() {
        List<Tensor> in = List.of(normal(1, 128, 784), normal(2, 784, 256), normal(3, 256), normal(4, 256, 10), normal(5, 10));
        CompiledFunction cold = Jit.compileList(MLP);
        cold.apply(in).forEach(Tensor::close);
        double coldMs = cold.compileTime().toNanos() / 1e6;
        double warmMs = Double.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            CompiledFunction f = Jit.compileList(MLP);
            f.apply(in).forEach(Tensor::close);
            warmMs = Math.min(warmMs, f.compileTime().toNanos() / 1e6);
        }
        CompiledFunction f = Jit.compileList(MLP);
        double jit = perCall(() -> f.apply(in).forEach(Tensor::close));
        double eager = perCall(() -> {
            try (var scope = Tensor.scope()) {
                MLP.apply(in);
            }
        });
        System.out.printf("JitMeasure mlp 784-256-10 batch 128: trace+compile %.1f ms cold (first in the JVM), %.2f ms warm;"
                + " per call jit %.3f ms, eager %.3f ms (%d nodes after passes)%n", coldMs, warmMs, jit, eager, f.graph().nodes().size());
    }

    /** Median milliseconds per call over 31 timed runs after 15 warm-up runs. */
    private static double perCall(Runnable r) {
        for (int i = 0; i < 15; i++) r.run();
        double[] t = new double[31];
        for (int i = 0; i < t.length; i++) {
            long t0 = System.nanoTime();
            r.run();
            t[i] = (System.nanoTime() - t0) / 1e6;
        }
        java.util.Arrays.sort(t);
        return t[t.length / 2];
    }
}
