package dev.jburn.cli;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;

import java.util.List;

/** The models {@code jburn train} knows, by name. */
final class Architectures {
    private Architectures() {}

    static final List<String> NAMES = List.of("mlp", "cnn");

    /** The MLP 784-256-10 (ReLU) on flattened 28×28 images, or the small CNN on 28×28×1. */
    static Model of(String name) {
        return switch (name) {
            case "mlp" -> Model.input("image", Shape.of(-1, 784)).dense(256, Activation.RELU).dense(10).named("mlp");
            case "cnn" -> Model.input("image", Shape.of(-1, 28, 28, 1))
                    .conv2d(32, 3, Activation.RELU).maxPool2d(2)
                    .conv2d(64, 3, Activation.RELU).maxPool2d(2)
                    .flatten().dense(128, Activation.RELU).dense(10).named("cnn");
            default -> throw new JBurnException("train", "unknown model '" + name + "'; known: " + NAMES);
        };
    }
}
