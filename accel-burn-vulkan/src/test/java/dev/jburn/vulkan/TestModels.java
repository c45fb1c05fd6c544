package dev.jburn.vulkan;

import dev.jburn.Shape;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.layers.BatchNorm;

/** Models the device tests train. */
final class TestModels {
    private TestModels() {}

    /**
     * {@code jburn train --model cnn}'s network shrunk to 12×12 images: conv, batch norm, ReLU and 2×2 max pool twice,
     * then two dense layers. Its Adam step has every kind of kernel a CNN step runs (convs and their cotangents, window
     * reductions and scatters, GEMMs, fused groups, reductions).
     */
    static Model smallCnn() {
        return Model.input("x", Shape.of(-1, 12, 12, 1))
                .conv2d(4, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .conv2d(8, 3).apply(BatchNorm.of().withMomentum(0.9)).activation(Activation.RELU).maxPool2d(2)
                .flatten().dense(16, Activation.RELU).dense(10);
    }
}
