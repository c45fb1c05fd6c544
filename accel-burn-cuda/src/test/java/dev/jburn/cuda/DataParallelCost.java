package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.DataParallel;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;

import java.util.Locale;

/**
 * What splitting the step costs: the MLP 784-256-10 (Adam, batch 128) trained by the one fused graph and by the
 * data-parallel path with one replica (gradient graph, all-reduce, apply graph), then with {@code n} replicas as
 * threads, on the default engine. Prints samples/s of the last of {@code epochs} epochs (the first ones compile).
 * Not a test: {@code java ... dev.jburn.cuda.DataParallelCost [examples] [epochs] [replicas]}.
 */
public final class DataParallelCost {
    private DataParallelCost() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 7680, epochs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int replicas = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Model m = Model.input("x", Shape.of(-1, 784)).dense(256, Activation.RELU).dense(10).named("mlp");
        Tensor x = Prng.uniform(Prng.key(7), Shape.of(n, 784), DType.F32, 0, 1).values();
        Tensor y = x.slice(new int[] {0, 0}, new int[] {n, 10}).argmax(1).asType(DType.S32);
        TensorDataset d = TensorDataset.of(x, y);
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3)).metrics(Metrics.accuracy());
        Fit f = Fit.epochs(epochs).batchSize(128).quiet();
        for (int round = 0; round < 2; round++) {
            report("fused step, one graph", t.fit(m.init(Prng.key(1)), d, f));
            report("split step, 1 replica", t.fit(m.init(Prng.key(1)), d, f.dataParallel(DataParallel.threads(1))));
            if (replicas > 1) report("split step, " + replicas + " thread replicas", t.fit(m.init(Prng.key(1)), d, f.dataParallel(DataParallel.threads(replicas))));
        }
    }

    private static void report(String what, FitResult r) {
        System.out.printf(Locale.ROOT, "%-32s %8.0f samples/s (last epoch), loss %.4f%n", what, r.history().last("samples_per_s"), r.history().last("loss"));
    }
}
