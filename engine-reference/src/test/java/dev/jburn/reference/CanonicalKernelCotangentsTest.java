package dev.jburn.reference;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Padding;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.jburn.reference.ShapeTestSupport.randomFloat;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The kernel cotangent of a canonical-layout (NCHW, OIHW) conv, Jit-compiled on the cpu engine: its transposes and conv
 * become one fused node ({@link CanonicalKernelCotangents}) and the result matches the same gradient computed eagerly in
 * F64 (within 1e-5 of the largest value), over strides, padding (same, valid, explicit and uneven), kernel dilation,
 * odd sizes, one to three spatial axes; NaN and ±Inf in the input give the F64 result's non-finite entries.
 */
class CanonicalKernelCotangentsTest {
    private record Case(int[] x, int[] k, ConvOptions opts) {}

    @Test
    void kernelCotangentsOfCanonicalConvsRunFusedAndMatchF64() {
        Random rnd = new Random(81);
        List<Case> cases = List.of(
                new Case(new int[] {3, 5, 9, 11}, new int[] {7, 5, 3, 3}, ConvOptions.defaults().withPadding(Padding.SAME)),
                new Case(new int[] {2, 16, 14, 13}, new int[] {33, 16, 3, 3}, ConvOptions.defaults().withPadding(Padding.VALID)),
                new Case(new int[] {4, 8, 12, 12}, new int[] {32, 8, 3, 2}, ConvOptions.defaults().withStrides(2, 1)
                        .withPadding(Padding.explicit(new int[][] {{1, 0}, {2, 1}}))),
                new Case(new int[] {2, 6, 15, 10}, new int[] {9, 6, 3, 3}, ConvOptions.defaults().withKernelDilation(2, 1)
                        .withPadding(Padding.SAME)),
                new Case(new int[] {5, 3, 40}, new int[] {20, 3, 5}, ConvOptions.defaults().withPadding(Padding.SAME)),
                new Case(new int[] {1, 4, 6, 5, 7}, new int[] {6, 4, 3, 3, 3}, ConvOptions.defaults().withPadding(Padding.VALID)));
        int i = 0;
        for (Case c : cases) {
            Tensor x = randomFloat(rnd, DType.F32, c.x), k = randomFloat(rnd, DType.F32, c.k);
            if (i++ == 2) { // non-finite input values
                float[] v = x.toFloatArray();
                v[3] = Float.NaN;
                v[v.length / 2] = Float.POSITIVE_INFINITY;
                x = Tensor.of(v).reshape(x.shape());
            }
            Tensor xx = x, kk = k;
            Tensor g = randomFloat(rnd, DType.F32, xx.conv(kk, c.opts).shape().dims());
            CompiledFunction f = Jit.compileList(in -> List.of(
                    Autodiff.grad((Tensor w) -> in.get(0).conv(w, c.opts).multiply(in.get(2)).sum()).apply(in.get(1))));
            Tensor got = f.apply(List.of(x, k, g)).getFirst();
            Tensor want = Autodiff.grad((Tensor w) -> xx.asType(DType.F64).conv(w, c.opts).multiply(g.asType(DType.F64)).sum())
                    .apply(k.asType(DType.F64));
            String what = java.util.Arrays.toString(c.x) + " * " + java.util.Arrays.toString(c.k);
            assertEquals(1, fusedConvs(f.graph()), what + ": one fused kernel cotangent in " + f.graph());
            assertClose(what, want, got);
        }
    }

    @Test
    void withoutVectorKernelsTheGraphStays() {
        CompiledFunction f = Jit.compileList((List<Tensor> in) -> List.of(Autodiff.grad((Tensor w) -> in.get(0)
                .conv(w, ConvOptions.defaults().withPadding(Padding.SAME)).multiply(in.get(2)).sum()).apply(in.get(1))));
        f.apply(List.of(randomFloat(new Random(1), DType.F32, 2, 3, 6, 6), randomFloat(new Random(2), DType.F32, 4, 3, 3, 3),
                randomFloat(new Random(3), DType.F32, 2, 4, 6, 6)));
        Graph g = f.graph();
        assertEquals(1, fusedConvs(g));
        assertSame(g, new CanonicalKernelCotangents(new Parallel(1, Long.MAX_VALUE), false).rewrite(g));
    }

    /** Fused nodes with a conv that the rewrite makes out of {@code g}. */
    private static int fusedConvs(Graph g) {
        Graph r = new CanonicalKernelCotangents(new Parallel(1, Long.MAX_VALUE), true).rewrite(g);
        int n = 0;
        for (Node node : r.nodes()) {
            if (node.prim() instanceof Prim.Fused f && f.body().nodes().stream().anyMatch(b -> b.prim() instanceof Prim.Conv)) n++;
        }
        return n;
    }

    /** Within 1e-5 of the largest |expected|; a non-finite expected value must be matched exactly. */
    private static void assertClose(String what, Tensor expected, Tensor actual) {
        assertEquals(expected.shape(), actual.shape(), what + ": shape");
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        double scale = 1;
        for (double v : e) if (Double.isFinite(v)) scale = Math.max(scale, Math.abs(v));
        List<String> bad = new ArrayList<>();
        for (int i = 0; i < e.length && bad.size() < 5; i++) {
            boolean ok = Double.isFinite(e[i]) ? Math.abs(e[i] - a[i]) <= 1e-5 * scale : Double.compare(e[i], a[i]) == 0;
            if (!ok) bad.add(i + ": " + e[i] + " vs " + a[i]);
        }
        assertTrue(bad.isEmpty(), () -> what + ": " + bad);
    }
}
