package dev.jburn.reference;

import dev.jburn.Shape;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.ConvSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;

/**
 * The channels-last F(2×2, 3×3) form against F(4×4, 3×3) on the small CNN's conv 2 (forward: [128,13,13,32] by 64
 * filters, valid; input cotangent: [128,11,11,64] padded by 2, by 32 filters), alternating bursts in one JVM on two
 * threads: args rounds. Prints each form's median time and the median of the rounds' time ratios F(4×4) ÷ F(2×2).
 */
public final class ChannelsLast4Lab {
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        run("conv 2 forward", Shape.of(128, 13, 13, 32), Shape.of(64, 32, 3, 3), new int[] {0, 0}, rounds);
        run("conv 2 input cotangent", Shape.of(128, 11, 11, 64), Shape.of(32, 64, 3, 3), new int[] {2, 2}, rounds);
    }

    static void run(String what, Shape xs, Shape ks, int[] pad, int rounds) {
        ConvSpec spec = new ConvSpec(new int[] {1, 1}, pad, pad, new int[] {1, 1}, new int[] {1, 1}, 1, 1);
        Random r = new Random(5);
        MemorySegment x = Arena.global().allocate(xs.size() * 4, 64), k = Arena.global().allocate(ks.size() * 4, 64);
        for (long i = 0; i < xs.size(); i++) x.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        for (long i = 0; i < ks.size(); i++) k.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        Parallel par = new Parallel(2, 1);
        double[] t2 = new double[rounds], t4 = new double[rounds], ratio = new double[rounds];
        for (int round = -3; round < rounds; round++) {
            for (int m : new int[] {2, 4}) {
                long best = Long.MAX_VALUE;
                for (int i = 0; i < 10; i++) {
                    long t = System.nanoTime();
                    List<Buffer> out = m == 2 ? ChannelsLastWinogradF32.forward(x, xs, k, ks, null, false, false, spec, par)
                            : ChannelsLastWinograd4x4F32.forward(x, xs, k, ks, null, false, false, spec, par);
                    best = Math.min(best, System.nanoTime() - t);
                    if (out == null) throw new IllegalStateException("declined m=" + m);
                    for (Buffer b : out) b.release();
                }
                if (round >= 0) { if (m == 2) t2[round] = best / 1e6; else t4[round] = best / 1e6; }
            }
            if (round >= 0) ratio[round] = t4[round] / t2[round];
        }
        java.util.Arrays.sort(t2); java.util.Arrays.sort(t4); java.util.Arrays.sort(ratio);
        System.out.printf("%s: F(2x2) %.3f ms, F(4x4) %.3f ms; F(4x4) / F(2x2) time %.3f (%.3f-%.3f)%n",
                what, t2[rounds / 2], t4[rounds / 2], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
        par.shutdown();
    }
}
