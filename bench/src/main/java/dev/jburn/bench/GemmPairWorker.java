package dev.jburn.bench;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.HashMap;
import java.util.Map;

/**
 * The JBurn side of {@code bench/gemm_vs_numpy.py}: reads lines {@code "n reps"} from stdin,
 * runs {@code reps} f32 {@code a.dot(b)} of n×n matrices and prints the best GFLOP/s. The
 * script alternates short bursts of this and of numpy, so both see the same machine load.
 */
public final class GemmPairWorker {
    private GemmPairWorker() {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Map<Integer, Tensor[]> operands = new HashMap<>();
        for (String line; (line = in.readLine()) != null; ) {
            String[] p = line.trim().split(" ");
            int n = Integer.parseInt(p[0]), reps = Integer.parseInt(p[1]);
            Tensor[] ab = operands.computeIfAbsent(n, k -> new Tensor[] {
                    Prng.uniformSplit(Prng.key(1), Shape.of(k, k), DType.F32, -1, 1),
                    Prng.uniformSplit(Prng.key(2), Shape.of(k, k), DType.F32, -1, 1)});
            double best = 0;
            for (int r = 0; r < reps; r++) {
                long t = System.nanoTime();
                try (Tensor c = ab[0].dot(ab[1])) {
                    c.size();
                }
                best = Math.max(best, 2.0 * n * n * n / (System.nanoTime() - t));
            }
            System.out.println(best);
            System.out.flush();
        }
    }
}
