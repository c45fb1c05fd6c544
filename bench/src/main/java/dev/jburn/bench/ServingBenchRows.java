package dev.jburn.bench;

/** The request rows of {@link ServingBench}: 64 fixed rows of 784 pixels in [0, 1), cycled. */
final class ServingBenchRows {
    private ServingBenchRows() {}

    private static final float[][] ROWS = new float[64][784];

    static {
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        for (float[] row : ROWS) for (int i = 0; i < row.length; i++) row[i] = (float) r.nextDouble();
    }

    static float[] row(int k) { return ROWS[Math.floorMod(k, ROWS.length)]; }
}
