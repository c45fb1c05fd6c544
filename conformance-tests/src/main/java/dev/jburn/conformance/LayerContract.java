package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.nn.Forward;
import dev.jburn.nn.ModelState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every layer of {@code engine-nn} on the engine under test ({@link LayerCases}, one case or more
 * per {@link dev.jburn.nn.layers.LayerCatalog} kind, over generated shapes and options, in F64):
 * <ul>
 * <li>the inference output equals a direct F64 formula written with plain Java doubles
 *     (tolerance {@code 1e-9·(1 + |expected|)});</li>
 * <li>the compiled {@code predict} and {@code forward} equal the eager {@code Model.call}
 *     ({@code 1e-12} relative);</li>
 * <li>gradients of a randomly weighted sum of the output, with respect to the float inputs and
 *     every parameter, equal central differences ({@code h = 1e-6·max(1, |x|)}, tolerance
 *     {@code 1e-5·(1 + |fd|)}, up to 6 coordinates per tensor), in inference mode and in
 *     training mode with a fixed key;</li>
 * <li>training mode differs from inference exactly as the layer documents (dropout masks and
 *     scaling, batch statistics and their running averages), and is deterministic per key.</li>
 * </ul>
 */
public interface LayerContract extends EngineContract {
    /** Seeds of generated cases by default. */
    int LAYER_SEEDS = 2;

    /**
     * How many seeds of generated cases to run ({@link #LAYER_SEEDS} by default); a slow engine (a software
     * Vulkan driver) may run fewer.
     */
    default int layerSeeds() { return LAYER_SEEDS; }

    @Test
    default void layersMatchTheirDirectFormulas() {
        forEachCase(c -> {
            Prepared p = prepare(c);
            LayerCase.Expected e = c.formula().eval(p.values);
            Tensor y = c.model().predict(p.state, p.inputs.toArray(new Tensor[0]));
            if (!y.shape().equals(e.shape())) throw new AssertionError("output shape " + y.shape() + ", formula " + e.shape());
            if (!c.model().outputSpecs().getFirst().accepts(y.shape())) {
                throw new AssertionError("output shape " + y.shape() + " does not fit the declared " + c.model().outputSpecs().getFirst());
            }
            close(y.toDoubleArray(), e.values(), 1e-9, "output vs formula");
        });
    }

    @Test
    default void compiledCallsEqualEagerCalls() {
        forEachCase(c -> {
            Prepared p = prepare(c);
            Tensor[] xs = p.inputs.toArray(new Tensor[0]);
            double[] compiled = c.model().predict(p.state, xs).toDoubleArray();
            double[] eager = c.model().call(p.state.params(), p.state.state(), p.inputs, false, null).output().toDoubleArray();
            close(compiled, eager, 1e-12, "predict (Jit) vs eager");
            Tensor key = Prng.key(11).to(engine());
            Forward ft = c.model().forward(p.state, key, xs);
            Forward fe = c.model().call(p.state.params(), p.state.state(), p.inputs, true, key);
            close(ft.output().toDoubleArray(), fe.output().toDoubleArray(), 1e-12, "forward (Jit) vs eager, training");
            for (String s : fe.state().keySet()) {
                close(ft.state().get(s).toDoubleArray(), fe.state().get(s).toDoubleArray(), 1e-12, "updated state " + s + " Jit vs eager");
            }
        });
    }

    @Test
    default void gradientsThroughLayersMatchFiniteDifferences() {
        forEachCase(c -> {
            if (!c.gradients()) return;
            Prepared p = prepare(c);
            for (boolean training : new boolean[] {false, true}) checkGradients(c, p, training);
        });
    }

    @Test
    default void trainingModeDiffersOnlyAsDocumented() {
        forEachCase(c -> {
            Prepared p = prepare(c);
            Tensor[] xs = p.inputs.toArray(new Tensor[0]);
            double[] inference = c.model().predict(p.state, xs).toDoubleArray();
            Forward a = c.model().forward(p.state, Prng.key(21).to(engine()), xs);
            Forward a2 = c.model().forward(p.state, Prng.key(21).to(engine()), xs);
            Forward b = c.model().forward(p.state, Prng.key(22).to(engine()), xs);
            close(a.output().toDoubleArray(), a2.output().toDoubleArray(), 0, "training mode is deterministic per key");
            Map<String, double[]> updated = new LinkedHashMap<>();
            a.state().forEach((k, v) -> updated.put(k, v.toDoubleArray()));
            if (c.training() == null) {
                close(a.output().toDoubleArray(), inference, 1e-12, "training output (no documented difference) vs inference");
                for (String s : updated.keySet()) close(updated.get(s), p.values.p(s), 0, "state " + s + " is unchanged");
            } else {
                c.training().check(new LayerCase.TrainingRun(inference, a.output().toDoubleArray(), a2.output().toDoubleArray(),
                        b.output().toDoubleArray(), updated, p.values));
            }
        });
    }

    private void forEachCase(java.util.function.Consumer<LayerCase> body) {
        List<String> failures = new ArrayList<>();
        for (long seed = 0; seed < layerSeeds(); seed++) {
            for (LayerCase c : LayerCases.all(seed)) {
                try {
                    c.describe(body);
                } catch (AssertionError | RuntimeException e) {
                    failures.add(c + " (seed " + seed + "): " + e.getMessage());
                }
            }
        }
        if (!failures.isEmpty()) fail(failures.size() + " layer checks failed:\n  " + String.join("\n  ", failures));
    }

    /** A case made concrete on the engine: state, input tensors and F64 values for the formula. */
    record Prepared(ModelState state, List<Tensor> inputs, LayerCase.Values values) {}

    private Prepared prepare(LayerCase c) {
        ModelState s = c.model().init(Prng.key(5).to(engine()));
        List<Tensor> ins = new ArrayList<>();
        List<double[]> xv = new ArrayList<>();
        List<Shape> xs = new ArrayList<>();
        for (LayerCase.Input in : c.inputs()) {
            Tensor t = Tensor.of(in.values()).reshape(in.shape());
            if (in.integer()) t = t.asType(DType.S32);
            ins.add(t.to(engine()));
            xv.add(in.values());
            xs.add(in.shape());
        }
        Map<String, double[]> pv = new LinkedHashMap<>();
        Map<String, Shape> ps = new LinkedHashMap<>();
        s.params().forEach((k, v) -> { pv.put(k, v.toDoubleArray()); ps.put(k, v.shape()); });
        s.state().forEach((k, v) -> { pv.put(k, v.toDoubleArray()); ps.put(k, v.shape()); });
        return new Prepared(s, ins, new LayerCase.Values(pv, ps, xv, xs, s));
    }

    private void checkGradients(LayerCase c, Prepared p, boolean training) {
        Tensor key = Prng.key(31).to(engine());
        List<String> names = new ArrayList<>(p.state.params().keySet());
        List<Integer> floatInputs = new ArrayList<>();
        for (int i = 0; i < c.inputs().size(); i++) if (!c.inputs().get(i).integer()) floatInputs.add(i);
        Tensor probe = c.model().call(p.state.params(), p.state.state(), p.inputs, training, key).output();
        java.util.Random r = new java.util.Random(77);
        double[] wv = new double[Math.toIntExact(probe.size())];
        for (int i = 0; i < wv.length; i++) wv[i] = 0.5 + r.nextDouble();
        Tensor w = Tensor.of(wv).reshape(probe.shape()).to(engine());
        // args: float inputs, then parameters
        Function<List<Tensor>, Tensor> loss = args -> {
            List<Tensor> ins = new ArrayList<>(p.inputs);
            for (int i = 0; i < floatInputs.size(); i++) ins.set(floatInputs.get(i), args.get(i));
            Map<String, Tensor> params = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) params.put(names.get(i), args.get(floatInputs.size() + i));
            return c.model().call(params, p.state.state(), ins, training, key).output().multiply(w).sum();
        };
        List<Tensor> args = new ArrayList<>();
        for (int i : floatInputs) args.add(p.inputs.get(i));
        for (String n : names) args.add(p.state.params().get(n));
        List<Tensor> grads = Autodiff.gradList(loss).apply(args);
        for (int a = 0; a < args.size(); a++) {
            String what = a < floatInputs.size() ? "input " + floatInputs.get(a) : names.get(a - floatInputs.size());
            double[] base = args.get(a).toDoubleArray();
            double[] g = grads.get(a).toDoubleArray();
            int checks = Math.min(6, base.length);
            for (int k = 0; k < checks; k++) {
                int j = base.length <= 6 ? k : r.nextInt(base.length);
                double h = 1e-6 * Math.max(1.0, Math.abs(base[j]));
                double fd = (eval(loss, args, a, base, j, base[j] + h) - eval(loss, args, a, base, j, base[j] - h)) / (2 * h);
                if (!(Math.abs(g[j] - fd) <= 1e-5 * (1 + Math.abs(fd)))) {
                    throw new AssertionError((training ? "training" : "inference") + " mode: d/d" + what + "[" + j + "] reverse " + g[j]
                            + " vs central difference " + fd);
                }
            }
        }
    }

    private static double eval(Function<List<Tensor>, Tensor> f, List<Tensor> args, int a, double[] base, int j, double v) {
        double[] x = base.clone();
        x[j] = v;
        List<Tensor> as = new ArrayList<>(args);
        as.set(a, Tensor.of(x).reshape(args.get(a).shape()).to(args.get(a).engine()));
        return f.apply(as).toDoubleArray()[0];
    }

    /** Element-wise {@code |a - b| <= tol·(1 + |b|)}, NaN only where both are NaN. */
    static void close(double[] a, double[] b, double tol, String what) {
        if (a.length != b.length) throw new AssertionError(what + ": " + a.length + " values vs " + b.length);
        for (int i = 0; i < a.length; i++) {
            if (Double.isNaN(a[i]) && Double.isNaN(b[i])) continue;
            if (a[i] == b[i]) continue;
            if (!(Math.abs(a[i] - b[i]) <= tol * (1 + Math.abs(b[i])))) {
                throw new AssertionError(what + ": element " + i + " is " + a[i] + ", expected " + b[i]);
            }
        }
    }
}
