package dev.jburn.kernels;

import dev.jburn.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * How a general dot becomes one (batched) GEMM {@code [batch, m, k]·[batch, k, n]}: each operand is
 * used in place when its axes are already {@code batch ++ free ++ contract} (A) or
 * {@code batch ++ contract ++ free} (B), or the other way round (then cuBLAS reads it transposed);
 * otherwise it is first permuted into that order. Pure function, tested without a GPU; shared by the
 * CUDA engine (cuBLAS) and the metal engine ({@code MslGemm}).
 *
 * @param permA       permutation making A {@code [batch, m, k]}, or null when A is used in place
 * @param aTransposed A (as used) is stored {@code [batch, k, m]}
 * @param permB       permutation making B {@code [batch, k, n]}, or null when B is used in place
 * @param bTransposed B (as used) is stored {@code [batch, n, k]}
 */
public record DotPlan(int[] permA, boolean aTransposed, int[] permB, boolean bTransposed, long batch, long m, long n, long k) {

    /** The plan for {@code dot(a, contractA, batchA, b, contractB, batchB)}. */
    public static DotPlan of(Shape a, int[] contractA, int[] batchA, Shape b, int[] contractB, int[] batchB) {
        int[] freeA = free(a.rank(), contractA, batchA), freeB = free(b.rank(), contractB, batchB);
        long batch = product(a, batchA), m = product(a, freeA), k = product(a, contractA), n = product(b, freeB);
        int[] permA = null, permB = null;
        boolean aT = false, bT = false;
        boolean batchLeads = leads(batchA) && leads(batchB);
        if (batchLeads && follows(batchA.length, freeA, contractA)) {
            aT = false;
        } else if (batchLeads && follows(batchA.length, contractA, freeA)) {
            aT = true;
        } else {
            permA = concat(batchA, freeA, contractA);
        }
        if (batchLeads && follows(batchB.length, contractB, freeB)) {
            bT = false;
        } else if (batchLeads && follows(batchB.length, freeB, contractB)) {
            bT = true;
        } else {
            permB = concat(batchB, contractB, freeB);
        }
        return new DotPlan(permA, aT, permB, bT, batch, m, n, k);
    }

    /** Axes that are neither contracted nor batch, ascending. */
    public static int[] free(int rank, int[] contract, int[] batch) {
        List<Integer> f = new ArrayList<>();
        outer:
        for (int i = 0; i < rank; i++) {
            for (int c : contract) if (c == i) continue outer;
            for (int c : batch) if (c == i) continue outer;
            f.add(i);
        }
        return f.stream().mapToInt(Integer::intValue).toArray();
    }

    private static boolean leads(int[] batch) {
        for (int i = 0; i < batch.length; i++) if (batch[i] != i) return false;
        return true;
    }

    /** Axes {@code from, from+1, ...} are exactly {@code first} then {@code second}, in the given orders. */
    private static boolean follows(int from, int[] first, int[] second) {
        int ax = from;
        for (int x : first) if (x != ax++) return false;
        for (int x : second) if (x != ax++) return false;
        return true;
    }

    private static long product(Shape s, int[] axes) {
        long p = 1;
        for (int a : axes) p *= s.dim(a);
        return p;
    }

    private static int[] concat(int[]... parts) {
        int n = 0;
        for (int[] p : parts) n += p.length;
        int[] out = new int[n];
        int i = 0;
        for (int[] p : parts) for (int x : p) out[i++] = x;
        return out;
    }
}
