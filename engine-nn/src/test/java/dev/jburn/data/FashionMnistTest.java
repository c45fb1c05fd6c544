package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Fashion-MNIST: the real files when installed, and small fakes for the faults. */
class FashionMnistTest {
    private static final Path REAL = Path.of("/usr/share/datasets/fashion-mnist");

    @TempDir Path dir;

    @Test
    void loadsTheRealData() {
        assumeTrue(Files.isRegularFile(REAL.resolve("train-labels-idx1-ubyte.gz")), "Fashion-MNIST is not installed at " + REAL);
        FashionMnist data = FashionMnist.load(REAL);
        assertEquals(60000, data.train().size());
        assertEquals(10000, data.test().size());
        assertEquals(Shape.of(60000, 28, 28), data.train().x().shape());
        assertEquals(DType.U8, data.train().x().dtype());
        assertEquals(DType.S32, data.train().y().dtype());
        int[] labels = data.train().y().toIntArray();
        assertEquals(9, labels[0], "the first training label of Fashion-MNIST is 9 (ankle boot)");
        int[] counts = new int[10];
        for (int l : labels) counts[l]++; // throws when a label is outside 0..9
        for (int c : counts) assertEquals(6000, c, "Fashion-MNIST has 6000 training images per class");
        for (int l : data.test().y().toIntArray()) assertTrue(l >= 0 && l <= 9);
        FashionMnist norm = data.normalized();
        assertEquals(DType.F32, norm.train().x().dtype());
        assertTrue(norm.train().x().max().item().doubleValue() <= 1.0);
        assertEquals(Shape.of(10000, 784), data.flattened().test().x().shape());
    }

    @Test
    void loadsPlainAndGzipFiles() {
        IdxBytes.fakeMnist(dir, "train", 12, 12, true);
        IdxBytes.fakeMnist(dir, "t10k", 3, 3, false);
        FashionMnist d = FashionMnist.load(dir);
        assertEquals(12, d.train().size());
        assertArrayEquals(new int[] {0, 1, 2}, d.test().y().toIntArray());
        assertEquals(11, d.train().x().toLongArray()[11 * 784]);
        assertEquals(11.0f / 255, d.normalized().train().x().toFloatArray()[11 * 784], 1e-7);
    }

    @Test
    void labelCountMustMatchImageCount() {
        IdxBytes.fakeMnist(dir, "train", 5, 4, true);
        IdxBytes.fakeMnist(dir, "t10k", 2, 2, true);
        JBurnException e = assertThrows(JBurnException.class, () -> FashionMnist.load(dir));
        assertTrue(e.getMessage().contains("train-labels-idx1-ubyte.gz: 4 labels for the 5 images"), e.getMessage());
    }

    @Test
    void missingFileIsNamed() {
        IdxBytes.fakeMnist(dir, "train", 2, 2, false);
        JBurnException e = assertThrows(JBurnException.class, () -> FashionMnist.load(dir));
        assertTrue(e.getMessage().contains("t10k-images-idx3-ubyte"), e.getMessage());
    }

    @Test
    void labelsOutsideTheClassesAreRefused() {
        IdxBytes.fakeMnist(dir, "train", 2, 2, false);
        IdxBytes.fakeMnist(dir, "t10k", 2, 2, false);
        IdxBytes.write(dir, "t10k-labels-idx1-ubyte", IdxBytes.idx(0x08, new int[] {2}, new byte[] {3, 10}));
        JBurnException e = assertThrows(JBurnException.class, () -> FashionMnist.load(dir));
        assertTrue(e.getMessage().contains("label 1 is 10, outside 0..9"), e.getMessage());
    }

    @Test
    void imagesMustBeU8OfRankThree() {
        IdxBytes.fakeMnist(dir, "t10k", 2, 2, false);
        IdxBytes.write(dir, "train-images-idx3-ubyte", IdxBytes.idx(0x0D, new int[] {1, 1}, new byte[4]));
        IdxBytes.write(dir, "train-labels-idx1-ubyte", IdxBytes.idx(0x08, new int[] {1}, new byte[1]));
        JBurnException e = assertThrows(JBurnException.class, () -> FashionMnist.load(dir));
        assertTrue(e.getMessage().contains("expected images u8[n,h,w], got f32[1, 1]"), e.getMessage());
    }
}
