package dev.jburn.autodiff;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.GradientMarks;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.TensorType;
import dev.jburn.graph.Value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reverse-mode automatic differentiation as a graph transformation. The function is traced
 * ({@link Jit#trace}) into a primitive graph; the graph is run to get every intermediate value;
 * then one backward rule per primitive ({@code BackwardRules}) is applied in reverse order with
 * ordinary tensor ops, accumulating cotangents of values used several times. Eagerly those ops
 * run on the inputs' engine; inside {@link Jit#compile} they are recorded into the enclosing
 * trace, so the compiled function contains forward and backward graph.
 *
 * <pre>{@code
 * Function<Tensor, Tensor> df = Autodiff.grad(x -> x.multiply(x).sum());
 * df.apply(Tensor.of(1.0, 2.0));                       // [2.0, 4.0]
 * var vg = Autodiff.valueAndGradMap(p -> loss(p, batch)).apply(params);
 * }</pre>
 *
 * Integer (and PRED) inputs get zero gradients of their own dtype. Composite ops (mean,
 * logSumExp, softmax built from ops) differentiate through their decomposition. Tensors the
 * function captures (a data batch, say) are constants of the differentiation, also inside a
 * trace; gradients of gradients work, since the backward ops are ordinary traced ops.
 */
public final class Autodiff {
    private Autodiff() {}

    /** A function's value and its gradient with respect to its one input. */
    public record ValueAndGrad(Tensor value, Tensor grad) {}

    /** A function's value and its gradients with respect to each input, in order. */
    public record ValueAndGrads(Tensor value, List<Tensor> grads) {}

    /** A function's value and its gradients with respect to each named parameter, in the map's order. */
    public record ValueAndGradMap(Tensor value, Map<String, Tensor> grads) {}

    // ---- one input ------------------------------------------------------------------------------

    /** The gradient of {@code f}, which must return a float scalar. {@code grad(x -> x.multiply(x).sum())(x) == 2x}. */
    public static Function<Tensor, Tensor> grad(Function<Tensor, Tensor> f) {
        nonNull("grad", f);
        return x -> valueAndGrad(f).apply(x).grad();
    }

    /** {@code f}'s value and gradient in one pass; {@code f} must return a float scalar. */
    public static Function<Tensor, ValueAndGrad> valueAndGrad(Function<Tensor, Tensor> f) {
        nonNull("valueAndGrad", f);
        return x -> {
            nonNullTensor("valueAndGrad", x);
            ValueAndGrads r = reverse("valueAndGrad", xs -> List.of(f.apply(xs.getFirst())), List.of(x), null);
            return new ValueAndGrad(r.value(), r.grads().getFirst());
        };
    }

    // ---- several inputs -------------------------------------------------------------------------

    /** Gradients of {@code f} with respect to each tensor of its argument list. */
    public static Function<List<Tensor>, List<Tensor>> gradList(Function<List<Tensor>, Tensor> f) {
        nonNull("grad", f);
        return xs -> valueAndGradList(f).apply(xs).grads();
    }

    /** {@code f}'s value and gradients with respect to each tensor of its argument list. */
    public static Function<List<Tensor>, ValueAndGrads> valueAndGradList(Function<List<Tensor>, Tensor> f) {
        nonNull("valueAndGrad", f);
        return xs -> {
            if (xs == null || xs.isEmpty()) throw new JBurnException("valueAndGrad", "needs at least one input tensor");
            xs.forEach(x -> nonNullTensor("valueAndGrad", x));
            return reverse("valueAndGrad", in -> List.of(f.apply(in)), List.copyOf(xs), null);
        };
    }

    /** Gradients of {@code f} with respect to each named parameter (what a training step needs). */
    public static Function<Map<String, Tensor>, Map<String, Tensor>> gradMap(Function<Map<String, Tensor>, Tensor> f) {
        nonNull("grad", f);
        return ps -> valueAndGradMap(f).apply(ps).grads();
    }

    /**
     * {@code f}'s value and gradients with respect to each named parameter; the gradient map has
     * the parameters' iteration order.
     */
    public static Function<Map<String, Tensor>, ValueAndGradMap> valueAndGradMap(Function<Map<String, Tensor>, Tensor> f) {
        nonNull("valueAndGrad", f);
        return ps -> {
            List<String> names = new ArrayList<>();
            List<Tensor> xs = namedTensors(ps, names);
            ValueAndGrads r = reverse("valueAndGrad", in -> {
                Map<String, Tensor> m = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) m.put(names.get(i), in.get(i));
                return List.of(f.apply(m));
            }, xs, null);
            Map<String, Tensor> grads = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) grads.put(names.get(i), r.grads().get(i));
            return new ValueAndGradMap(r.value(), grads);
        };
    }

    /**
     * The value, auxiliary outputs and gradients of a scalar loss over named parameters (JAX's
     * {@code has_aux}): {@code f} returns the loss first, then any other tensors (a model's predictions,
     * updated batch-norm statistics), which are computed in the same pass and through which no gradient
     * flows. What a training step needs to update its metrics and state without a second forward pass.
     *
     * <pre>{@code
     * var r = Autodiff.valueAndGradMapWithAux((Map<String, Tensor> p) -> {
     *     Tensor logits = x.dot(p.get("w"));
     *     return List.of(logits.logSumExp().subtract(logits.sum()), logits);
     * }).apply(params);
     * Tensor logits = r.aux().getFirst();
     * }</pre>
     */
    public static Function<Map<String, Tensor>, ValueAuxAndGradMap> valueAndGradMapWithAux(Function<Map<String, Tensor>, List<Tensor>> f) {
        nonNull("valueAndGrad", f);
        return ps -> {
            List<String> names = new ArrayList<>();
            List<Tensor> xs = namedTensors(ps, names);
            Function<List<Tensor>, List<Tensor>> fl = in -> {
                Map<String, Tensor> m = new LinkedHashMap<>();
                for (int i = 0; i < names.size(); i++) m.put(names.get(i), in.get(i));
                List<Tensor> out = f.apply(m);
                if (out == null || out.isEmpty()) throw new JBurnException("valueAndGrad", "the function must return the loss and its auxiliary outputs");
                return out;
            };
            Traced t = traced(fl, xs);
            Graph g = t.graph();
            Engine engine = t.engine();
            Value y = g.outputs().getFirst();
            if (y.shape().rank() != 0 || !y.dtype().isFloat()) {
                throw new JBurnException("valueAndGrad", "the first output must be a float scalar (the loss), got " + y.dtype().shortName() + y.shape());
            }
            List<Tensor> seeds = new ArrayList<>();
            seeds.add(onEngine(Tensor.ones(Shape.scalar(), y.dtype()), engine));
            for (int i = 1; i < g.outputs().size(); i++) seeds.add(null);
            Pulled p = pullbackAll(g, engine, t.args(), seeds, xs.size());
            Map<String, Tensor> grads = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) grads.put(names.get(i), p.grads().get(i));
            return new ValueAuxAndGradMap(p.outputs().getFirst(), List.copyOf(p.outputs().subList(1, p.outputs().size())), grads);
        };
    }

    /** {@link #valueAndGradMapWithAux}'s result: the loss, the auxiliary outputs, the gradients by parameter name. */
    public record ValueAuxAndGradMap(Tensor value, List<Tensor> aux, Map<String, Tensor> grads) {}

    /**
     * The vector-Jacobian product {@code cotangent · ∂f(x)/∂x} for an {@code f} of any float output;
     * {@code cotangent} has {@code f(x)}'s shape and dtype.
     */
    public static Tensor vjp(Function<Tensor, Tensor> f, Tensor x, Tensor cotangent) {
        nonNull("vjp", f);
        nonNullTensor("vjp", x);
        nonNullTensor("vjp", cotangent);
        return reverse("vjp", xs -> List.of(f.apply(xs.getFirst())), List.of(x), List.of(cotangent)).grads().getFirst();
    }

    /** {@link #vjp} for several inputs and outputs: one cotangent per output, one result per input. */
    public static List<Tensor> vjpList(Function<List<Tensor>, List<Tensor>> f, List<Tensor> xs, List<Tensor> cotangents) {
        nonNull("vjp", f);
        if (xs == null || xs.isEmpty() || cotangents == null) throw new JBurnException("vjp", "needs input tensors and cotangents");
        return reverse("vjp", f, List.copyOf(xs), List.copyOf(cotangents)).grads();
    }

    /**
     * The Jacobian-vector product {@code ∂f(x)/∂x · tangent} (forward mode): how {@code f(x)}
     * changes when {@code x} moves along {@code tangent}, which has {@code x}'s shape and dtype.
     * Built by transposing the reverse mode: {@code u ↦ vjp(f, x, u)} is linear, and its own vjp
     * with cotangent {@code tangent} is {@code J·tangent}. So it costs two reverse passes rather
     * than one forward pass, works inside {@code Jit.compile}, and needs no extra rule per op.
     *
     * <pre>{@code
     * Autodiff.jvp(x -> x.multiply(x), Tensor.of(3.0), Tensor.of(1.0)); // 6.0
     * }</pre>
     */
    public static Tensor jvp(Function<Tensor, Tensor> f, Tensor x, Tensor tangent) {
        nonNull("jvp", f);
        nonNullTensor("jvp", x);
        nonNullTensor("jvp", tangent);
        if (!tangent.shape().equals(x.shape()) || tangent.dtype() != x.dtype()) {
            throw new JBurnException("jvp", "the tangent must have the input's shape and type " + x.dtype().shortName() + x.shape()
                    + ", got " + tangent.dtype().shortName() + tangent.shape());
        }
        Tensor y = f.apply(x);
        // The linear map's vjp does not depend on the point; zeros keep Inf/NaN of y out of it.
        try (Tensor zeros = Tensor.zeros(y.shape(), y.dtype()); Tensor at = zeros.to(y.engine())) {
            y.close();
            return vjp(u -> vjp(f, x, u), at, tangent);
        }
    }

    // ---- gradient control -----------------------------------------------------------------------

    /** {@code x} itself, through which no gradient flows (its uses are treated as constants). */
    public static Tensor stopGradient(Tensor x) {
        nonNullTensor("stopGradient", x);
        return GradientMarks.mark(new Prim.GradientMark(null), List.of(x));
    }

    /**
     * {@code forward} with a hand-written backward rule: differentiating through the returned
     * function applies {@code backward(x, y, cotangent)} (returning {@code x}'s cotangent) instead of
     * differentiating {@code forward}'s ops (for numerical stability or speed). Eagerly, the tensors
     * {@code backward} makes and does not return are freed when it returns.
     *
     * <pre>{@code
     * Function<Tensor, Tensor> safeLog = Autodiff.customGradient(Tensor::log,
     *         (x, y, g) -> g.divide(x.maximum(1e-12)));
     * }</pre>
     */
    public static Function<Tensor, Tensor> customGradient(Function<Tensor, Tensor> forward, CustomBackward backward) {
        nonNull("customGradient", forward);
        nonNull("customGradient", backward);
        CustomRule rule = (ins, y, g) -> Arrays.asList(backward.apply(ins.getFirst(), y, g));
        return x -> {
            nonNullTensor("customGradient", x);
            Tensor y = forward.apply(x);
            return GradientMarks.mark(new Prim.GradientMark(rule), List.of(x, y));
        };
    }

    /** {@link #customGradient(Function, CustomBackward)} for several inputs. */
    public static Function<List<Tensor>, Tensor> customGradientList(Function<List<Tensor>, Tensor> forward, CustomRule backward) {
        nonNull("customGradient", forward);
        nonNull("customGradient", backward);
        return xs -> {
            Tensor y = forward.apply(xs);
            List<Tensor> ins = new ArrayList<>(xs);
            ins.add(y);
            return GradientMarks.mark(new Prim.GradientMark(backward), ins);
        };
    }

    /** A one-input backward rule: {@code x}'s cotangent from {@code x}, the result {@code y} and {@code y}'s cotangent. */
    @FunctionalInterface
    public interface CustomBackward {
        Tensor apply(Tensor x, Tensor y, Tensor cotangent);
    }

    // ---- coverage -------------------------------------------------------------------------------

    /** Whether gradients flow through catalog op {@code op}: a rule, an explicit "not differentiable" mark, or not built yet. */
    public static Differentiability differentiability(dev.jburn.op.Op op) {
        if (op == null) throw new JBurnException("grad", "op must not be null");
        return CatalogDifferentiability.of(op);
    }

    /** Whether gradients flow through graph primitive {@code prim} (see {@link #differentiability(dev.jburn.op.Op)}). */
    public static Differentiability differentiability(Prim prim) {
        if (prim == null) throw new JBurnException("grad", "prim must not be null");
        return BackwardRules.differentiability(prim);
    }

    // ---- the transformation ---------------------------------------------------------------------

    /**
     * Traces {@code f} at {@code xs}, runs it keeping every intermediate, and pulls {@code seeds}
     * (one per output; {@code null}: {@code f} has one float scalar output seeded with 1) back.
     */
    private static ValueAndGrads reverse(String op, Function<List<Tensor>, List<Tensor>> f, List<Tensor> xs, List<Tensor> seeds) {
        Traced t = traced(f, xs);
        Graph g = t.graph();
        List<Value> outs = g.outputs();
        if (seeds == null) {
            Value y = outs.getFirst();
            if (outs.size() != 1 || y.shape().rank() != 0 || !y.dtype().isFloat()) {
                throw new JBurnException(op, "the function must return a float scalar, got " + y.dtype().shortName() + y.shape()
                        + "; reduce it (e.g. sum() or mean()) or use vjp for other outputs");
            }
        } else {
            if (seeds.size() != outs.size()) throw new JBurnException(op, "the function has " + outs.size() + " outputs, got " + seeds.size() + " cotangents");
            for (int i = 0; i < outs.size(); i++) {
                Value v = outs.get(i);
                Tensor s = seeds.get(i);
                if (s == null || s.dtype() != v.dtype() || !s.shape().equals(v.shape())) {
                    throw new JBurnException(op, "cotangent " + i + " must be " + v.type() + ", got " + (s == null ? "null" : s.dtype().shortName() + s.shape()));
                }
                if (!v.dtype().isFloat()) throw new JBurnException(op, "output " + i + " is " + v.type() + "; only float outputs can be differentiated");
            }
        }

        return pullback(g, t.engine(), t.args(), seeds, xs.size());
    }

    /** {@code f} traced for inputs like {@code xs}, the engine to run it on, and its arguments (captures appended). */
    private record Traced(Graph graph, Engine engine, List<Tensor> args) {}

    private static Traced traced(Function<List<Tensor>, List<Tensor>> f, List<Tensor> xs) {
        boolean tracing = Jit.isTracing();
        Engine engine = tracing ? Engine.defaultEngine() : xs.getFirst().engine();
        List<TensorType> types = xs.stream().map(t -> new TensorType(t.dtype(), t.shape())).toList();
        if (!tracing) return new Traced(Jit.trace(f, types, engine), engine, xs);
        // a nested level of the current trace, so f may use the enclosing function's traced tensors
        Jit.NestedTrace nested = Jit.traceNested(f, types);
        List<Tensor> args = new ArrayList<>(xs);
        args.addAll(nested.captures());
        return new Traced(nested.graph(), engine, args);
    }

    /** The parameters' names (appended to {@code names}, in iteration order) and their tensors, checked. */
    private static List<Tensor> namedTensors(Map<String, Tensor> ps, List<String> names) {
        if (ps == null || ps.isEmpty()) throw new JBurnException("valueAndGrad", "needs at least one named parameter");
        names.addAll(ps.keySet());
        List<Tensor> xs = new ArrayList<>(names.size());
        for (String n : names) {
            Tensor x = ps.get(n);
            if (x == null) throw new JBurnException("valueAndGrad", "parameter '" + n + "' is null");
            xs.add(x);
        }
        return xs;
    }

    /**
     * Runs {@code g} on {@code args} keeping every intermediate and pulls {@code seeds} back (one
     * per output, a {@code null} entry is zero; {@code seeds == null}: one scalar output seeded
     * with 1). Returns the first output and the cotangents of the first {@code wanted} inputs
     * (zeros where none flows).
     */
    static ValueAndGrads pullback(Graph g, Engine engine, List<Tensor> args, List<Tensor> seeds, int wanted) {
        Pulled p = pullbackAll(g, engine, args, seeds, wanted);
        return new ValueAndGrads(p.outputs().isEmpty() ? null : p.outputs().getFirst(), p.grads());
    }

    /** Every output's value and the cotangents of the first {@code wanted} inputs. */
    private record Pulled(List<Tensor> outputs, List<Tensor> grads) {}

    /**
     * Eagerly (not inside a trace) every tensor this pass makes is freed as soon as it is used: a
     * forward value after the last backward rule that reads it, a cotangent after the rule that
     * consumes it, a rule's temporaries when the rule returns (it runs in a {@link Tensor#scope()}).
     * Only the outputs and the gradients survive, so a caller who closes them leaves nothing for
     * the garbage collector. Every cotangent held here is a tensor of its own (a rule's result is
     * kept as a shared view), so closing one never frees what another still reads.
     */
    private static Pulled pullbackAll(Graph g, Engine engine, List<Tensor> args, List<Tensor> seeds, int wanted) {
        boolean eager = !Jit.isTracing();
        List<Value> outs = g.outputs();
        List<Node> nodes = g.nodes();
        // forward: every node output, kept for the backward rules
        List<Value> all = new ArrayList<>();
        for (Node n : nodes) all.addAll(n.outputs());
        List<Tensor> computed = Interpreter.run(Graph.of(g.inputs(), nodes, all), engine, args);
        Map<Integer, Tensor> primal = new HashMap<>();
        List<Tensor> inputCopies = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            Tensor t = onEngine(args.get(i), engine);
            if (t != args.get(i)) inputCopies.add(t);
            primal.put(g.inputs().get(i).id(), t);
        }
        for (int i = 0; i < all.size(); i++) primal.put(all.get(i).id(), computed.get(i));
        java.util.Set<Integer> returned = new java.util.HashSet<>();
        for (Value v : outs) returned.add(v.id());

        // backward
        Map<Integer, Tensor> ct = new HashMap<>();
        for (int i = 0; i < outs.size(); i++) {
            Value v = outs.get(i);
            if (!v.dtype().isFloat()) continue;
            Tensor seed;
            if (seeds == null) {
                Tensor one = Tensor.ones(Shape.scalar(), v.dtype());
                seed = onEngine(one, engine);
                if (eager && seed != one) one.close();
            } else {
                if (seeds.get(i) == null) continue;
                seed = onEngine(seeds.get(i), engine);
                if (eager && seed == seeds.get(i)) seed = seed.reshape(seed.shape()); // the caller's tensor: hold a view of our own
            }
            accumulate(ct, v, seed, eager);
        }
        for (int k = nodes.size() - 1; k >= 0; k--) {
            Node n = nodes.get(k);
            List<Tensor> gOut = new ArrayList<>(n.outputs().size());
            boolean any = false;
            for (Value v : n.outputs()) {
                Tensor c = ct.remove(v.id());
                gOut.add(c);
                any |= c != null;
            }
            if (any && n.inputs().stream().anyMatch(v -> v.dtype().isFloat())) {
                List<Tensor> in = n.inputs().stream().map(v -> primal.get(v.id())).toList();
                List<Tensor> out = n.outputs().stream().map(v -> primal.get(v.id())).toList();
                List<Tensor> gIn = eager ? ruleFreeingTemporaries(n.prim(), in, out, gOut) : BackwardRules.backward(n.prim(), in, out, gOut);
                for (int i = 0; i < gIn.size(); i++) {
                    Tensor c = gIn.get(i);
                    Value v = n.inputs().get(i);
                    if (c == null) continue;
                    if (v.dtype().isFloat()) accumulate(ct, v, c, eager);
                    else if (eager) c.close();
                }
            }
            if (!eager) continue;
            for (Tensor c : gOut) if (c != null) c.close();
            // the nodes run in order, so node k's rule (run now, in reverse) is the last to read its outputs
            for (Value v : n.outputs()) {
                if (returned.contains(v.id())) continue;
                Tensor t = primal.remove(v.id());
                if (t != null) t.close();
            }
        }
        List<Tensor> grads = new ArrayList<>(wanted);
        for (int i = 0; i < wanted; i++) {
            Value v = g.inputs().get(i);
            Tensor c = ct.remove(v.id());
            grads.add(c != null ? c : BackwardRules.zeros(primal.get(v.id()), v.shape()));
        }
        List<Tensor> values = new ArrayList<>(outs.size());
        for (Value v : outs) values.add(primal.get(v.id()));
        if (eager) {
            for (Tensor c : ct.values()) c.close();
            for (Tensor t : inputCopies) if (values.stream().noneMatch(o -> o == t)) t.close();
        }
        return new Pulled(values, List.copyOf(grads));
    }

    /**
     * A backward rule run eagerly in a scope of its own: its temporaries are freed when it returns,
     * and each cotangent it returns comes back as a new view, owned by the caller alone (a rule may
     * return its incoming cotangent, a primal or one tensor for two inputs).
     */
    private static List<Tensor> ruleFreeingTemporaries(Prim prim, List<Tensor> in, List<Tensor> out, List<Tensor> gOut) {
        try (dev.jburn.TensorScope scope = Tensor.scope()) {
            List<Tensor> gIn = BackwardRules.backward(prim, in, out, gOut);
            List<Tensor> own = new ArrayList<>(gIn.size());
            for (Tensor c : gIn) own.add(c == null ? null : scope.keep(c.reshape(c.shape())));
            return own;
        }
    }

    /** Adds cotangent {@code c} (the pass's own tensor when {@code eager}) to {@code v}'s; eagerly, what it replaces is freed. */
    private static void accumulate(Map<Integer, Tensor> ct, Value v, Tensor c, boolean eager) {
        if (c.dtype() != v.dtype()) c = replaced(c, c.asType(v.dtype()), eager);
        if (!c.shape().equals(v.shape())) {
            if (c.size() != v.shape().size()) {
                throw new JBurnException("grad", "internal: a cotangent " + c.dtype().shortName() + c.shape() + " for a value " + v.type());
            }
            c = replaced(c, c.reshape(v.shape()), eager);
        }
        Tensor prev = ct.get(v.id());
        if (prev == null) {
            ct.put(v.id(), c);
            return;
        }
        Tensor sum = prev.add(c);
        if (eager) {
            prev.close();
            c.close();
        }
        ct.put(v.id(), sum);
    }

    private static Tensor replaced(Tensor old, Tensor now, boolean eager) {
        if (eager && now != old) old.close();
        return now;
    }

    private static Tensor onEngine(Tensor t, Engine engine) { return t.engine() == engine ? t : t.to(engine); }

    private static void nonNull(String op, Object f) {
        if (f == null) throw new JBurnException(op, "the function must not be null");
    }

    private static void nonNullTensor(String op, Tensor t) {
        if (t == null) throw new JBurnException(op, "the input tensor must not be null");
    }
}
