package dev.jburn.graph;

import dev.jburn.JBurnException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a graph's invariants: every value has a type and a unique id; every operand is defined
 * (as an input or by an earlier node) before it is used, with the type it was defined with;
 * each node's declared output types equal what {@link ShapeInference} infers from its inputs;
 * outputs are defined; sub-graphs of {@code cond} and {@code whileLoop} pass the same checks.
 * Tests run it after every pass.
 *
 * <pre>{@code
 * Verifier.verify(graph);   // throws JBurnException("verify", ...) naming the first broken node
 * }</pre>
 */
public final class Verifier {
    private Verifier() {}

    /**
     * Throws when {@code g} breaks an invariant.
     *
     * @throws JBurnException with op {@code "verify"}; the reason names the node and includes the graph text
     */
    public static void verify(Graph g) {
        String problem = firstProblem(g);
        if (problem != null) throw new JBurnException("verify", problem + "\nin " + g);
    }

    /** The first broken invariant of {@code g}, or {@code null} when it has none. */
    public static String firstProblem(Graph g) {
        Map<Integer, Value> defined = new HashMap<>();
        for (Value v : g.inputs()) {
            String p = define(defined, v, "input");
            if (p != null) return p;
        }
        for (Node n : g.nodes()) {
            for (Value in : n.inputs()) {
                Value d = defined.get(in.id());
                if (d == null) return "node `" + GraphText.node(n, "") + "` uses " + in + " before it is defined";
                if (!d.equals(in)) return "node `" + GraphText.node(n, "") + "` uses " + in + " as " + typeOf(in) + " but it is " + typeOf(d);
            }
            for (Value out : n.outputs()) {
                if (out.dtype() == null || out.shape() == null) return "node `" + n.prim().name() + "` output " + out + " has no type";
            }
            List<TensorType> inferred;
            try {
                inferred = ShapeInference.infer(n.prim(), n.inputs().stream().map(Verifier::typeOf).toList());
            } catch (JBurnException | NullPointerException e) {
                return "node `" + GraphText.node(n, "") + "` is ill-typed: " + (e instanceof JBurnException j ? j.reason() : e.toString());
            }
            List<TensorType> declared = n.outputs().stream().map(Verifier::typeOf).toList();
            if (!inferred.equals(declared)) {
                return "node `" + GraphText.node(n, "") + "` declares " + declared + " but its inputs give " + inferred;
            }
            String sub = switch (n.prim()) {
                case Prim.Cond c -> sub(firstProblem(c.onTrue()), firstProblem(c.onFalse()));
                case Prim.WhileLoop w -> sub(firstProblem(w.cond()), firstProblem(w.body()));
                case Prim.Fused f -> firstProblem(f.body());
                default -> null;
            };
            if (sub != null) return "in a sub-graph of " + n.prim().name() + " " + GraphText.ids(n.outputs()) + ": " + sub;
            for (Value out : n.outputs()) {
                String p = define(defined, out, "output of " + n.prim().name());
                if (p != null) return p;
            }
        }
        for (Value out : g.outputs()) {
            Value d = defined.get(out.id());
            if (d == null) return "graph output " + out + " is not defined";
            if (!d.equals(out)) return "graph output " + out + " is " + typeOf(out) + " but was defined as " + typeOf(d);
        }
        return null;
    }

    private static String sub(String a, String b) { return a != null ? a : b; }

    private static String define(Map<Integer, Value> defined, Value v, String what) {
        if (v.dtype() == null || v.shape() == null) return what + " " + v + " has no type";
        if (defined.putIfAbsent(v.id(), v) != null) return what + " " + v + " reuses an id that is already defined";
        return null;
    }

    private static TensorType typeOf(Value v) {
        if (v.dtype() == null || v.shape() == null) throw new NullPointerException(v + " has no type");
        return v.type();
    }
}
