package dev.jburn.reference;

import java.util.Random;

/**
 * ChannelsLastTile.run6Pair against two run6 calls, alternating bursts in one JVM: args steps rounds. Operands as the
 * F(4×4) forward lays them out (A rows RUN_STRIDE apart, two column blocks of B steps·COLS apart); prints GFLOP/s each.
 */
public final class TilePairLab {
    public static void main(String[] args) {
        int steps = Integer.parseInt(args[0]), rounds = Integer.parseInt(args[1]);
        int W = ChannelsLastTile.COLS, RS = ChannelsLastTile.RUN_STRIDE;
        Random r = new Random(1);
        float[] a = new float[6 * RS + steps];
        for (int i = 0; i < a.length; i++) a[i] = r.nextFloat();
        float[] b = new float[2 * steps * W];
        for (int i = 0; i < b.length; i++) b[i] = r.nextFloat();
        float[] acc = new float[6 * 2 * W];
        double flops = 2.0 * 6 * 2 * W * steps;
        double[] single = new double[rounds], pair = new double[rounds];
        for (int round = -3; round < rounds; round++) {
            for (int v = 0; v < 2; v++) {
                long t = System.nanoTime(); long n = 0;
                while (System.nanoTime() - t < 100_000_000L) {
                    for (int i = 0; i < 1000; i++) {
                        if (v == 0) {
                            ChannelsLastTile.run6(a, 0, steps, b, 0, acc, 0, 2 * W);
                            ChannelsLastTile.run6(a, 0, steps, b, steps * W, acc, W, 2 * W);
                        } else {
                            ChannelsLastTile.run6Pair(a, 0, steps, b, 0, steps * W, acc, 0, W, 2 * W);
                        }
                    }
                    n += 1000;
                }
                double g = flops * n / (System.nanoTime() - t);
                if (round >= 0) { if (v == 0) single[round] = g; else pair[round] = g; }
            }
        }
        double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++) ratio[i] = pair[i] / single[i];
        java.util.Arrays.sort(ratio); java.util.Arrays.sort(single); java.util.Arrays.sort(pair);
        System.out.printf("steps %d: two run6 %.1f GFLOP/s, run6Pair %.1f (medians); pair ÷ single speed median %.3f (%.3f-%.3f)%n",
                steps, single[rounds / 2], pair[rounds / 2], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
    }
}
