package dev.jburn.reference;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shared helpers for the Jit tests: exact comparison of jit and eager results, graph queries. */
final class JitTestSupport {
    private JitTestSupport() {}

    /** Per-pass verification on, as every Jit test compiles. */
    static final JitOptions VERIFY = JitOptions.defaults().withVerifyEachPass(true);

    static final Engine CPU = Engine.select("cpu");

    /**
     * Runs {@code f} eagerly, compiled with the passes and compiled without them; all three must
     * agree bit for bit (the same kernels run on the same data).
     */
    static CompiledFunction assertJitEqualsEager(String what, Function<List<Tensor>, List<Tensor>> f, Tensor... inputs) {
        List<Tensor> eager = f.apply(List.of(inputs));
        CompiledFunction optimized = Jit.compileList(f, VERIFY);
        assertSame(what, eager, optimized.apply(List.of(inputs)));
        CompiledFunction plain = Jit.compileList(f, VERIFY.withOptimize(false));
        assertSame(what + " (no passes)", eager, plain.apply(List.of(inputs)));
        assertSame(what + " (cached)", eager, optimized.apply(List.of(inputs)));
        assertEquals(1, optimized.traceCount(), what + ": one trace");
        return optimized;
    }

    static void assertSame(String what, List<Tensor> expected, List<Tensor> actual) {
        assertEquals(expected.size(), actual.size(), what + ": number of outputs");
        for (int i = 0; i < expected.size(); i++) assertSame(what + " output " + i, expected.get(i), actual.get(i));
    }

    /** Same dtype, shape and elements, bit for bit (NaN equal to NaN). */
    static void assertSame(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.dtype(), actual.dtype(), what + ": dtype");
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        if (expected.dtype().isFloat()) {
            double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
            long[] eb = new long[e.length], ab = new long[a.length];
            for (int i = 0; i < e.length; i++) eb[i] = Double.doubleToLongBits(e[i]);
            for (int i = 0; i < a.length; i++) ab[i] = Double.doubleToLongBits(a[i]);
            assertArrayEquals(eb, ab, () -> what + ": expected " + expected + " got " + actual);
        } else {
            assertArrayEquals(expected.toLongArray(), actual.toLongArray(), () -> what + ": expected " + expected + " got " + actual);
        }
    }

    /** Nodes whose prim matches {@code p}, inside fused groups too (fusion moves nodes into their bodies). */
    static long count(Graph g, Predicate<Prim> p) {
        long n = 0;
        for (Node node : g.nodes()) {
            if (p.test(node.prim())) n++;
            if (node.prim() instanceof Prim.Fused f) n += count(f.body(), p);
        }
        return n;
    }

    static long count(Graph g, Class<? extends Prim> kind) { return count(g, kind::isInstance); }
}
