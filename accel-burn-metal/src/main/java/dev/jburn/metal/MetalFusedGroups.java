package dev.jburn.metal;

import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
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
 * Runs a Jit fusion group ({@link Prim.Fused}) as one MSL kernel, as the other GPU engines do: an
 * element-wise chain becomes one {@link ElementwiseKernel}, a chain ending in a reduction one
 * {@link ReductionKernel}. The interpreter's node runner: it declines ({@code null}) every other
 * node, and groups the dialect cannot express (an F64 value inside, {@code expm1}), which the
 * interpreter then runs node by node, each natively or on the cpu engine, counted.
 *
 * <pre>{@code
 * Interpreter.execute(backend, graph, inputs, new boolean[inputs.size()], new MetalFusedGroups(kernels));
 * }</pre>
 */
final class MetalFusedGroups implements Interpreter.NodeRunner {
    private final MetalKernels kernels;
    /** The kernel IR of each fusion body, built once per compiled graph. */
    private final Map<Graph, Optional<Object>> irs = Collections.synchronizedMap(new WeakHashMap<>());

    MetalFusedGroups(MetalKernels kernels) { this.kernels = kernels; }

    @Override
    public List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        MetalChecks.operands("fused", inputs);
        Buffer out = switch (irs.computeIfAbsent(f.body(), MetalFusedGroups::ir).orElse(null)) {
            case ElementwiseKernel ew -> kernels.run("fused", ew, inputs);
            case ReductionKernel red -> kernels.reduce("fused", red, inputs);
            case null, default -> null;
        };
        return out == null ? null : List.of(out);
    }

    /** An element-wise chain's kernel, else a chain ending in a reduction's, else empty (run node by node). */
    private static Optional<Object> ir(Graph body) {
        try {
            Optional<ElementwiseKernel> ew = ElementwiseKernel.fused(body);
            return ew.isPresent() ? Optional.of(ew.get()) : ReductionKernel.fused(body).map(r -> r);
        } catch (RuntimeException e) {
            return Optional.empty(); // a body the kernel IR cannot hold: the interpreter runs it node by node
        }
    }
}
