package dev.jburn.nn.layers;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A layer from a function over tensors plus declared parameters, for what the catalog lacks:
 *
 * <pre>{@code
 * Layer scale = Custom.of("scale", (x, p) -> x.multiply(p.get("gamma")))
 *         .withParam("gamma", in -> Shape.of(in.dim(-1)), Initializers.ones());
 * Model m = Model.input("x", Shape.of(-1, 8)).apply(scale);
 * }</pre>
 *
 * The function must be built from tensor ops (it runs eagerly, under {@code Jit} and {@code Autodiff}).
 * By default the output has the input's spec; say otherwise with {@link #withOutput}.
 *
 * @param kind   the layer kind (names become {@code kind_i})
 * @param fn     the computation: the input and the parameters by local name
 * @param params the declared parameters
 * @param output the output spec as a function of the input spec
 */
public record Custom(String kind, BiFunction<Tensor, Map<String, Tensor>, Tensor> fn, List<Param> params,
                     UnaryOperator<TensorSpec> output) implements Layer {
    /**
     * A declared parameter.
     *
     * @param name        its local name
     * @param shape       its shape as a function of the input spec
     * @param initializer its initializer
     */
    public record Param(String name, Function<TensorSpec, Shape> shape, Initializer initializer) {}

    public Custom {
        if (kind == null || !kind.matches("[a-z][a-z0-9_]*")) throw new JBurnException("custom layer", "the kind must be snake case, got '" + kind + "'");
        if (fn == null || params == null || output == null) throw new JBurnException("custom layer", kind + ": the function, parameters and output rule are required");
        params = List.copyOf(params);
    }

    /** A parameter-free, shape-preserving layer running {@code fn}. */
    public static Custom of(String kind, BiFunction<Tensor, Map<String, Tensor>, Tensor> fn) {
        return new Custom(kind, fn, List.of(), UnaryOperator.identity());
    }

    /** This layer with one more parameter. */
    public Custom withParam(String name, Function<TensorSpec, Shape> shape, Initializer initializer) {
        List<Param> p = new ArrayList<>(params);
        p.add(new Param(name, shape, initializer));
        return new Custom(kind, fn, p, output);
    }

    /** This layer with another output rule. */
    public Custom withOutput(UnaryOperator<TensorSpec> rule) { return new Custom(kind, fn, params, rule); }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec o = output.apply(in.input());
        if (o == null) throw in.error("the output rule returned null");
        return o;
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        List<ParamSpec> out = new ArrayList<>();
        for (Param p : params) out.add(new ParamSpec(p.name(), p.shape().apply(in.input()), in.floatType(), p.initializer()));
        return out;
    }

    @Override public Tensor apply(LayerCall call) {
        Map<String, Tensor> p = new java.util.LinkedHashMap<>();
        for (Param x : params) p.put(x.name(), call.param(x.name()));
        return fn.apply(call.input(), p);
    }
}
