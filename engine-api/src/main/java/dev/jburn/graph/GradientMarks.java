package dev.jburn.graph;

import dev.jburn.Tensor;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * Records {@link Prim.GradientMark} nodes for {@code dev.jburn.autodiff} ({@code stopGradient},
 * custom gradients). Outside a trace a mark is the identity on its last input.
 */
public final class GradientMarks {
    private GradientMarks() {}

    /**
     * {@code inputs.getLast()}, marked with {@code mark} in the trace open on this thread (inputs of
     * another engine become constants of the trace); unchanged when nothing is being traced.
     */
    public static Tensor mark(Prim.GradientMark mark, List<Tensor> inputs) {
        Tensor result = inputs.getLast();
        TraceContext ctx = TraceContext.current();
        if (ctx == null) return result;
        List<Operand> ops = new ArrayList<>(inputs.size());
        for (Tensor t : inputs) {
            if (t.engine() != ctx.engine) {
                if (TraceContext.ACCESS.isTracing(t.engine())) return result; // a tensor of another trace: leave it alone
                t = t.to(ctx.engine);
            }
            ops.add(TraceContext.ACCESS.operand(t));
        }
        Buffer out = ctx.backend.record(mark, ops).getFirst();
        return TraceContext.ACCESS.wrap(ctx.engine, out, result.dtype(), result.shape());
    }
}
