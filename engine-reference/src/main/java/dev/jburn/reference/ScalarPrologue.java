package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a fused body's rank-0 prologue (the scalars the fusion pass copied into the group, such as
 * Adam's {@code 1 - β^t}) in plain Java, without a buffer or a kernel call per node: run through the
 * backend, each rank-0 op costs microseconds (a buffer, a dispatch), and every group that reads the scalars
 * computes them.
 *
 * <p>It computes exactly what the backend's kernels compute, or declines: only f32 and f64 values, and only
 * ops whose every kernel gives the same bits — IEEE's correctly rounded {@code + - * /}, negation, absolute
 * value and square root (rounding the double result to f32 is correct rounding for these), and ops that
 * have no vector kernel, for which the backend always runs the same scalar function used here ({@code pow},
 * say). Anything else (an {@code exp}, whose vector and scalar kernels may round differently) declines,
 * and the caller runs the prologue through the backend.
 */
final class ScalarPrologue {
    private ScalarPrologue() {}

    /** The outputs of {@code prologue} as one-element heap segments, or {@code null} where it declines. */
    static MemorySegment[] evaluate(Graph prologue, List<MemorySegment> inputs) {
        Map<Integer, Double> values = new HashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            Value v = prologue.inputs().get(i);
            if (!isFloat(v.dtype())) return null;
            values.put(v.id(), HostElements.getDouble(inputs.get(i), v.dtype(), 0));
        }
        for (Node n : prologue.nodes()) {
            Value out = n.outputs().getFirst();
            if (!isFloat(out.dtype())) return null;
            Double r = switch (n.prim()) {
                case Prim.Constant c -> HostElements.getDouble(MemorySegment.ofArray(c.bytes()), c.dtype(), 0);
                case Prim.Unary u when exact(u.op()) || VectorOps.Unary.of(u.op(), out.dtype()) == null -> {
                    Double x = values.get(n.inputs().getFirst().id());
                    yield x == null || n.inputs().getFirst().dtype() != out.dtype() ? null
                            : UnaryFunctions.onDoubles(u.op(), out.dtype()).applyAsDouble(x);
                }
                case Prim.Binary b when exact(b.op()) || VectorOps.Binary.of(b.op(), out.dtype()) == null -> {
                    Double x = values.get(n.inputs().get(0).id()), y = values.get(n.inputs().get(1).id());
                    yield x == null || y == null || n.inputs().get(0).dtype() != out.dtype() ? null
                            : BinaryFunctions.onDoubles(b.op(), out.dtype()).applyAsDouble(x, y);
                }
                default -> null;
            };
            if (r == null) return null;
            values.put(out.id(), out.dtype() == DType.F32 ? (double) (float) r.doubleValue() : r);
        }
        MemorySegment[] out = new MemorySegment[prologue.outputs().size()];
        for (int k = 0; k < out.length; k++) {
            Value v = prologue.outputs().get(k);
            out[k] = MemorySegment.ofArray(new long[1]);
            HostElements.setDouble(out[k], v.dtype(), 0, values.get(v.id()));
        }
        return out;
    }

    private static boolean isFloat(DType t) { return t == DType.F32 || t == DType.F64; }

    private static boolean exact(UnaryOp op) { return op == UnaryOp.NEGATE || op == UnaryOp.ABS || op == UnaryOp.SQRT; }

    private static boolean exact(BinaryOp op) {
        return op == BinaryOp.ADD || op == BinaryOp.SUBTRACT || op == BinaryOp.MULTIPLY || op == BinaryOp.DIVIDE;
    }
}
