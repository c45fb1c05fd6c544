package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link LaneSums}: lanes added in lane order, whatever the JIT did with the caller. */
class LaneSumsTest {
    @Test
    void lanesAreAddedInLaneOrder() {
        int fl = FloatVector.SPECIES_PREFERRED.length(), dl = DoubleVector.SPECIES_PREFERRED.length();
        // large values that cancel next to small ones: a tree order and the lane order give different sums
        float[] f = new float[fl];
        double[] d = new double[dl];
        for (int i = 0; i < fl; i++) f[i] = i % 4 == 0 ? 1e8f : i % 4 == 2 ? -1e8f : 1.5f + i;
        for (int i = 0; i < dl; i++) d[i] = i % 4 == 0 ? 1e17 : i % 4 == 2 ? -1e17 : 1.5 + i;
        FloatVector fv = FloatVector.fromArray(FloatVector.SPECIES_PREFERRED, f, 0);
        DoubleVector dv = DoubleVector.fromArray(DoubleVector.SPECIES_PREFERRED, d, 0);
        for (int round = 0; round < 50_000; round++) { // the same bits before and after C2 compiles the caller
            float fs = f[0];
            for (int i = 1; i < fl; i++) fs += f[i];
            double ds = d[0];
            for (int i = 1; i < dl; i++) ds += d[i];
            assertEquals(Float.floatToRawIntBits(fs), Float.floatToRawIntBits(LaneSums.inOrder(fv)), "f32, round " + round);
            assertEquals(Double.doubleToRawLongBits(ds), Double.doubleToRawLongBits(LaneSums.inOrder(dv)), "f64, round " + round);
        }
    }
}
