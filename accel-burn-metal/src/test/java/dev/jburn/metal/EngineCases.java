package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Eager ops and Jit functions run on the metal engine and on the cpu engine, compared: the same cases
 * on Linux ({@link MetalBackendHostRunTest}, kernels run by clang on the CPU) and on a Mac
 * ({@link MetalOnMacTest}, on the GPU). Broadcasts of every kind, a rank-0 operand, s32, f16, select,
 * contiguous, strided and full reductions, a transpose, two fused groups, a matrix product, movement
 * (concatenate, pad, slice, reverse), an argmax, a take, a max pool and its gradient, and one f64 op
 * that the cpu engine runs ({@link #FALLBACKS}).
 */
final class EngineCases {
    /** What the cases hand to the cpu engine: the f64 add, once. */
    static final Map<String, Long> FALLBACKS = Map.of("add:f64", 1L);

    /** One function of cpu tensors, run as it is and on copies of its inputs on the metal engine. */
    record Case(String label, Function<List<Tensor>, Tensor> fn, List<Tensor> inputs) {}

    private EngineCases() {}

    /** The cases every metal run compares. */
    static List<Case> common(Random rnd) {
        Tensor a = random(rnd, 3, 4), b = random(rnd, 3, 4), row = random(rnd, 1, 4), col = random(rnd, 3, 1);
        Tensor cube = random(rnd, 2, 3, 4);
        Tensor ia = a.multiply(100.0).asType(DType.S32), ib = b.multiply(10.0).add(20.0).asType(DType.S32);
        Tensor d = Tensor.of(1.5, -2.25, 3.0), half = Tensor.scalar(0.5f);
        CompiledFunction fused = Jit.compileList(xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2)).exp()));
        CompiledFunction fusedSum = Jit.compileList(xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0).sum(1)));
        return List.of(
                new Case("add", xs -> xs.get(0).add(xs.get(1)), List.of(a, b)),
                new Case("add, a row broadcast", xs -> xs.get(0).add(xs.get(1)), List.of(a, row)),
                new Case("subtract, a column broadcast", xs -> xs.get(0).subtract(xs.get(1)), List.of(a, col)),
                new Case("multiply by a rank-0 tensor", xs -> xs.get(0).multiply(xs.get(1)), List.of(a, half)),
                new Case("exp", xs -> xs.get(0).exp(), List.of(a)),
                new Case("s32 divide and negate", xs -> xs.get(0).divide(xs.get(1)).negate(), List.of(ia, ib)),
                new Case("f16 multiply", xs -> xs.get(0).asType(DType.F16).multiply(xs.get(1).asType(DType.F16)), List.of(a, b)),
                new Case("greater, where", xs -> Tensor.where(xs.get(0).greater(xs.get(1)), xs.get(0), xs.get(1)), List.of(a, b)),
                new Case("sum over the last axis", xs -> xs.get(0).sum(2), List.of(cube)),
                new Case("sum over axes 0 and 2 (strided)", xs -> xs.get(0).sum(0, 2), List.of(cube)),
                new Case("max over everything", xs -> xs.get(0).max(), List.of(cube)),
                new Case("any of a comparison", xs -> xs.get(0).greater(0.5).any(1).asType(DType.F32), List.of(a)),
                new Case("transpose [2,0,1]", xs -> xs.get(0).transpose(2, 0, 1), List.of(cube)),
                new Case("jit exp(a*b+row)", xs -> fused.apply(xs).getFirst(), List.of(a, b, row)),
                new Case("jit sum(max(a-b, 0), 1)", xs -> fusedSum.apply(xs).getFirst(), List.of(a, b)),
                // MPS on a Mac; on Linux ClangGpu.multiply stands in for it (the backend's wiring, not MPS, is what it checks)
                new Case("matmul", xs -> xs.get(0).matmul(xs.get(1)), List.of(a, random(rnd, 4, 3))),
                new Case("f64 add (the cpu engine's)", xs -> xs.get(0).add(xs.get(0)), List.of(d)),
                // hand-written MSL: movement, indexing, arg-reductions, windows (and the window max the front end decomposes into slices)
                new Case("concatenate, pad, slice, reverse", xs -> Tensor.concatenate(0, xs.get(0), xs.get(1)).pad(0.5, new int[][] {{1, -1, 1}, {0, 2, 0}})
                        .slice(new int[] {1, 0}, new int[] {8, 5}, new int[] {2, 1}).reverse(1), List.of(a, b)),
                new Case("argmax along axis 1, ties high", xs -> xs.get(0).argmax(1, false, true).asType(DType.F32), List.of(cube)),
                new Case("take rows", xs -> xs.get(0).take(Tensor.of(2, 0, 2).to(xs.get(0).engine()), 0), List.of(a)),
                new Case("max pool 2x2 and its gradient", xs -> {
                    WindowOptions pool = WindowOptions.defaults().withStrides(2, 2);
                    return dev.jburn.autodiff.Autodiff.grad((Tensor t) -> t.windowMax(new int[] {2, 2}, pool).multiply(t.windowMax(new int[] {2, 2}, pool)).sum())
                            .apply(xs.get(0));
                }, List.of(random(rnd, 4, 6))));
    }

    /**
     * Runs {@code cases} on {@code metal} and the cpu engine; prints and counts those that differ by more
     * than {@code tolerance} (relative, at least absolute for values below 1) or that throw.
     */
    static int mismatches(Engine metal, List<Case> cases, double tolerance) {
        int bad = 0;
        for (Case c : cases) {
            double[] want = c.fn().apply(c.inputs()).toDoubleArray();
            String diff;
            try {
                List<Tensor> onMetal = new ArrayList<>();
                for (Tensor t : c.inputs()) onMetal.add(t.to(metal));
                double[] got = c.fn().apply(onMetal).toDoubleArray();
                diff = want.length != got.length ? want.length + " elements expected, got " + got.length : null;
                for (int i = 0; diff == null && i < want.length; i++) {
                    if (!(Math.abs(want[i] - got[i]) <= tolerance * Math.max(1, Math.abs(want[i])))) {
                        diff = "at " + i + ": cpu " + want[i] + ", metal " + got[i];
                    }
                }
            } catch (RuntimeException e) {
                diff = "failed: " + e;
            }
            if (diff != null) {
                bad++;
                System.out.println("MISMATCH " + c.label() + " " + diff);
            }
        }
        return bad;
    }

    /** {@code after - before}, key by key, without the keys that did not change. */
    static Map<String, Long> added(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new HashMap<>();
        after.forEach((k, v) -> {
            long n = v - before.getOrDefault(k, 0L);
            if (n != 0) d.put(k, n);
        });
        return d;
    }

    private static Tensor random(Random rnd, int... dims) {
        int n = 1;
        for (int x : dims) n *= x;
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = rnd.nextFloat() * 2 - 1;
        return Tensor.of(v).reshape(dims).to(Engine.select("cpu"));
    }
}
