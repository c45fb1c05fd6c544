package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;

/**
 * Several element-wise results of one shape computed by one kernel: {@code kernel}'s nodes (in SSA order, shared by
 * every result) and, per output, the node it stores. A fused node of several outputs (Adam's {@code m'}, {@code v'}
 * and parameter update, combined by {@code ChainedFusedGroups}) becomes one dispatch instead of one per output, and the
 * values each result reads are computed once. Each result is the value its single-output kernel computes, node for
 * node, so the bits are the same. Built by {@link ElementwiseKernel#fusedOutputs}; GLSL source by {@link Emitter#emit(ElementwiseOutputs, Dialect, DeviceFeatures)}.
 *
 * @param kernel  the nodes over the inputs, at the outputs' shape ({@link ElementwiseKernel#outShape})
 * @param results per output, the index of its node
 */
public record ElementwiseOutputs(ElementwiseKernel kernel, List<Integer> results) {
    public ElementwiseOutputs {
        results = List.copyOf(results);
        if (results.size() < 2) throw new IllegalArgumentException("several outputs expected, got " + results.size());
    }

    /** Each output's dtype. */
    public List<DType> outTypes() { return results.stream().map(r -> kernel.nodes().get(r).type()).toList(); }
}
