package dev.jburn.reference;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;

/**
 * The sum of a vector's lanes in lane order, {@code ((v0 + v1) + v2) + ...}, the same bits whether or not C2 has
 * compiled the caller. {@code reduceLanes(ADD)} leaves the order open: compiled, it adds in a tree; interpreted (or
 * in C1 code, or after a deoptimization) it adds in lane order, so one sum could give two results in one run, and
 * which one depended on JIT timing. The reductions and dot products that end in a lane sum use this instead.
 */
final class LaneSums {
    private LaneSums() {}

    private static final int FL = FloatVector.SPECIES_PREFERRED.length(), DL = DoubleVector.SPECIES_PREFERRED.length();

    /** The lanes of {@code v} (of the preferred species) added in lane order. */
    static float inOrder(FloatVector v) {
        float[] t = new float[FL];
        v.intoArray(t, 0);
        float s = t[0];
        for (int i = 1; i < FL; i++) s += t[i];
        return s;
    }

    /** The lanes of {@code v} (of the preferred species) added in lane order. */
    static double inOrder(DoubleVector v) {
        double[] t = new double[DL];
        v.intoArray(t, 0);
        double s = t[0];
        for (int i = 1; i < DL; i++) s += t[i];
        return s;
    }
}
