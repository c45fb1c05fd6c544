package dev.jburn.cli;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.BatchNorm;

import java.util.List;

/** The models {@code jburn train} knows, by name. */
final class Architectures {
    private Architectures() {}

    static final List<String> NAMES = List.of("mlp", "cnn");

    /**
     * The MLP 784-256-10 (ReLU) on flattened 28×28 images, or the small CNN on 28×28×1: two blocks of a 3×3
     * convolution (32, then 64 filters), batch norm, ReLU and 2×2 max pooling, then dense 128 (ReLU) and 10.
     * Batch norm (with {@link #defaultSchedule the cosine decay}) is what takes the CNN past 0.90 test accuracy in
     * 5 epochs: without it, 0.893-0.899 over seeds on full Fashion-MNIST (PyTorch the same), and dropout did not help.
     * Its running statistics use momentum 0.9 (PyTorch's default), not Keras's 0.99: with 0.99 a short run (the
     * embedded 3000-image subset, {@code --limit}) evaluates on statistics still near their initial values.
     */
    static Model of(String name) {
        return switch (name) {
            case "mlp" -> Model.input("image", Shape.of(-1, 784)).dense(256, Activation.RELU).dense(10).named("mlp");
            case "cnn" -> Model.input("image", Shape.of(-1, 28, 28, 1))
                    .conv2d(32, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                    .conv2d(64, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                    .flatten().dense(128, Activation.RELU).dense(10).named("cnn");
            default -> throw new JBurnException("train", "unknown model '" + name + "'; known: " + NAMES);
        };
    }

    /**
     * The learning-rate schedule each model trains with by default: constant for the MLP (the setup the PyTorch
     * comparison fixed), cosine decay to 0 over the run for the CNN.
     */
    static String defaultSchedule(String name) {
        return "cnn".equals(name) ? "cosine" : "constant";
    }
}
