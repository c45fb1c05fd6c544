package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Fashion-MNIST (and anything in the same four IDX files: MNIST, KMNIST): 60000 training and
 * 10000 test images of 28×28 gray pixels with a class in {@code 0..9}. Images are kept as read,
 * {@code u8[n,28,28]}; labels are {@code s32[n]}.
 *
 * <pre>{@code
 * FashionMnist data = FashionMnist.load(Path.of("/usr/share/datasets/fashion-mnist")).normalized();
 * TensorDataset train = data.train();                 // f32[60000,28,28] in [0, 1], s32[60000]
 * String first = FashionMnist.CLASSES.get(train.y().toIntArray()[0]);   // "Ankle boot"
 * }</pre>
 *
 * {@link #load} reads {@code train-images-idx3-ubyte}, {@code train-labels-idx1-ubyte},
 * {@code t10k-images-idx3-ubyte} and {@code t10k-labels-idx1-ubyte}, each plain or with
 * {@code .gz}, and checks that images are {@code u8} of rank 3, labels {@code u8} of rank 1
 * in {@code 0..9}, and that both files of a part hold the same number of examples.
 *
 * @param train the training part
 * @param test  the test part
 */
public record FashionMnist(TensorDataset train, TensorDataset test) {
    /** The class names, by label. */
    public static final List<String> CLASSES = List.of("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
            "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot");

    /** The four files in {@code dir}. */
    public static FashionMnist load(Path dir) {
        return new FashionMnist(part(dir, "train"), part(dir, "t10k"));
    }

    /** The images as {@code f32} divided by 255, so in {@code [0, 1]}; the labels unchanged. */
    public FashionMnist normalized() {
        return new FashionMnist(scaled(train), scaled(test));
    }

    /** The images as rows of {@code h·w} pixels ({@code [n, 784]}); the labels unchanged. */
    public FashionMnist flattened() {
        return new FashionMnist(train.map(x -> x.reshape(x.shape().dim(0), -1)), test.map(x -> x.reshape(x.shape().dim(0), -1)));
    }

    private static TensorDataset scaled(TensorDataset d) {
        return d.map(x -> x.asType(DType.F32).divide(255.0));
    }

    private static TensorDataset part(Path dir, String prefix) {
        Path imageFile = find(dir, prefix + "-images-idx3-ubyte");
        Path labelFile = find(dir, prefix + "-labels-idx1-ubyte");
        Tensor images = Idx.read(imageFile);
        if (images.dtype() != DType.U8 || images.rank() != 3) {
            throw DataFiles.fault("mnist", imageFile, "expected images u8[n,h,w], got " + images.dtype().shortName() + images.shape());
        }
        Tensor labels = Idx.read(labelFile);
        if (labels.dtype() != DType.U8 || labels.rank() != 1) {
            throw DataFiles.fault("mnist", labelFile, "expected labels u8[n], got " + labels.dtype().shortName() + labels.shape());
        }
        if (labels.shape().dim(0) != images.shape().dim(0)) {
            throw DataFiles.fault("mnist", labelFile, labels.shape().dim(0) + " labels for the " + images.shape().dim(0) + " images of " + imageFile);
        }
        Tensor ints = labels.asType(DType.S32);
        int[] values = ints.toIntArray();
        for (int i = 0; i < values.length; i++) {
            if (values[i] > 9) throw DataFiles.fault("mnist", labelFile, "label " + i + " is " + values[i] + ", outside 0..9");
        }
        labels.close();
        return TensorDataset.of(images, ints);
    }

    private static Path find(Path dir, String name) {
        Path plain = dir.resolve(name), gz = dir.resolve(name + ".gz");
        if (Files.isRegularFile(plain)) return plain;
        if (Files.isRegularFile(gz)) return gz;
        throw new JBurnException("mnist", dir + ": neither " + name + " nor " + name + ".gz is there");
    }
}
