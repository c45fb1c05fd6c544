package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.nn.Forward;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizer;
import dev.jburn.optim.OptimizerState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One compiled training step: forward in training mode, the loss (weighted by per-sample weights, 0 for
 * padding rows), its gradients with respect to the trainable parameters ({@code Autodiff}; frozen
 * parameters left out), the optimizer update, the metric updates and the next random key, traced into one
 * {@code Jit} graph with the parameter and optimizer buffers donated. Compiled once per batch shape;
 * hyperparameters live in the optimizer state, so changing the learning rate does not recompile.
 *
 * <pre>{@code
 * TrainStep step = TrainStep.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3));
 * TrainStep.State s = step.init(model.init(Prng.key(0)), Prng.key(1));
 * for (...) {
 *     TrainStep.Result r = step.apply(s, images, labels);
 *     s = r.state();                 // r.loss() is the batch's mean loss
 * }
 * }</pre>
 */
public final class TrainStep {
    private final Model model;
    private final Loss loss;
    private final Optimizer optimizer;
    private final List<Metric> metrics;
    private final Precision precision;
    /** How the step compiles (the donation of parameters and optimizer state is added to it). */
    private final JitOptions jit;
    private volatile Layout layout;
    private volatile CompiledFunction compiled;

    /**
     * Everything a training run carries from step to step.
     *
     * @param model     parameters, model state, frozen set
     * @param optimizer the optimizer's state (moments, count, learning rate)
     * @param key       the random key of the next step
     */
    public record State(ModelState model, OptimizerState optimizer, Tensor key) {}

    /**
     * A step's result.
     *
     * @param state   the state for the next step
     * @param loss    the batch's loss (a scalar)
     * @param metrics the metric states after this batch, one map per metric
     */
    public record Result(State state, Tensor loss, List<Map<String, Tensor>> metrics) {
        /**
         * Closes what the step that made this result consumed and did not return: {@code old}'s key, model state and
         * optimizer tensors and the metric states passed in, unless this result still holds them (the donated
         * parameters are closed by the step itself). A hand-written training loop calls it after each step, as
         * {@link Trainer} does, so that device memory stays flat instead of waiting for the garbage collector.
         */
        public void release(State old, List<Map<String, Tensor>> oldMetrics) {
            java.util.Set<Tensor> live = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            live.add(state.key());
            live.addAll(state.model().params().values());
            live.addAll(state.model().state().values());
            live.addAll(state.optimizer().tensors().values());
            metrics.forEach(m -> live.addAll(m.values()));
            List<Tensor> dead = new ArrayList<>();
            dead.add(old.key());
            dead.addAll(old.model().state().values());
            dead.addAll(old.optimizer().tensors().values());
            oldMetrics.forEach(m -> dead.addAll(m.values()));
            for (Tensor t : dead) if (!live.contains(t) && !t.isClosed()) t.close();
        }
    }

    private TrainStep(Model model, Loss loss, Optimizer optimizer, List<Metric> metrics, Precision precision, JitOptions jit) {
        this.model = model;
        this.loss = loss;
        this.optimizer = optimizer;
        this.metrics = List.copyOf(metrics);
        this.precision = precision;
        this.jit = jit;
    }

    /** The step for {@code model}, {@code loss} on its first output and {@code optimizer}. */
    public static TrainStep of(Model model, Loss loss, Optimizer optimizer) { return of(model, loss, optimizer, List.of()); }

    /** The step, updating {@code metrics} inside the compiled graph. */
    public static TrainStep of(Model model, Loss loss, Optimizer optimizer, List<Metric> metrics) {
        return of(model, loss, optimizer, metrics, Precision.full());
    }

    /**
     * The step under a {@link Precision} policy: with a mixed policy the model computes in bf16 or f16 inside the
     * graph while the parameters and the optimizer stay in f32; with loss scaling the state carries the scale
     * ({@code "loss_scale/scale"}, {@code "loss_scale/good_steps"} in the optimizer state) and a step whose
     * gradients are not finite changes nothing but the scale.
     */
    public static TrainStep of(Model model, Loss loss, Optimizer optimizer, List<Metric> metrics, Precision precision) {
        if (model == null || loss == null || optimizer == null || metrics == null || precision == null) {
            throw new JBurnException("trainStep", "model, loss, optimizer, metrics and precision are required");
        }
        if (model.inputNames().size() != 1) throw new JBurnException("trainStep", "expects a model of one input, got " + model.inputNames());
        return new TrainStep(model, loss, optimizer, metrics, precision, JitOptions.defaults());
    }

    /** This step compiled with {@code options} instead of the defaults (tests compare the passes' variants). */
    TrainStep withJitOptions(JitOptions options) { return new TrainStep(model, loss, optimizer, metrics, precision, options); }

    /** The precision policy. */
    public Precision precision() { return precision; }

    /** The model. */
    public Model model() { return model; }

    /** The optimizer. */
    public Optimizer optimizer() { return optimizer; }

    /** The metrics. */
    public List<Metric> metrics() { return metrics; }

    /** The first state: {@code params}, a fresh optimizer state for its trainable parameters, and {@code key}. */
    public State init(ModelState params, Tensor key) {
        if (params == null || key == null) throw new JBurnException("trainStep", "the model state and the key are required");
        return new State(params, LossScaling.withState(precision.lossScale(), optimizer.init(params.trainable()), key), key);
    }

    /** Zero metric states on {@code like}'s engine. */
    public List<Map<String, Tensor>> freshMetrics(Tensor like) {
        List<Map<String, Tensor>> m = new ArrayList<>();
        for (Metric x : metrics) m.add(x.init(like.engine()));
        return m;
    }

    /** One step on a batch, every row weighted 1. */
    public Result apply(State s, Tensor inputs, Tensor targets) {
        if (inputs == null) throw new JBurnException("trainStep", "inputs are required");
        Tensor ones = Tensor.ones(dev.jburn.Shape.of(inputs.shape().dim(0)), DType.F32).to(inputs.engine());
        return apply(s, inputs, targets, ones, freshMetrics(inputs));
    }

    /**
     * One step on a batch with per-sample {@code weights} ({@code [batch]}; 0 leaves a padding row out of the loss
     * and the metrics) and the metric states so far. The state passed in is consumed: its trainable parameters and
     * optimizer tensors are donated to the step (updated in place where the engine can), so use the returned state.
     */
    public Result apply(State s, Tensor inputs, Tensor targets, Tensor weights, List<Map<String, Tensor>> metricStates) {
        if (s == null || inputs == null || targets == null || weights == null || metricStates == null) {
            throw new JBurnException("trainStep", "state, inputs, targets, weights and metric states are required");
        }
        if (precision.lossScale().enabled() && !LossScaling.hasState(s.optimizer())) {
            s = new State(s.model(), LossScaling.withState(precision.lossScale(), s.optimizer(), s.key()), s.key());
        }
        Layout l = layout(s, metricStates);
        List<Tensor> args = new ArrayList<>();
        args.add(inputs);
        args.add(targets);
        args.add(weights);
        for (String n : l.trainable) args.add(s.model().params().get(n));
        for (String n : l.frozen) args.add(s.model().params().get(n));
        for (String n : l.state) args.add(s.model().state().get(n));
        for (String n : l.opt) args.add(s.optimizer().get(n));
        for (int m = 0; m < metricStates.size(); m++) for (String n : l.metrics.get(m)) args.add(metricStates.get(m).get(n));
        args.add(s.key());
        List<Tensor> out = compiled(l).apply(args);
        int i = 1;
        Map<String, Tensor> p = new LinkedHashMap<>(), st = new LinkedHashMap<>(), o = new LinkedHashMap<>();
        for (String n : l.trainable) p.put(n, out.get(i++));
        for (String n : l.state) st.put(n, out.get(i++));
        for (String n : l.opt) o.put(n, out.get(i++));
        List<Map<String, Tensor>> ms = new ArrayList<>();
        for (List<String> names : l.metrics) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (String n : names) m.put(n, out.get(i++));
            ms.add(m);
        }
        ModelState next = s.model().withParams(p).withState(st);
        // The next step's key, on the host: Threefry in the graph would add ~100 scalar ops to every step.
        return new Result(new State(next, new OptimizerState(o), dev.jburn.Prng.foldIn(s.key(), 1)), out.getFirst(), ms);
    }

    /** The compiled function (its trace count, pass report), or null before the first step. */
    public CompiledFunction compiled() { return compiled; }

    /** Names in the compiled function's argument order; fixed by the first state (a new frozen set retraces). */
    record Layout(List<String> trainable, List<String> frozen, List<String> state, List<String> opt, List<List<String>> metrics) {}

    Layout layout(State s, List<Map<String, Tensor>> metricStates) {
        Layout l = layoutOf(s, metricStates);
        Layout cur = layout;
        if (cur != null && cur.equals(l)) return cur;
        synchronized (this) {
            layout = l;
            compiled = null;
        }
        return l;
    }

    /** The argument layout of {@code s} and {@code metricStates}, checked against this step's metrics. */
    Layout layoutOf(State s, List<Map<String, Tensor>> metricStates) {
        if (metricStates.size() != metrics.size()) {
            throw new JBurnException("trainStep", "expected " + metrics.size() + " metric states, got " + metricStates.size());
        }
        return new Layout(List.copyOf(s.model().trainable().keySet()),
                s.model().params().keySet().stream().filter(k -> s.model().frozen().contains(k)).toList(),
                List.copyOf(s.model().state().keySet()), List.copyOf(s.optimizer().tensors().keySet()),
                metricStates.stream().map(m -> (List<String>) List.copyOf(m.keySet())).toList());
    }

    private CompiledFunction compiled(Layout l) {
        CompiledFunction c = compiled;
        if (c != null) return c;
        synchronized (this) {
            if (compiled != null) return compiled;
            int nT = l.trainable.size(), nF = l.frozen.size(), nS = l.state.size(), nO = l.opt.size();
            int[] donated = new int[nT + nO];
            for (int i = 0; i < nT; i++) donated[i] = 3 + i;
            for (int i = 0; i < nO; i++) donated[nT + i] = 3 + nT + nF + nS + i;
            compiled = Jit.compileList(xs -> traced(l, xs), jit.withDonation(donated));
            return compiled;
        }
    }

    private List<Tensor> traced(Layout l, List<Tensor> xs) {
        Tensor x = xs.get(0), y = xs.get(1), w = xs.get(2);
        int i = 3;
        Map<String, Tensor> trainable = new LinkedHashMap<>(), frozen = new LinkedHashMap<>(), state = new LinkedHashMap<>(), opt = new LinkedHashMap<>();
        for (String n : l.trainable) trainable.put(n, xs.get(i++));
        for (String n : l.frozen) frozen.put(n, xs.get(i++));
        for (String n : l.state) state.put(n, xs.get(i++));
        for (String n : l.opt) opt.put(n, xs.get(i++));
        List<Map<String, Tensor>> ms = new ArrayList<>();
        for (List<String> names : l.metrics) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (String n : names) m.put(n, xs.get(i++));
            ms.add(m);
        }
        Tensor key = xs.get(i);
        LossScaling scaling = LossScaling.of(precision.lossScale(), opt);
        Grads g = tracedGrads(l, x, y, w, null, trainable, frozen, state, ms, key, scaling);
        List<Tensor> out = new ArrayList<>();
        out.add(g.loss());
        Applied a = tracedApply(l, trainable, opt, g.grads(), scaling);
        out.addAll(a.params());
        for (int k = 0; k < l.state.size(); k++) out.add(scaling.ifFinite(g.state().get(k), state.get(l.state.get(k))));
        out.addAll(a.optimizer());
        for (Map<String, Tensor> m : g.metrics()) out.addAll(m.values());
        return out;
    }

    /**
     * The first half of a step, traced: the loss, its gradients (unscaled), the next model state (not yet kept
     * from an overflowed step) and the metric updates.
     *
     * @param loss    the loss as reported (the batch mean; with {@code share}, this replica's part of the global mean)
     * @param grads   the gradients by trainable parameter
     * @param state   the model state the forward pass produced, in {@code l.state} order
     * @param metrics the metric states after this batch
     */
    record Grads(Tensor loss, Map<String, Tensor> grads, List<Tensor> state, List<Map<String, Tensor>> metrics) {}

    /**
     * Forward, loss and gradients. With {@code share == null} the loss is {@link Loss#apply}'s weighted mean; with a
     * scalar {@code share} (1 / the global batch's weight, for data-parallel replicas) it is {@code Σ w·l · share},
     * so that the replicas' gradients sum to the gradient of the global batch's mean.
     */
    Grads tracedGrads(Layout l, Tensor x, Tensor y, Tensor w, Tensor share, Map<String, Tensor> trainable, Map<String, Tensor> frozen,
                      Map<String, Tensor> state, List<Map<String, Tensor>> ms, Tensor key, LossScaling scaling) {
        // One pass: the loss is differentiated; predictions and updated state come out as auxiliary outputs.
        var vg = Autodiff.valueAndGradMapWithAux((Map<String, Tensor> p) -> {
            Map<String, Tensor> all = new LinkedHashMap<>(p);
            all.putAll(frozen);
            Forward f = model.call(all, state, List.of(x), true, key, precision.compute());
            List<Tensor> out = new ArrayList<>();
            out.add(scaling.scaled(share == null ? loss.apply(f.output(), y, w) : weightedShare(f.output(), y, w, share)));
            out.add(f.output());
            for (String n : l.state) out.add(f.state().get(n));
            return out;
        }).apply(trainable);
        Map<String, Tensor> grads = scaling.unscaled(vg.grads());
        Tensor predictions = vg.aux().getFirst();
        List<Map<String, Tensor>> metricsOut = new ArrayList<>();
        for (int m = 0; m < metrics.size(); m++) metricsOut.add(metrics.get(m).update(ms.get(m), predictions, y, w));
        return new Grads(scaling.unscaledLoss(vg.value()), grads, vg.aux().subList(1, vg.aux().size()), metricsOut);
    }

    private Tensor weightedShare(Tensor predictions, Tensor y, Tensor w, Tensor share) {
        Tensor per = loss.perSample(predictions, y);
        return per.multiply(w.asType(per.dtype()).reshape(per.shape())).sum().multiply(share.asType(per.dtype()));
    }

    /**
     * The second half, traced: the optimizer update of {@code trainable} by {@code grads} and the next optimizer
     * state (loss scale included), each kept at its old value when {@code scaling} saw non-finite gradients.
     *
     * @param params    the next trainable parameters, in {@code l.trainable} order
     * @param optimizer the next optimizer state, in {@code l.opt} order
     */
    record Applied(List<Tensor> params, List<Tensor> optimizer) {}

    Applied tracedApply(Layout l, Map<String, Tensor> trainable, Map<String, Tensor> opt, Map<String, Tensor> grads, LossScaling scaling) {
        Optimizer.Update u = optimizer.update(grads, new OptimizerState(LossScaling.without(opt)), trainable);
        Map<String, Tensor> next = u.applyTo(trainable);
        List<Tensor> params = new ArrayList<>(), o = new ArrayList<>();
        for (String n : l.trainable) params.add(scaling.ifFinite(next.get(n), trainable.get(n)));
        Map<String, Tensor> nextScale = scaling.next();
        for (String n : l.opt) o.add(LossScaling.isOwn(n) ? nextScale.get(n) : scaling.ifFinite(u.state().get(n), opt.get(n)));
        return new Applied(params, o);
    }
}
