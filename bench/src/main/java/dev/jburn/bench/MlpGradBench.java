package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.openjdk.jmh.annotations.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code valueAndGrad} of a 2-layer MLP's cross-entropy loss (784-256-10, batch 128) with respect
 * to its parameter map: eager against one {@link Jit}-compiled step, and the compile time of
 * that step (trace + passes) in a fresh compiled function.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
public class MlpGradBench {
    static final List<String> NAMES = List.of("w1", "b1", "w2", "b2");
    Map<String, Tensor> params;
    Tensor x, labels;
    Function<Map<String, Tensor>, Autodiff.ValueAndGradMap> eager;
    CompiledFunction compiled;

    /** Mean cross-entropy of {@code relu(x·w1 + b1)·w2 + b2} against one-hot labels. */
    static Tensor loss(Map<String, Tensor> p, Tensor x, Tensor labels) {
        Tensor h = x.dot(p.get("w1")).add(p.get("b1")).maximum(0L);
        Tensor logits = h.dot(p.get("w2")).add(p.get("b2"));
        Tensor m = logits.max(new int[] {1}, true);
        Tensor shifted = logits.subtract(m);
        Tensor logSoftmax = shifted.subtract(shifted.exp().sum(new int[] {1}, true).log());
        return logSoftmax.multiply(labels).sum().negate().divide(x.shape().dim(0));
    }

    @Setup
    public void setup() {
        Tensor key = Prng.key(11);
        params = new LinkedHashMap<>();
        params.put("w1", Prng.normalSplit(Prng.foldIn(key, 1), Shape.of(784, 256), DType.F32, 0, 0.05));
        params.put("b1", Tensor.zeros(Shape.of(256), DType.F32));
        params.put("w2", Prng.normalSplit(Prng.foldIn(key, 2), Shape.of(256, 10), DType.F32, 0, 0.05));
        params.put("b2", Tensor.zeros(Shape.of(10), DType.F32));
        x = Prng.uniformSplit(Prng.foldIn(key, 3), Shape.of(128, 784), DType.F32, 0, 1);
        Tensor cls = Prng.randintSplit(Prng.foldIn(key, 4), 0, 10, Shape.of(128, 1), DType.S32);
        labels = cls.equal(Tensor.iota(Shape.of(1, 10), DType.S32, 1)).asType(DType.F32);
        eager = Autodiff.valueAndGradMap(p -> loss(p, x, labels));
        compiled = compileStep();
    }

    private CompiledFunction compileStep() {
        return Jit.compileList(in -> {
            Map<String, Tensor> p = new LinkedHashMap<>();
            for (int i = 0; i < NAMES.size(); i++) p.put(NAMES.get(i), in.get(i));
            Tensor xb = in.get(4), yb = in.get(5);
            Autodiff.ValueAndGradMap r = Autodiff.valueAndGradMap(q -> loss(q, xb, yb)).apply(p);
            List<Tensor> out = new ArrayList<>();
            out.add(r.value());
            for (String n : NAMES) out.add(r.grads().get(n));
            return out;
        });
    }

    private List<Tensor> inputs() {
        List<Tensor> in = new ArrayList<>();
        for (String n : NAMES) in.add(params.get(n));
        in.add(x);
        in.add(labels);
        return in;
    }

    @Benchmark
    public Object eagerStep() {
        try (var scope = Tensor.scope()) {
            return eager.apply(params).value().item();
        }
    }

    @Benchmark
    public Object jitStep() {
        try (var scope = Tensor.scope()) {
            return compiled.apply(inputs()).getFirst().item();
        }
    }

    /** Trace + optimize + first run of a fresh compiled step (what a training loop pays once). */
    @Benchmark
    public Object traceCompileAndFirstRun() {
        try (var scope = Tensor.scope()) {
            return compileStep().apply(inputs()).getFirst().item();
        }
    }
}
