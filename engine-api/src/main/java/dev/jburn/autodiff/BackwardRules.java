package dev.jburn.autodiff;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.Prim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One backward rule per {@link Prim}: given the node's primal inputs and outputs and the
 * cotangents of its outputs, the cotangents of its inputs, written with ordinary {@link Tensor}
 * ops (so they run eagerly or are recorded into a trace). A {@code null} cotangent means zero
 * (not differentiable there: integer results, comparisons, indices). Prims whose gradient is not
 * built yet throw a {@link JBurnException} when a gradient must flow through them.
 *
 * <p>Ties and kinks: the conventions are listed in one place, the package documentation of
 * {@code dev.jburn.autodiff} (e.g. {@code max}/{@code min}, binary and reductions, split a tie evenly).
 */
final class BackwardRules {
    private BackwardRules() {}

    /** Cotangents of {@code in} (one per input, {@code null} = zero). {@code g}: one per output, {@code null} = zero. */
    static List<Tensor> backward(Prim prim, List<Tensor> in, List<Tensor> out, List<Tensor> g) {
        Tensor g0 = g.getFirst();
        Tensor x = in.isEmpty() ? null : in.getFirst();
        return switch (prim) {
            case Prim.Constant c -> List.of();
            case Prim.Iota i -> List.of();
            case Prim.Unary u -> one(ElementwiseRules.unary(u.op(), x, out.getFirst(), g0));
            case Prim.Binary b -> ElementwiseRules.binary(b.op(), x, in.get(1), out.getFirst(), g0);
            case Prim.Select s -> Arrays.asList(null,
                    unbroadcast(in.get(0).select(g0, 0.0), in.get(1).shape()),
                    unbroadcast(in.get(0).select(0.0, g0), in.get(2).shape()));
            case Prim.Cast c -> one(x.dtype().isFloat() && c.to().isFloat() ? g0.asType(x.dtype()) : null);
            case Prim.Reduce r -> one(StructuralRules.reduce(r, x, out.getFirst(), g0));
            case Prim.ArgReduce a -> none(1);
            case Prim.Cumulative c -> one(StructuralRules.cumulative(c, x, out.getFirst(), g0));
            case Prim.Transpose t -> one(g0.transpose(inverse(t.perm())));
            case Prim.Broadcast b -> one(StructuralRules.unbroadcastAxes(g0, x.shape(), b.axes()));
            case Prim.Slice s -> one(StructuralRules.slice(s, x.shape(), g0));
            case Prim.PutSlice p -> Arrays.asList(
                    g0.putSlice(p.starts(), zeros(in.get(1), in.get(1).shape())),
                    g0.slice(p.starts(), in.get(1).shape().dims()));
            case Prim.Pad p -> StructuralRules.pad(p, x, g0);
            case Prim.Reverse r -> one(g0.reverse(r.axes()));
            case Prim.Concatenate c -> StructuralRules.concatenate(c.axis(), in, g0);
            case Prim.Gather ga -> Arrays.asList(StructuralRules.gather(ga.axes(), x, in.get(1), g0), null);
            case Prim.IndexedUpdate u -> StructuralRules.indexedUpdate(u, in, g0);
            case Prim.Sort s -> one(g0.takeAlongAxis(x.argsort(s.axis(), s.descending()).argsort(s.axis()), s.axis()));
            case Prim.Argsort s -> none(1);
            case Prim.Dot d -> StructuralRules.dot(d, x, in.get(1), g0);
            case Prim.Conv c -> x.dtype().isFloat() ? ConvRules.conv(c, x, in.get(1), g0) : none(2);
            case Prim.WindowReduce w -> one(WindowRules.windowReduce(w, x, g0));
            case Prim.WindowScatter w -> WindowRules.windowScatter(w, x, in.get(1), in.get(2), g0);
            case Prim.Cholesky c -> one(LinalgRules.cholesky(x, out.getFirst(), g0));
            case Prim.TriangularSolve t -> LinalgRules.triangularSolve(t, x, in.get(1), out.getFirst(), g0);
            case Prim.Lu l -> LinalgRules.lu(x, out.get(0), out.get(1), out.get(2), g.get(1), g.get(2));
            case Prim.Qr q -> LinalgRules.qr(q, x, out.get(0), out.get(1), g.get(0), g.get(1));
            case Prim.Eigh e -> LinalgRules.eigh(x, out.get(0), out.get(1), g.get(0), g.get(1));
            case Prim.Svd s -> LinalgRules.svd(s, x, out.get(0), out.get(1), out.get(2), g.get(0), g.get(1), g.get(2));
            case Prim.Reshape r -> one(g0.reshape(x.shape()));
            case Prim.Bitcast b -> none(1); // reinterpreted bits carry no derivative
            case Prim.GradientMark m -> m.rule() == null ? none(in.size())
                    : m.rule() instanceof Prim p ? asPrimitive(p, in, out, g)
                    : custom((CustomRule) m.rule(), in, out.getFirst(), g0);
            case Prim.Cond c -> cond(c, in, out, g);
            // Reverse mode would need every iteration's state, and the trip count is only known at run time (JAX refuses too).
            case Prim.WhileLoop w -> throw new JBurnException("grad", "'whileLoop' is not differentiable in reverse mode: its trip count "
                    + "depends on data, so the states a backward pass needs are not kept (JAX refuses it too). Unroll the loop with a "
                    + "Java loop (it runs at trace time), or wrap it in Autodiff.stopGradient or Autodiff.customGradient");
            // Fusion runs after tracing, on the optimized graph; autodiff sees the traced one.
            case Prim.Fused f -> throw notYet(prim);
        };
    }

    /**
     * Whether reverse-mode gradients flow through {@code prim} (for float values): {@code true}
     * for prims with a rule, {@code false} for prims that are marked not differentiable (their
     * cotangent is zero) or whose rule is not built yet (a gradient through them throws).
     */
    static Differentiability differentiability(Prim prim) {
        return switch (prim) {
            case Prim.Constant c -> Differentiability.NOT_DIFFERENTIABLE;
            case Prim.Iota i -> Differentiability.NOT_DIFFERENTIABLE;
            case Prim.Unary u -> ElementwiseRules.differentiable(u.op()) ? Differentiability.DIFFERENTIABLE : Differentiability.NOT_DIFFERENTIABLE;
            case Prim.Binary b -> ElementwiseRules.differentiable(b.op()) ? Differentiability.DIFFERENTIABLE : Differentiability.NOT_DIFFERENTIABLE;
            case Prim.Cumulative c -> switch (c.op()) {
                case CUMULATIVE_SUM, CUMULATIVE_PRODUCT, CUMULATIVE_MAX, CUMULATIVE_MIN -> Differentiability.DIFFERENTIABLE;
            };
            case Prim.Select _, Prim.Cast _, Prim.Reduce _, Prim.Transpose _, Prim.Broadcast _, Prim.Slice _,
                 Prim.PutSlice _, Prim.Pad _, Prim.Reverse _, Prim.Concatenate _, Prim.Gather _,
                 Prim.IndexedUpdate _, Prim.Sort _, Prim.Dot _, Prim.Reshape _, Prim.GradientMark _, Prim.Cond _,
                 Prim.Cholesky _, Prim.TriangularSolve _, Prim.Lu _, Prim.Qr _, Prim.Eigh _, Prim.Svd _ -> Differentiability.DIFFERENTIABLE;
            case Prim.WindowReduce w -> switch (w.op()) {
                case WINDOW_SUM, WINDOW_MAX, WINDOW_MIN, WINDOW_PRODUCT, WINDOW_SCATTER_MAX, WINDOW_SCATTER_MIN -> Differentiability.DIFFERENTIABLE;
            };
            case Prim.ArgReduce _, Prim.Argsort _, Prim.Bitcast _ -> Differentiability.NOT_DIFFERENTIABLE;
            case Prim.Conv c -> Differentiability.DIFFERENTIABLE;
            case Prim.WindowScatter _ -> Differentiability.DIFFERENTIABLE;
            case Prim.WhileLoop _, Prim.Fused _ -> Differentiability.NOT_BUILT;
        };
    }

    /**
     * A {@code cond}'s cotangents are a {@code cond} on the same predicate of its branches' pullbacks
     * (eagerly, only the taken branch's; traced, both branches become one {@code cond} node).
     */
    private static List<Tensor> cond(Prim.Cond c, List<Tensor> in, List<Tensor> out, List<Tensor> g) {
        Tensor pred = in.getFirst();
        List<Tensor> captures = in.subList(1, in.size());
        List<Tensor> seeds = new ArrayList<>(g.size());
        for (int i = 0; i < g.size(); i++) seeds.add(g.get(i) != null ? g.get(i) : zeros(out.get(i), out.get(i).shape()));
        dev.jburn.Engine engine = pred.engine();
        List<Tensor> cts = dev.jburn.graph.Jit.condList(pred,
                () -> Autodiff.pullback(c.onTrue(), engine(engine), captures, seeds, captures.size()).grads(),
                () -> Autodiff.pullback(c.onFalse(), engine(engine), captures, seeds, captures.size()).grads());
        List<Tensor> all = new ArrayList<>(in.size());
        all.add(null);
        all.addAll(cts);
        return all;
    }

    /** Inside a traced branch, the branch's tracing engine; otherwise {@code fallback}. */
    private static dev.jburn.Engine engine(dev.jburn.Engine fallback) {
        return dev.jburn.graph.Jit.isTracing() ? dev.jburn.Engine.defaultEngine() : fallback;
    }

    /**
     * A region that computes primitive {@code p} another way (a decomposition, for an engine that
     * lacks it) is differentiated by {@code p}'s own rule: gradients, and their conventions at ties,
     * do not depend on how an engine computes the op. The region's inner ops get no cotangent.
     */
    private static List<Tensor> asPrimitive(Prim p, List<Tensor> in, List<Tensor> out, List<Tensor> g) {
        List<Tensor> all = new ArrayList<>(backward(p, in.subList(0, in.size() - 1), out, g));
        all.add(null);
        return all;
    }

    private static List<Tensor> custom(CustomRule rule, List<Tensor> in, Tensor y, Tensor g) {
        List<Tensor> primals = in.subList(0, in.size() - 1);
        List<Tensor> cts = rule.backward(primals, y, g);
        if (cts == null || cts.size() != primals.size()) {
            throw new JBurnException("customGradient", "the backward function must return one cotangent per input (" + primals.size()
                    + "), got " + (cts == null ? "null" : cts.size()));
        }
        List<Tensor> all = new ArrayList<>(cts);
        all.add(null); // nothing flows into the forward region's own ops
        return all;
    }

    static JBurnException notYet(Prim prim) {
        return new JBurnException("grad", "'" + prim.name() + "' is not differentiable yet; a gradient must flow through it "
                + "(wrap it in Autodiff.stopGradient or Autodiff.customGradient)");
    }

    // ---- helpers shared by the rule families ---------------------------------------------------

    static List<Tensor> one(Tensor t) { return Arrays.asList(t); }

    static List<Tensor> none(int n) { return Arrays.asList(new Tensor[n]); }

    static int[] inverse(int[] perm) {
        int[] inv = new int[perm.length];
        for (int i = 0; i < perm.length; i++) inv[perm[i]] = i;
        return inv;
    }

    /** Zeros of {@code like}'s dtype and engine, shaped {@code shape}. */
    static Tensor zeros(Tensor like, Shape shape) {
        Tensor z = Tensor.zeros(shape, like.dtype());
        return z.engine() == like.engine() ? z : z.to(like.engine());
    }

    /** Sums {@code g} (of the broadcast output shape) back to {@code shape} (NumPy right-aligned broadcasting). */
    static Tensor unbroadcast(Tensor g, Shape shape) {
        if (g.shape().equals(shape)) return g;
        int lead = g.rank() - shape.rank();
        List<Integer> axes = new ArrayList<>();
        for (int i = 0; i < g.rank(); i++) {
            if (i < lead || (shape.dim(i - lead) == 1 && g.shape().dim(i) != 1)) axes.add(i);
        }
        Tensor s = axes.isEmpty() ? g : g.sum(axes.stream().mapToInt(Integer::intValue).toArray());
        return s.reshape(shape);
    }
}
