package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One SGD training step of a 2-layer MLP (784-256-10, ReLU, softmax cross-entropy, batch 128) on
 * any engine: forward, reverse-mode gradients and the parameter update, compiled by {@link Jit}
 * into one graph whose parameter inputs are donated (the update is written in place). Prints the
 * median time per step after warm-up, and the loss before and after, which must fall.
 *
 * <p>Usage: {@code java ... dev.jburn.cuda.MlpTrainStep [engine] [steps]} (default {@code cuda}, 200 after 20 warm-up steps);
 * {@code gpu/torch_peer.py} times the same step in torch.
 */
public final class MlpTrainStep {
    private MlpTrainStep() {}

    private static final double LEARNING_RATE = 0.1;

    static Tensor loss(List<Tensor> p, Tensor x, Tensor labels) {
        Tensor h = x.dot(p.get(0)).add(p.get(1)).maximum(0L);
        Tensor logits = h.dot(p.get(2)).add(p.get(3));
        Tensor logSoftmax = logits.subtract(logits.logSumExp(new int[] {1}, true));
        return logSoftmax.multiply(labels).sum().negate().divide(x.shape().dim(0));
    }

    public static void main(String[] args) {
        Engine e = Engine.select(args.length > 0 ? args[0] : "cuda");
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Tensor key = Prng.key(11);
        List<Tensor> params = new ArrayList<>(List.of(
                Prng.normalSplit(Prng.foldIn(key, 1), Shape.of(784, 256), DType.F32, 0, 0.05).to(e),
                Tensor.zeros(Shape.of(256), DType.F32).to(e),
                Prng.normalSplit(Prng.foldIn(key, 2), Shape.of(256, 10), DType.F32, 0, 0.05).to(e),
                Tensor.zeros(Shape.of(10), DType.F32).to(e)));
        Tensor x = Prng.uniformSplit(Prng.foldIn(key, 3), Shape.of(128, 784), DType.F32, 0, 1).to(e);
        Tensor cls = Prng.randintSplit(Prng.foldIn(key, 4), 0, 10, Shape.of(128, 1), DType.S32);
        Tensor labels = cls.equal(Tensor.iota(Shape.of(1, 10), DType.S32, 1)).asType(DType.F32).to(e);

        // inputs: w1 b1 w2 b2 x labels; outputs: loss, then the four updated parameters (written into the donated inputs)
        CompiledFunction step = Jit.compileList(in -> {
            List<Tensor> p = in.subList(0, 4);
            Tensor xb = in.get(4), yb = in.get(5);
            Autodiff.ValueAndGrads r = Autodiff.valueAndGradList(q -> loss(q, xb, yb)).apply(p);
            List<Tensor> out = new ArrayList<>();
            out.add(r.value());
            for (int i = 0; i < 4; i++) out.add(p.get(i).subtract(r.grads().get(i).multiply(LEARNING_RATE)));
            return out;
        }, JitOptions.defaults().withDonation(0, 1, 2, 3));

        long t0 = System.nanoTime();
        double first = run(step, params, x, labels);
        double compileMs = (System.nanoTime() - t0) / 1e6;
        for (int i = 0; i < 20; i++) run(step, params, x, labels);
        double[] times = new double[steps];
        double last = first;
        for (int i = 0; i < steps; i++) {
            long s = System.nanoTime();
            last = run(step, params, x, labels);
            times[i] = (System.nanoTime() - s) / 1e6;
        }
        Arrays.sort(times);
        System.out.printf(Locale.ROOT, "mlp train step 784-256-10 b128 on %s: median %.3f ms/step (trace+compile+first step %.1f ms); "
                + "loss %.4f -> %.4f after %d steps; fallbacks %s%n", e.name(), times[steps / 2], compileMs, first, last, steps + 21,
                e.fallbackCounts());
    }

    /** One step: the loss read back (which also waits for the step), parameters replaced by their updates. */
    private static double run(CompiledFunction step, List<Tensor> params, Tensor x, Tensor labels) {
        List<Tensor> in = new ArrayList<>(params);
        in.add(x);
        in.add(labels);
        List<Tensor> out = step.apply(in);
        for (int i = 0; i < 4; i++) params.set(i, out.get(i + 1));
        try (Tensor loss = out.getFirst()) {
            return loss.item().doubleValue();
        }
    }
}
