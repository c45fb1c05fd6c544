package dev.jburn.serving;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the workers on one engine share: the model's state copied to that engine and a compiled predict of its own
 * (its own signature cache, so engines never evict each other's buckets), warmed on every bucket at start. A batch
 * arrives on the serving's home engine (the state's), runs here, and its answer goes back home.
 */
final class Partition implements AutoCloseable {
    private final Engine engine;
    private final Engine home;
    private final ModelState state;
    private final UnaryOperator<Tensor> function;

    private Partition(Engine engine, Engine home, ModelState state, UnaryOperator<Tensor> function) {
        this.engine = engine;
        this.home = home;
        this.state = state;
        this.function = function;
    }

    /**
     * The partition on {@code engine}: {@code homeState} copied there and the predict compiled for it;
     * {@code override} (tests) runs instead of the model's predict when not null.
     */
    static Partition on(Engine engine, Engine home, Model model, ModelState homeState, UnaryOperator<Tensor> override) {
        ModelState state;
        try {
            state = homeState.to(engine);
        } catch (RuntimeException e) {
            throw new JBurnException("serving", "cannot copy the state of model '" + model.name() + "' to engine '" + engine.name() + "': "
                    + e.getMessage(), e);
        }
        return new Partition(engine, home, state, override != null ? override : compiledPredict(model, state));
    }

    /** The model's inference call compiled on its own: the input first, then the parameters and the state, by name. */
    private static UnaryOperator<Tensor> compiledPredict(Model model, ModelState state) {
        List<String> paramNames = List.copyOf(state.params().keySet()), stateNames = List.copyOf(state.state().keySet());
        CompiledFunction f = Jit.compileList(xs -> model.call(byName(xs, 1, paramNames), byName(xs, 1 + paramNames.size(), stateNames),
                List.of(xs.getFirst()), false, null).outputs());
        List<Tensor> args = new ArrayList<>();
        args.add(null);
        args.addAll(state.params().values());
        args.addAll(state.state().values());
        return x -> {
            List<Tensor> in = new ArrayList<>(args);
            in.set(0, x);
            return f.apply(in).getFirst();
        };
    }

    private static Map<String, Tensor> byName(List<Tensor> xs, int from, List<String> names) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) m.put(names.get(i), xs.get(from + i));
        return m;
    }

    Engine engine() { return engine; }

    /** Compiles each bucket with a batch of zeros, so that no request waits for a compile (skipped for other open axes). */
    void warmUp(TensorSpec input, int[] buckets, String model) {
        Shape s = input.shape();
        for (int i = 1; i < s.rank(); i++) if (s.dim(i) < 0) return;
        for (int b : buckets) {
            int[] dims = s.dims().clone();
            dims[0] = b;
            try (Tensor z = zerosOn(Shape.of(dims), input.dtype())) {
                function.apply(z).close();
            } catch (RuntimeException e) {
                throw new JBurnException("serving", "compiling bucket " + b + " of model '" + model + "' on engine '" + engine.name() + "' failed: "
                        + e.getMessage(), e);
            }
        }
    }

    /** {@code x} ({@code rows} rows, on the home engine) padded to {@code bucket} rows, run here, cut back, on the home engine. */
    Tensor runRows(Tensor x, int rows, int bucket) {
        Tensor here = x.to(engine), padded = here;
        try {
            if (bucket > rows) {
                int[] dims = here.shape().dims().clone();
                dims[0] = bucket - rows;
                try (Tensor zeros = zerosOn(Shape.of(dims), here.dtype())) {
                    padded = Tensor.concatenate(List.of(here, zeros), 0);
                }
            }
            Tensor cut = cut(function.apply(padded), rows, bucket);
            if (cut.engine() == home) return cut;
            try (cut) {
                return cut.to(home);
            }
        } finally {
            if (padded != here) padded.close();
            if (here != x) here.close();
        }
    }

    /** {@code y}'s first {@code rows} rows ({@code y} itself when nothing was padded). */
    private static Tensor cut(Tensor y, int rows, int bucket) {
        if (bucket == rows) return y;
        try (y) {
            return Serving.slice(y, 0, rows);
        }
    }

    /** Zeros on this partition's engine (made on the default engine, then moved). */
    private Tensor zerosOn(Shape shape, DType dtype) {
        Tensor z = Tensor.zeros(shape, dtype);
        if (z.engine() == engine) return z;
        try (z) {
            return z.to(engine);
        }
    }

    /** Frees the state's copy (the caller's state stays: it is the home engine's). */
    @Override
    public void close() {
        if (engine == home) return;
        state.params().values().forEach(Tensor::close);
        state.state().values().forEach(Tensor::close);
    }
}
