package dev.jburn.vulkan;

import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Runs a Jit fusion group ({@link Prim.Fused}) as one shader: an element-wise chain becomes one
 * {@link ElementwiseKernel}, a chain ending in a reduction one {@link ReductionKernel}. Used as
 * the interpreter's node runner ({@code Interpreter.execute(..., runner)}); declines (returns
 * {@code null}) for every other node and for groups the emitter cannot express here, which the
 * interpreter then runs op by op through the backend.
 */
final class FusedGraphs implements dev.jburn.graph.Interpreter.NodeRunner {
    private final ElementwiseKernels kernels;
    /** The kernel IR of each fusion body, built once per compiled graph rather than on every call. */
    private final Map<Graph, Optional<Object>> irs = Collections.synchronizedMap(new WeakHashMap<>());

    FusedGraphs(ElementwiseKernels kernels) { this.kernels = kernels; }

    @Override
    public List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Optional<Object> ir = irs.computeIfAbsent(f.body(), FusedGraphs::ir);
        Buffer out = switch (ir.orElse(null)) {
            case ElementwiseKernel ew -> kernels.run("fused", ew, inputs);
            case ReductionKernel red -> kernels.reduce("fused", red, inputs);
            case null, default -> null;
        };
        return out == null ? null : List.of(out);
    }

    /** An element-wise chain's kernel, else a chain ending in a reduction's, else empty. */
    private static Optional<Object> ir(Graph body) {
        Optional<ElementwiseKernel> ew = ElementwiseKernel.fused(body);
        if (ew.isPresent()) return Optional.of(ew.get());
        return ReductionKernel.fused(body).map(r -> r);
    }
}
