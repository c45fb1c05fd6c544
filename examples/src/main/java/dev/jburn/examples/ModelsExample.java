package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Forward;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.io.PrintStream;

/**
 * The README's "Models" section, runnable: {@code ./jburn example models}. Builds the MLP and the small CNN, prints
 * their summaries, runs inference, a training-mode call, a residual block and a two-input model, and freezes a layer.
 * Keep it in step with README.md.
 */
public final class ModelsExample {
    private ModelsExample() {}

    public static void main(String[] args) { run(System.out); }

    /** Runs the example, printing to {@code out}; returns the MLP's logits for the tests. */
    public static Tensor run(PrintStream out) {
        // An MLP: -1 marks the batch axis. Nothing is computed until init/predict.
        Model mlp = Model.input("image", Shape.of(-1, 784))
                .dense(256, Activation.RELU)
                .dropout(0.2)
                .dense(10)
                .named("mlp");
        out.println(mlp.summary());                                  // 203,530 parameters

        ModelState state = mlp.init(Prng.key(0));                  // same key -> same parameters on every engine
        Tensor images = Prng.uniform(Prng.key(1), Shape.of(32, 784), DType.F32, 0, 1).values();
        Tensor logits = mlp.predict(state, images);                  // inference: dropout off, Jit-compiled once per shape
        out.println("logits " + logits.shape() + ", predicted classes " + logits.argmax(1));

        // Training mode: dropout on, a fresh mask per key; returns the updated state (batch-norm statistics).
        Forward f = mlp.forward(state, Prng.key(2), images);
        out.println("training-mode output " + f.output().shape());

        // The small CNN (channels-last).
        Model cnn = Model.input("image", Shape.of(-1, 28, 28, 1))
                .conv2d(32, 3, Activation.RELU).maxPool2d(2)
                .conv2d(64, 3, Activation.RELU).maxPool2d(2)
                .flatten().dense(128, Activation.RELU).dense(10)
                .named("cnn");
        out.println(cnn.summary());                                  // 225,034 parameters

        // A residual block and a model of two inputs.
        Model x = Model.input("x", Shape.of(-1, 64));
        Model residual = Model.add(x, x.dense(64, Activation.RELU).dense(64)).activation(Activation.RELU);
        Model a = Model.input("a", Shape.of(-1, 8)), b = Model.input("b", Shape.of(-1, 4));
        Model twoInputs = Model.concatenate(-1, a.dense(16, Activation.GELU), b.dense(16, Activation.GELU)).dense(1);
        out.println("residual block: " + residual.parameterCount() + " parameters; two inputs " + twoInputs.inputNames());

        // Freezing: fine-tune the last layer only.
        ModelState head = state.freeze("dense_0.*");
        out.println("trainable after freezing dense_0: " + head.trainable().keySet());
        return logits;
    }
}
