package dev.jburn.examples;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runnable examples ({@code jburn example NAME}, {@code jburn example --small NAME}), each tested in CI on its
 * small settings. Every example checks its own outcome and throws an {@link ExampleFailure} when it is not reached.
 */
public final class Examples {
    private Examples() {}

    /** What an example runs: prints to {@code out}; {@code small} picks the quick settings CI uses. */
    @FunctionalInterface
    public interface Body {
        void run(PrintStream out, boolean small) throws Exception;
    }

    /**
     * One example.
     *
     * @param description what it shows
     * @param body        runs it, printing to the stream
     */
    public record Example(String description, Body body) {}

    private static final Map<String, Example> ALL = new LinkedHashMap<>();

    static {
        ALL.put("tour", new Example("the README's tour of the tensor API", (out, small) -> Tour.main(new String[0])));
        ALL.put("models", new Example("the README's Models section: an MLP and a CNN, summaries, inference, branches, freezing",
                (out, small) -> ModelsExample.run(out)));
        ALL.put("linear-regression", new Example("y = 3x - 0.5 + noise: a Dense(1) trained with SGD and MSE finds the slope and intercept",
                LinearRegressionExample::run));
        ALL.put("classifier", new Example("the full pipeline on Fashion-MNIST: split, normalize, an MLP, validation, test accuracy, predictions",
                ClassifierExample::run));
        ALL.put("xor", new Example("XOR with a 2-8-2 tanh network, Adam and early stopping on the loss (best weights restored)",
                XorExample::run));
        ALL.put("datasets", new Example("dataset utilities: random and stratified splits, normalizers, one-hot, a keyed BatchLoader, CSV",
                DatasetsExample::run));
        ALL.put("tensors", new Example("tensor operations: broadcasting, math, reductions, LinAlg (solve, cholesky, qr, svd), checked",
                TensorsExample::run));
        ALL.put("model-management", new Example("save/load, f16 quantization, freezing, a predict benchmark, safetensors for Python",
                ModelManagementExample::run));
        ALL.put("callbacks", new Example("training callbacks: logging, early stopping, checkpoints, LR schedules, plateau, your own",
                CallbacksExample::run));
    }

    /** Every example by name, in listing order. */
    public static Map<String, Example> all() { return Collections.unmodifiableMap(ALL); }
}
