package dev.jburn.examples;

import dev.jburn.data.FashionMnist;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The classifier pipeline on its small settings: Fashion-MNIST when installed (CI installs it), and the blob stand-in. */
class ClassifierExampleTest {
    @Test
    void fashionMnistSmallReachesTheAccuracy() {
        assumeTrue(Files.isRegularFile(ClassifierExample.DEBIAN_DATA.resolve("train-images-idx3-ubyte.gz")),
                "the Debian package dataset-fashion-mnist is not installed");
        var o = new ExampleOutput();
        ClassifierExample.Result r = ClassifierExample.run(o.out, true);
        String s = o.text();
        assertTrue(r.fashionMnist(), s);
        assertEquals(3000, r.trainSize() + r.validationSize(), s);
        assertEquals(300, r.validationSize(), 1, "a tenth held out, per class");
        assertEquals(10000, r.testSize());
        assertTrue(r.testAccuracy() > 0.7, s);
        assertEquals(8, r.predictions().size());
        assertTrue(r.predictions().stream().anyMatch(l -> FashionMnist.CLASSES.stream().anyMatch(l::contains)), s);
        assertTrue(s.contains("data: Fashion-MNIST from /usr/share/datasets/fashion-mnist") && s.contains("val_accuracy"), s);
        assertTrue(s.contains("ok: test accuracy"), s);
    }

    @Test
    void withoutTheDataItUsesBlobsAndSaysSo(@TempDir Path empty) {
        var o = new ExampleOutput();
        ClassifierExample.Result r = ClassifierExample.run(o.out, true, empty);
        String s = o.text();
        assertFalse(r.fashionMnist());
        assertTrue(s.contains("no Fashion-MNIST in " + empty) && s.contains("10 Gaussian blobs in 784 dimensions"), s);
        assertTrue(r.testAccuracy() > 0.95, s);
        assertEquals(0.95, r.threshold());
        assertTrue(s.contains("predicted blob "), s);
    }
}
