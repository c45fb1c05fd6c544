package dev.jburn.vulkan;

import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.List;
import java.util.Optional;

/**
 * Runs a Jit fusion group ({@link Prim.Fused}) as one shader: an element-wise chain becomes one
 * {@link ElementwiseKernel}, a chain ending in a reduction one {@link ReductionKernel}. Used as
 * the interpreter's node runner ({@code Interpreter.execute(..., runner)}); declines (returns
 * {@code null}) for every other node and for groups the emitter cannot express here, which the
 * interpreter then runs op by op through the backend.
 */
final class FusedGraphs implements dev.jburn.graph.Interpreter.NodeRunner {
    private final ElementwiseKernels kernels;

    FusedGraphs(ElementwiseKernels kernels) { this.kernels = kernels; }

    @Override
    public List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Optional<ElementwiseKernel> ew = ElementwiseKernel.fused(f.body());
        Buffer out = null;
        if (ew.isPresent()) {
            out = kernels.run("fused", ew.get(), inputs);
        } else {
            Optional<ReductionKernel> red = ReductionKernel.fused(f.body());
            if (red.isPresent()) out = kernels.reduce("fused", red.get(), inputs);
        }
        return out == null ? null : List.of(out);
    }
}
