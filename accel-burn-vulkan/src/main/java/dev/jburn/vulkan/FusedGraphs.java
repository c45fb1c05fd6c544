package dev.jburn.vulkan;

import dev.jburn.graph.ChainedFusedGroups;
import dev.jburn.graph.Graph;
import dev.jburn.graph.GraphRewriteCache;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.ElementwiseOutputs;
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

    /**
     * {@code g} with element-wise groups that feed another element-wise group combined with it
     * ({@link ChainedFusedGroups}: Adam's {@code m'}, {@code v'} and update become one kernel of three outputs
     * instead of three dispatches); cached per graph. {@code -Djburn.vulkan.chainGroups=false} leaves graphs as they are.
     */
    Graph rewrite(Graph g) { return chain ? chained.get(g) : g; }

    /** Whether graphs are rewritten (tests compare both ways). */
    volatile boolean chain = !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.chainGroups"));
    private final GraphRewriteCache chained = new GraphRewriteCache(g -> ChainedFusedGroups.rewrite(g, new ChainedFusedGroups.Rules() {
        @Override public boolean consumer(Node n) { return runsAsOneKernel(n); }

        @Override public boolean producer(Node p, Node consumer) { return runsAsOneKernel(p); }
    }));

    /** Whether {@code n} is a fused element-wise group this engine emits as one kernel. */
    private boolean runsAsOneKernel(Node n) {
        return n.prim() instanceof Prim.Fused f && irs.computeIfAbsent(f.body(), FusedGraphs::ir).orElse(null) instanceof ElementwiseKernel k
                && kernels.runs(k);
    }

    @Override
    public List<Buffer> run(Node node, List<Operand> inputs, List<Boolean> reusable) {
        if (!(node.prim() instanceof Prim.Fused f)) return null;
        Optional<Object> ir = irs.computeIfAbsent(f.body(), FusedGraphs::ir);
        if (ir.orElse(null) instanceof ElementwiseOutputs outs) {
            List<Buffer> r = kernels.run("fused", outs, inputs);
            return r != null ? r : eachOutput(f.body(), inputs);
        }
        Buffer out = switch (ir.orElse(null)) {
            case ElementwiseKernel ew -> kernels.run("fused", ew, inputs);
            case ReductionKernel red -> kernels.reduce("fused", red, inputs);
            case null, default -> null;
        };
        return out == null ? null : List.of(out);
    }

    /** A combined group's outputs, each by its own kernel (when the one kernel cannot run); null if one cannot either. */
    private List<Buffer> eachOutput(Graph body, List<Operand> inputs) {
        List<Buffer> results = new java.util.ArrayList<>();
        for (dev.jburn.graph.Value v : body.outputs()) {
            Buffer b = ElementwiseKernel.fusedAt(body, v).map(k -> (Buffer) kernels.run("fused", k, inputs)).orElse(null);
            if (b == null) {
                results.forEach(Buffer::release);
                return null;
            }
            results.add(b);
        }
        return results;
    }

    /** An element-wise chain's kernel (one output or several of one shape), else a chain ending in a reduction's, else empty. */
    private static Optional<Object> ir(Graph body) {
        Optional<ElementwiseKernel> ew = ElementwiseKernel.fused(body);
        if (ew.isPresent()) return Optional.of(ew.get());
        Optional<ElementwiseOutputs> outs = ElementwiseKernel.fusedOutputs(body);
        if (outs.isPresent()) return Optional.of(outs.get());
        return ReductionKernel.fused(body).map(r -> r);
    }
}
