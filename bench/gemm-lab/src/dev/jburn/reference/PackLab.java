package dev.jburn.reference;

import dev.jburn.DType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** µs per GemmF32.packA of a 12-row panel from a [kc,784]ᵀ (args: at KC) or a row-major [784,kc] (args: rows KC). */
public final class PackLab {
    public static void main(String[] args) {
        int k = 128, m = 784;
        boolean at = args[0].equals("at");
        int kc = Integer.parseInt(args[1]);
        MemorySegment x = Arena.global().allocate((long) m * 1600 * 4, 64);
        for (long i = 0; i < x.byteSize() / 4; i++) x.setAtIndex(ValueLayout.JAVA_FLOAT, i, i % 7);
        // at: A = Xᵀ of X [kc, 784] (rowStride 1, colStride 784); rows: A [784, kc] row-major
        Gemm.View a = at ? new Gemm.View(x, 0, 1, m) : Gemm.View.rowMajor(x, 0, kc);
        float[] dst = new float[GemmKernels.F32_MR * GemmKernels.AS * 66];
        GemmF32.Scratch s = new GemmF32.Scratch(kc, kc);
        for (int round = 0; round < 8; round++) {
            long t = System.nanoTime(); int n = 0;
            while (System.nanoTime() - t < 300_000_000L) {
                for (int ip = 0; ip < 65; ip++) GemmF32.packA(DType.F32, a, ip * 12, 12, 0, kc, dst, ip * 12 * GemmKernels.AS, s);
                n += 65;
            }
            if (round >= 5) System.out.printf("%s kc=%d: %.3f us per 12-row panel%n", args[0], kc, (System.nanoTime() - t) / 1e3 / n);
        }
    }
}
