package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.Jit;

/** The README's tour of the tensor API, runnable: {@code ./jburn tour}. Keep it in step with README.md. */
public final class Tour {
    private Tour() {}

    public static void main(String[] args) {
        // show("expr", value) prints "expr ==> value", as jshell shows a result.
        // Creation: Java arrays pick the dtype (float -> f32, int -> s32, ...); or say it.
        Tensor a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor i = Tensor.iota(Shape.of(2, 3), DType.S32);
        Tensor u8 = Tensor.fromArray(new int[] {250, 251}, DType.U8);

        // Element-wise with NumPy broadcasting and Nx promotion; Java numbers are weakly typed.
        show("a.add(i)", a.add(i));                      // f32[2,3]: s32 + f32 -> f32
        show("u8.add(10)", u8.add(10));                    // u8[2] [4, 5]: wraps, stays u8
        show("a.multiply(Tensor.of(10f, 20f, 30f)).divide(2)", a.multiply(Tensor.of(10f, 20f, 30f)).divide(2)); // row vector broadcasts
        show("a.greater(3).select(a, a.negate())", a.greater(3).select(a, a.negate())); // pred selects

        // Reductions over axes (negative axes count from the end), arg reductions, scans, sorting.
        show("a.sum(-1)", a.sum(-1));                     // f32[2] [6.0, 15.0]
        show("a.mean()", a.mean());                      // f32 3.5
        show("a.argmax(1)", a.argmax(1));                   // s32[2] [2, 2]
        show("Tensor.of(3f, Float.NaN, -1f).sort()", Tensor.of(3f, Float.NaN, -1f).sort()); // NaN sorts last

        // Shapes and indexing.
        show("a.transpose().reshape(3, 2).slice(new int[] {1, 0}, new int[] {2, 2})", a.transpose().reshape(3, 2).slice(new int[] {1, 0}, new int[] {2, 2}));
        show("a.take(Tensor.of(1, 0), 0)", a.take(Tensor.of(1, 0), 0));
        show("a.dot(a.transpose())", a.dot(a.transpose()));          // f32[2,2] [[14, 32], [32, 77]]

        // Random numbers from explicit keys: the same key gives the same numbers on every engine.
        Prng.Sample s = Prng.normal(Prng.key(42), Shape.of(3), DType.F32, 0, 1);
        show("s.values()", s.values());

        // Compile a function: traced once per input signature, optimized (fused), cached.
        var f = Jit.compile(x -> x.multiply(x).add(1.0).sum());
        show("f.apply(a)", f.apply(a));                    // f32 97.0

        // Gradients: reverse mode over the same graph IR, eagerly or inside Jit.
        show("Autodiff.grad(x -> x.multiply(x).sum()).apply(a)", Autodiff.grad(x -> x.multiply(x).sum()).apply(a)); // 2a

        // Memory: tensors made in a scope are freed when it closes, except what you keep. (Forgotten tensors
        // are freed too: the host budget, -Djburn.maxHostBytes, collects them before it ever refuses.)
        Tensor kept;
        try (var scope = Tensor.scope()) {
            Tensor tmp = a.exp();
            kept = scope.keep(tmp.sum());
        }
        show("kept.item()", kept.item());
    }

    private static void show(String expr, Object value) { Shown.print(System.out, "", expr, value); }
}
