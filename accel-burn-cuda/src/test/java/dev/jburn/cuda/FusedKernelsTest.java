package dev.jburn.cuda;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jit fusion groups become one generated kernel each (checked without a GPU: traced on the cpu
 * engine, planned by {@link GeneratedKernels#prepare}). The sources are written to
 * {@code target/fused-kernels} for compiling with nvcc where there is no GPU.
 */
class FusedKernelsTest {
    private static final Engine CPU = Engine.select("cpu");

    private static GeneratedKernels.Launchable plan(String name, Function<List<Tensor>, List<Tensor>> fn, int inputs) throws Exception {
        CompiledFunction f = Jit.compileList(fn);
        try (var _ = Tensor.scope()) {
            List<Tensor> in = new java.util.ArrayList<>();
            for (int i = 0; i < inputs; i++) in.add(Tensor.of(new float[] {1, 2, 3, 4, 5, 6}).reshape(2, 3).to(CPU));
            f.apply(in);
        }
        Graph g = f.graph();
        List<Node> fused = g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused).toList();
        assertEquals(1, fused.size(), name + ": one fusion group expected in\n" + g);
        Optional<GeneratedKernels.Launchable> l = GeneratedKernels.prepare(((Prim.Fused) fused.getFirst().prim()).body());
        assertTrue(l.isPresent(), name + ": the emitter could not write the group as one kernel");
        Path dir = Path.of("target", "fused-kernels");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".cu"), l.get().source().code());
        return l.get();
    }

    @Test
    void multiplyAddIsOneElementwiseKernel() throws Exception {
        GeneratedKernels.Launchable k = plan("mul_add", xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))), 3);
        assertEquals(6, k.outputs());
        assertTrue(!k.reduction());
    }

    @Test
    void benchChainWithScalarConstantsIsOneKernel() throws Exception {
        GeneratedKernels.Launchable k = plan("chain", xs -> List.of(xs.get(0).multiply(0.5).add(1.0).exp().multiply(xs.get(0))), 1);
        assertTrue(!k.reduction());
    }

    @Test
    void sumOfAProductIsOneReductionKernel() throws Exception {
        GeneratedKernels.Launchable k = plan("sum_mul", xs -> List.of(xs.get(0).multiply(xs.get(1)).sum(new int[] {1})), 2);
        assertTrue(k.reduction());
        assertEquals(2, k.outputs());
    }
}
