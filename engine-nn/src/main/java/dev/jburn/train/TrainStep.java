package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.nn.Forward;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.internal.KeyBits;
import dev.jburn.optim.Optimizer;
import dev.jburn.optim.OptimizerState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One compiled training step: forward in training mode, the loss, its gradients with respect to the
 * trainable parameters ({@code Autodiff}, frozen parameters left out), the optimizer update and the next
 * random key, traced into one {@code Jit} graph with the parameter and optimizer buffers donated. Compiled
 * once per batch shape; hyperparameters live in the optimizer state, so changing the learning rate does not
 * recompile.
 *
 * <pre>{@code
 * TrainStep step = TrainStep.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3));
 * TrainStep.State s = step.init(model.init(Random.key(0)), Random.key(1));
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
     * @param state the state for the next step
     * @param loss  the batch's loss (a scalar)
     */
    public record Result(State state, Tensor loss) {}

    private TrainStep(Model model, Loss loss, Optimizer optimizer) {
        this.model = model;
        this.loss = loss;
        this.optimizer = optimizer;
    }

    /** The step for {@code model}, {@code loss} on its first output and {@code optimizer}. */
    public static TrainStep of(Model model, Loss loss, Optimizer optimizer) {
        if (model == null || loss == null || optimizer == null) throw new JBurnException("trainStep", "model, loss and optimizer are required");
        if (model.inputNames().size() != 1) throw new JBurnException("trainStep", "expects a model of one input, got " + model.inputNames());
        return new TrainStep(model, loss, optimizer);
    }

    /** The first state: {@code params}, a fresh optimizer state for its trainable parameters, and {@code key}. */
    public State init(ModelState params, Tensor key) {
        if (params == null || key == null) throw new JBurnException("trainStep", "the model state and the key are required");
        return new State(params, optimizer.init(params.trainable()), key);
    }

    /**
     * Runs one step on a batch. The state passed in is consumed: its trainable parameters and optimizer
     * tensors are donated to the step (updated in place where the engine can), so use the returned state.
     */
    public Result apply(State s, Tensor inputs, Tensor targets) {
        if (s == null || inputs == null || targets == null) throw new JBurnException("trainStep", "state, inputs and targets are required");
        Layout l = layout(s);
        List<Tensor> args = new ArrayList<>();
        args.add(inputs);
        args.add(targets);
        for (String n : l.trainable) args.add(s.model().params().get(n));
        for (String n : l.frozen) args.add(s.model().params().get(n));
        for (String n : l.state) args.add(s.model().state().get(n));
        for (String n : l.opt) args.add(s.optimizer().get(n));
        args.add(s.key());
        List<Tensor> out = compiled(l).apply(args);
        int i = 1;
        Map<String, Tensor> p = new LinkedHashMap<>(), st = new LinkedHashMap<>(), o = new LinkedHashMap<>();
        for (String n : l.trainable) p.put(n, out.get(i++));
        for (String n : l.state) st.put(n, out.get(i++));
        for (String n : l.opt) o.put(n, out.get(i++));
        ModelState next = s.model().withParams(p).withState(st);
        return new Result(new State(next, new OptimizerState(o), out.get(i)), out.getFirst());
    }

    /** The compiled function (for its trace count and pass report). */
    public CompiledFunction compiled() { return compiled; }

    /** Names in the compiled function's argument order; fixed by the first state (a new frozen set retraces). */
    private record Layout(List<String> trainable, List<String> frozen, List<String> state, List<String> opt) {}

    private Layout layout(State s) {
        Layout l = new Layout(List.copyOf(s.model().trainable().keySet()),
                s.model().params().keySet().stream().filter(k -> s.model().frozen().contains(k)).toList(),
                List.copyOf(s.model().state().keySet()), List.copyOf(s.optimizer().tensors().keySet()));
        Layout cur = layout;
        if (cur != null && cur.equals(l)) return cur;
        synchronized (this) {
            layout = l;
            compiled = null;
        }
        return l;
    }

    private CompiledFunction compiled(Layout l) {
        CompiledFunction c = compiled;
        if (c != null) return c;
        synchronized (this) {
            if (compiled != null) return compiled;
            int nT = l.trainable.size(), nF = l.frozen.size(), nS = l.state.size(), nO = l.opt.size();
            int[] donated = new int[nT + nO];
            for (int i = 0; i < nT; i++) donated[i] = 2 + i;
            for (int i = 0; i < nO; i++) donated[nT + i] = 2 + nT + nF + nS + i;
            compiled = Jit.compileList(xs -> traced(l, xs), JitOptions.defaults().withDonation(donated));
            return compiled;
        }
    }

    private List<Tensor> traced(Layout l, List<Tensor> xs) {
        Tensor x = xs.get(0), y = xs.get(1);
        int i = 2;
        Map<String, Tensor> trainable = new LinkedHashMap<>(), frozen = new LinkedHashMap<>(), state = new LinkedHashMap<>(), opt = new LinkedHashMap<>();
        for (String n : l.trainable) trainable.put(n, xs.get(i++));
        for (String n : l.frozen) frozen.put(n, xs.get(i++));
        for (String n : l.state) state.put(n, xs.get(i++));
        for (String n : l.opt) opt.put(n, xs.get(i++));
        Tensor key = xs.get(i);
        Map<String, Tensor> newState = new LinkedHashMap<>();
        Tensor[] lossValue = new Tensor[1];
        var vg = Autodiff.valueAndGradMap((Map<String, Tensor> p) -> {
            Map<String, Tensor> all = new LinkedHashMap<>(p);
            all.putAll(frozen);
            Forward f = model.call(all, state, List.of(x), true, key);
            newState.putAll(f.state());
            return loss.apply(f.output(), y);
        }).apply(trainable);
        lossValue[0] = vg.value();
        Optimizer.Update u = optimizer.update(vg.grads(), new OptimizerState(opt), trainable);
        Map<String, Tensor> next = u.applyTo(trainable);
        List<Tensor> out = new ArrayList<>();
        out.add(lossValue[0]);
        for (String n : l.trainable) out.add(next.get(n));
        for (String n : l.state) out.add(Autodiff.stopGradient(newState.get(n)));
        for (String n : l.opt) out.add(u.state().get(n));
        out.add(KeyBits.foldIn(key, 1L << 40));
        return out;
    }
}
