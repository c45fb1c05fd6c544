package dev.jburn.examples;

import dev.jburn.DType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The dataset utilities example on its small settings. */
class DatasetsExampleTest {
    @Test
    void splitsNormalizesLoadsAndReads() throws Exception {
        var o = new ExampleOutput();
        DatasetsExample.Result r = DatasetsExample.run(o.out, true);
        String s = o.text();
        assertEquals(600, r.stratifiedSizes()[0] + r.stratifiedSizes()[1] + r.stratifiedSizes()[2]);
        assertEquals(420, r.stratifiedSizes()[0], 2);
        for (int f = 0; f < 3; f++) {
            assertEquals(0, r.trainMean()[f], 1e-4);
            assertEquals(1, r.trainStd()[f], 1e-3);
            assertNotEquals(0, r.testMean()[f], "the test part uses the training statistics, so it is not exactly centered");
        }
        assertEquals(7, r.batches());
        assertEquals(r.stratifiedSizes()[0], r.loaderOrder().length);
        assertEquals(DType.S32, r.csv().y().dtype());
        for (String line : new String[] {"random split:", "stratified split:", "standard normalizer fitted on the training part",
                "one-hot: y f32[", "batch loader:", "csv: x f32[6, 3]"}) {
            assertTrue(s.contains(line), line + " in\n" + s);
        }
        assertEquals(5, s.lines().filter(l -> l.startsWith("ok: ")).count(), s);
    }
}
