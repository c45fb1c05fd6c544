package dev.jburn.reference;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * compare.py's JBurn side: reads lines {@code "m k n reps [at]"}, runs reps {@code Gemm.sgemm} C = A·B (F32,
 * row-major native operands; {@code at}: A stored transposed) on -Djburn.threads (2) threads and prints each call's ns.
 */
public final class GemmWorker {
    public static void main(String[] args) throws Exception {
        int threads = Integer.getInteger("jburn.threads", 2);
        Parallel par = new Parallel(threads, 1L << 18);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Map<String, MemorySegment[]> ops = new HashMap<>();
        for (String line; (line = in.readLine()) != null; ) {
            String[] p = line.trim().split(" ");
            int m = Integer.parseInt(p[0]), k = Integer.parseInt(p[1]), n = Integer.parseInt(p[2]), reps = Integer.parseInt(p[3]);
            MemorySegment[] s = ops.computeIfAbsent(m + "," + k + "," + n, key -> {
                Random r = new Random(7);
                MemorySegment a = Arena.global().allocate((long) m * k * 4, 64), b = Arena.global().allocate((long) k * n * 4, 64);
                for (long i = 0; i < (long) m * k; i++) a.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
                for (long i = 0; i < (long) k * n; i++) b.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
                return new MemorySegment[] {a, b, Arena.global().allocate((long) m * n * 4, 64)};
            });
            boolean at = p.length > 4 && p[4].equals("at");
            Gemm.View a = at ? new Gemm.View(s[0], 0, 1, m) : Gemm.View.rowMajor(s[0], 0, k), b = Gemm.View.rowMajor(s[1], 0, n), c = Gemm.View.rowMajor(s[2], 0, n);
            StringBuilder out = new StringBuilder();
            for (int r = 0; r < reps; r++) {
                long t = System.nanoTime();
                Gemm.sgemm(m, n, k, a, b, c, false, par);
                out.append(System.nanoTime() - t).append(' ');
            }
            System.out.println(out.toString().trim());
            System.out.flush();
        }
    }
}
