package dev.jburn.data;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Statistics fitted on one dataset and applied to another. */
class NormalizerTest {
    private static final TensorDataset TRAIN = TensorDataset.of(
            Tensor.of(new float[][] {{0, 10, 5}, {2, 20, 5}, {4, 30, 5}}), Tensor.of(0, 1, 2));
    private static final TensorDataset TEST = TensorDataset.of(Tensor.of(new float[][] {{1, 40, 7}}), Tensor.of(3));

    @Test
    void minMaxFittedOnTrainAppliedToTest() {
        Normalizer n = Normalizer.minMax(TRAIN);
        assertEquals(Normalizer.Method.MIN_MAX, n.method());
        assertArrayEquals(new float[] {0, 10, 5}, n.shift().toFloatArray());
        assertArrayEquals(new float[] {4, 20, 1}, n.scale().toFloatArray(), "a constant feature gets scale 1");
        assertArrayEquals(new float[] {0, 0, 0, 0.5f, 0.5f, 0, 1, 1, 0}, n.apply(TRAIN).x().toFloatArray(), 1e-6f);
        assertArrayEquals(new float[] {0.25f, 1.5f, 2}, n.apply(TEST).x().toFloatArray(), 1e-6f, "test data uses the training statistics");
        assertSame(TEST.y(), n.apply(TEST).y());
    }

    @Test
    void standardization() {
        Normalizer n = Normalizer.standard(TRAIN);
        float sd = (float) Math.sqrt(8.0 / 3);
        assertArrayEquals(new float[] {2, 20, 5}, n.shift().toFloatArray(), 1e-6f);
        assertArrayEquals(new float[] {sd, 5 * sd, 1}, n.scale().toFloatArray(), 1e-5f);
        float[] z = n.apply(TRAIN).x().toFloatArray();
        assertEquals(-2 / sd, z[0], 1e-5);
        assertEquals(0, z[3], 1e-6);
        assertArrayEquals(TRAIN.x().toFloatArray(), n.invert(n.apply(TRAIN.x())).toFloatArray(), 1e-5f);
    }

    @Test
    void integerExamplesAndImagesPerPixel() {
        TensorDataset img = TensorDataset.of(Tensor.of(new int[][] {{0, 255}, {255, 255}}).reshape(2, 1, 2), Tensor.of(0, 1));
        Normalizer n = Normalizer.minMax(img);
        assertEquals(dev.jburn.Shape.of(1, 2), n.shift().shape());
        assertArrayEquals(new float[] {0, 0, 1, 0}, n.apply(img).x().toFloatArray());
    }

    @Test
    void faults() {
        assertThrows(JBurnException.class, () -> Normalizer.minMax(TRAIN).apply(Tensor.of(new float[][] {{1, 2}})));
        assertThrows(JBurnException.class, () -> Normalizer.standard(TRAIN.take(0)));
    }
}
