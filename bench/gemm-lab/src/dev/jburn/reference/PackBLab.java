package dev.jburn.reference;

import dev.jburn.DType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * µs per GemmF32.packBRows of a kc×nc block of a row-major n×n F32 B, and the bytes a µs that is: args n kc nc.
 * "warm" packs the same block each time (B's rows in cache), "cold" walks the blocks of all of B (as a GEMM does).
 */
public final class PackBLab {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]), kc = Integer.parseInt(args[1]), nc = Integer.parseInt(args[2]);
        MemorySegment b = Arena.global().allocate((long) n * n * 4, 64);
        for (long i = 0; i < (long) n * n; i++) b.setAtIndex(ValueLayout.JAVA_FLOAT, i, i % 7);
        MemorySegment dst = Arena.global().allocate((long) kc * nc * 4, 64);
        Gemm.View v = Gemm.View.rowMajor(b, 0, n);
        GemmF32.Scratch s = new GemmF32.Scratch(kc, nc);
        int blocksK = n / kc, blocksN = n / nc;
        for (int round = 0; round < 10; round++) {
            for (boolean warm : new boolean[] {true, false}) {
                long t = System.nanoTime(); int count = 0;
                while (System.nanoTime() - t < 200_000_000L) {
                    int bk = warm ? 0 : count % blocksK, bn = warm ? 0 : (count / blocksK) % blocksN;
                    GemmF32.packBRows(DType.F32, v, bk * kc, 0, kc, kc, (long) bn * nc, nc, dst, s);
                    count++;
                }
                double us = (System.nanoTime() - t) / 1e3 / count;
                if (round >= 6) System.out.printf("%s n=%d kc=%d nc=%d: %.1f us a block, %.2f GB/s read%n", warm ? "warm" : "cold", n, kc, nc, us, (double) kc * nc * 4 / us / 1e3);
            }
        }
    }
}
