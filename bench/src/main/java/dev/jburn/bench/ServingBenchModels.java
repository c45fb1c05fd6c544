package dev.jburn.bench;

import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.pooling.Pool;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The models {@link ServingBench} serves, each with its DJL twin: the same layers as DJL blocks, and JBurn's weights
 * in DJL's layouts. JBurn is channels-last (NHWC inputs, HWIO kernels, dense kernels [in, out]); DJL / PyTorch are
 * channels-first (NCHW, OIHW, Linear weights [out, in]), so kernels are permuted, and the first dense layer after a
 * flatten has its rows reordered from JBurn's (h, w, c) to PyTorch's (c, h, w). Both take a 28×28 image as 784
 * floats: with one channel, NHWC [1, 28, 28, 1] and NCHW [1, 1, 28, 28] hold them in the same order.
 *
 * @param name        the row label
 * @param description the work, for the header line
 * @param model       the JBurn model
 * @param jburnRow    JBurn's shape of one request's row
 * @param djlRow      DJL's shape of one request's row
 * @param djlBlock    a new, uninitialized DJL block of the same layers
 * @param djlWeights  the state's parameters in DJL's layouts, in {@code getParameters()} order
 */
record ServingBenchModels(String name, String description, Model model, int[] jburnRow, long[] djlRow, Supplier<SequentialBlock> djlBlock,
                          java.util.function.Function<ModelState, List<float[]>> djlWeights) {

    /** The MLP 784-256-10 (ReLU). */
    static ServingBenchModels mlp() {
        Model m = Model.input("image", dev.jburn.Shape.of(-1, 784)).dense(256, dev.jburn.nn.Activation.RELU).dense(10).named("mlp");
        return new ServingBenchModels("MLP", "MLP 784-256-10 f32", m, new int[] {1, 784}, new long[] {1, 784},
                () -> new SequentialBlock().add(Linear.builder().setUnits(256).build()).add(Activation::relu).add(Linear.builder().setUnits(10).build()),
                state -> {
                    List<float[]> out = new ArrayList<>();
                    for (Tensor t : state.params().values()) out.add(t.rank() == 2 ? transposed(t) : t.toFloatArray());
                    return out;
                });
    }

    /** The cli's CNN: conv 32@3×3 (ReLU), max-pool 2, conv 64@3×3 (ReLU), max-pool 2, flatten, dense 128 (ReLU), dense 10. */
    static ServingBenchModels cnn() {
        Model m = Model.input("image", dev.jburn.Shape.of(-1, 28, 28, 1))
                .conv2d(32, 3, dev.jburn.nn.Activation.RELU).maxPool2d(2)
                .conv2d(64, 3, dev.jburn.nn.Activation.RELU).maxPool2d(2)
                .flatten().dense(128, dev.jburn.nn.Activation.RELU).dense(10).named("cnn");
        return new ServingBenchModels("CNN", "CNN 28x28x1 conv32-pool-conv64-pool-128-10 f32", m, new int[] {1, 28, 28, 1}, new long[] {1, 1, 28, 28},
                () -> new SequentialBlock()
                        .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).setFilters(32).build()).add(Activation::relu)
                        .add(Pool.maxPool2dBlock(new Shape(2, 2)))
                        .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).setFilters(64).build()).add(Activation::relu)
                        .add(Pool.maxPool2dBlock(new Shape(2, 2)))
                        .add(Blocks.batchFlattenBlock())
                        .add(Linear.builder().setUnits(128).build()).add(Activation::relu)
                        .add(Linear.builder().setUnits(10).build()),
                state -> {
                    List<float[]> out = new ArrayList<>();
                    boolean afterFlatten = true;
                    for (Tensor t : state.params().values()) {
                        if (t.rank() == 4) {
                            out.add(hwioToOihw(t));
                        } else if (t.rank() == 2 && afterFlatten) {
                            out.add(transposed(hwcRowsToChw(t, 5, 5, 64)));
                            afterFlatten = false;
                        } else {
                            out.add(t.rank() == 2 ? transposed(t) : t.toFloatArray());
                        }
                    }
                    return out;
                });
    }

    /** A [rows, cols] tensor as [cols, rows] floats. */
    private static float[] transposed(Tensor t) { return transposed(t.toFloatArray(), (int) t.shape().dim(0), (int) t.shape().dim(1)); }

    private static float[] transposed(float[] v, int rows, int cols) {
        float[] t = new float[v.length];
        for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) t[c * rows + r] = v[r * cols + c];
        return t;
    }

    /** A [kh, kw, in, out] kernel as [out, in, kh, kw]. */
    private static float[] hwioToOihw(Tensor k) {
        int kh = (int) k.shape().dim(0), kw = (int) k.shape().dim(1), in = (int) k.shape().dim(2), o = (int) k.shape().dim(3);
        float[] v = k.toFloatArray(), r = new float[v.length];
        for (int y = 0; y < kh; y++)
            for (int x = 0; x < kw; x++)
                for (int i = 0; i < in; i++)
                    for (int j = 0; j < o; j++) r[((j * in + i) * kh + y) * kw + x] = v[((y * kw + x) * in + i) * o + j];
        return r;
    }

    /** A [h*w*c, out] dense kernel whose rows follow an NHWC flatten, as a tensor whose rows follow an NCHW flatten. */
    private static Tensor hwcRowsToChw(Tensor k, int h, int w, int c) {
        int out = (int) k.shape().dim(1);
        float[] v = k.toFloatArray(), r = new float[v.length];
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int ch = 0; ch < c; ch++) System.arraycopy(v, ((y * w + x) * c + ch) * out, r, ((ch * h + y) * w + x) * out, out);
        return Tensor.of(r).reshape(dev.jburn.Shape.of(h * w * c, out));
    }
}
