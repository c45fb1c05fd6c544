package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * WinogradConvF32.run by F(2×2, 3×3) against F(4×4, 3×3) on the ResNet-like conv ([8,64,56,56]·[64,64,3,3], same
 * padding, NCHW), alternating bursts in one JVM on two threads: args rounds. Prints the median time of each and the
 * median of the rounds' time ratios F(4×4) ÷ F(2×2).
 */
public final class Winograd4Lab {
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        ConvSpec same = new ConvSpec(new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        ConvGeometry g = new ConvGeometry(Shape.of(8, 64, 56, 56), Shape.of(64, 64, 3, 3), same);
        Random r = new Random(3);
        MemorySegment x = Arena.global().allocate(8L * 64 * 56 * 56 * 4, 64), k = Arena.global().allocate(64L * 64 * 9 * 4, 64);
        MemorySegment y = Arena.global().allocate(8L * 64 * 56 * 56 * 4, 64);
        for (long i = 0; i < x.byteSize() / 4; i++) x.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        for (long i = 0; i < k.byteSize() / 4; i++) k.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        Parallel par = new Parallel(2, 1);
        double[] t2 = new double[rounds], t4 = new double[rounds], ratio = new double[rounds];
        for (int round = -3; round < rounds; round++) {
            for (int m : new int[] {2, 4}) {
                long best = Long.MAX_VALUE;
                for (int i = 0; i < 10; i++) {
                    long t = System.nanoTime();
                    if (!WinogradConvF32.run(g, x, k, y, par, m)) throw new IllegalStateException("declined m=" + m);
                    best = Math.min(best, System.nanoTime() - t);
                }
                if (round >= 0) { if (m == 2) t2[round] = best / 1e6; else t4[round] = best / 1e6; }
            }
            if (round >= 0) ratio[round] = t4[round] / t2[round];
        }
        java.util.Arrays.sort(t2); java.util.Arrays.sort(t4); java.util.Arrays.sort(ratio);
        System.out.printf("F(2x2) %.2f ms, F(4x4) %.2f ms (medians of the rounds' best of 10); F(4x4) / F(2x2) time %.3f (%.3f-%.3f)%n",
                t2[rounds / 2], t4[rounds / 2], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
        par.shutdown();
    }
}
