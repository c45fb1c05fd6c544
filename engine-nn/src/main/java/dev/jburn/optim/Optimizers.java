package dev.jburn.optim;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The usual optimizers as pure {@link Optimizer}s, with PyTorch's update rules (cited per
 * factory) so that a run can be compared step for step with {@code torch.optim}. The learning
 * rate lives in the state ({@code "learning_rate"}), as every hyperparameter a schedule may
 * change, so changing it never recompiles a compiled step. Scalars take the parameters' float
 * type (f64 when any parameter is f64, else f32).
 */
public final class Optimizers {
    private Optimizers() {}

    /** {@code base} driven by {@code schedule}: its learning rate starts at {@code schedule.at(0)}; see {@link Optimizer#schedule()}. */
    public static Optimizer scheduled(Optimizer base, Schedule schedule) {
        if (base == null || schedule == null) throw new JBurnException("scheduled", "the optimizer and the schedule are required");
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                return base.init(params).withLearningRate(schedule.at(0));
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                return base.update(grads, state, params);
            }

            @Override public Schedule schedule() { return schedule; }

            @Override public String toString() { return base + " scheduled"; }
        };
    }

    /** SGD with a learning-rate schedule. */
    public static Optimizer sgd(Schedule lr) { return scheduled(sgd(lr(lr)), lr); }

    /** Adam with a learning-rate schedule. */
    public static Optimizer adam(Schedule lr) { return scheduled(adam(lr(lr)), lr); }

    /** AdamW with a learning-rate schedule. */
    public static Optimizer adamW(Schedule lr, double weightDecay) { return scheduled(adamW(lr(lr), weightDecay), lr); }

    private static double lr(Schedule s) {
        if (s == null) throw new JBurnException("optimizer", "the schedule must not be null");
        return s.at(0);
    }

    /** Plain SGD: {@code p ← p − lr·g} ({@code torch.optim.SGD} with momentum 0). */
    public static Optimizer sgd(double lr) { return sgd(lr, 0, false); }

    /**
     * SGD with momentum, as {@code torch.optim.SGD} (dampening 0): {@code b ← μ·b + g} (b starts at
     * 0, so the first step's {@code b = g}), then {@code p ← p − lr·b}, or with Nesterov
     * {@code p ← p − lr·(g + μ·b)}.
     */
    public static Optimizer sgd(double lr, double momentum, boolean nesterov) {
        checkLr("sgd", lr);
        if (!(momentum >= 0 && momentum < 1)) throw new JBurnException("sgd", "momentum must be in [0, 1), got " + momentum);
        if (nesterov && momentum == 0) throw new JBurnException("sgd", "Nesterov momentum needs a momentum > 0");
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> s = hyper(params, lr);
                if (momentum > 0) params.forEach((k, p) -> s.put("momentum/" + k, zerosLike(p)));
                return new OptimizerState(s);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor rate = state.get("learning_rate");
                Map<String, Tensor> u = new LinkedHashMap<>(), next = new LinkedHashMap<>(state.tensors());
                grads.forEach((k, g) -> {
                    Tensor step = g;
                    if (momentum > 0) {
                        Tensor b = state.get("momentum/" + k).multiply(momentum).add(g);
                        next.put("momentum/" + k, b);
                        step = nesterov ? g.add(b.multiply(momentum)) : b;
                    }
                    u.put(k, step.multiply(rate).negate());
                });
                next.put("count", state.get("count").add(1));
                return new Update(u, new OptimizerState(next));
            }

            @Override public String toString() { return "sgd(lr=" + lr + ", momentum=" + momentum + ", nesterov=" + nesterov + ")"; }
        };
    }

    /** Adam with β = (0.9, 0.999), ε = 1e-8; see {@link #adamW(double, double, double, double, double)}. */
    public static Optimizer adam(double lr) { return adamW(lr, 0.9, 0.999, 1e-8, 0); }

    /** AdamW with β = (0.9, 0.999), ε = 1e-8 and decoupled weight decay {@code weightDecay}. */
    public static Optimizer adamW(double lr, double weightDecay) { return adamW(lr, 0.9, 0.999, 1e-8, weightDecay); }

    /**
     * Adam / AdamW as {@code torch.optim.Adam} and {@code torch.optim.AdamW} (amsgrad off): with
     * {@code t} the step (from 1), {@code m ← β1·m + (1−β1)·g}, {@code v ← β2·v + (1−β2)·g²},
     * {@code p ← p − lr·wd·p − lr·(m/(1−β1^t)) / (sqrt(v/(1−β2^t)) + ε)} — the decay is
     * decoupled (Loshchilov &amp; Hutter), applied to the parameter before the step; 0 gives Adam.
     */
    public static Optimizer adamW(double lr, double beta1, double beta2, double eps, double weightDecay) {
        return adamW(lr, beta1, beta2, eps, weightDecay, name -> true);
    }

    /**
     * AdamW whose decoupled weight decay applies only to the parameters {@code decayMask} accepts (biases and
     * normalization scales are usually left out: {@code name -> name.endsWith(".kernel")}).
     */
    public static Optimizer adamW(double lr, double beta1, double beta2, double eps, double weightDecay, Predicate<String> decayMask) {
        if (decayMask == null) throw new JBurnException("adam", "the weight-decay mask must not be null");
        checkLr("adam", lr);
        if (!(beta1 >= 0 && beta1 < 1 && beta2 >= 0 && beta2 < 1)) throw new JBurnException("adam", "betas must be in [0, 1), got " + beta1 + ", " + beta2);
        if (!(eps >= 0) || !(weightDecay >= 0)) throw new JBurnException("adam", "eps and weight decay must be >= 0, got " + eps + ", " + weightDecay);
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> s = hyper(params, lr);
                if (weightDecay > 0) s.put("weight_decay", scalar(params, weightDecay));
                params.forEach((k, p) -> s.put("mu/" + k, zerosLike(p)));
                params.forEach((k, p) -> s.put("nu/" + k, zerosLike(p)));
                return new OptimizerState(s);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor rate = state.get("learning_rate");
                Tensor t = state.get("count").add(1);
                Tensor c1 = scalarLike(t, beta1).pow(t).negate().add(1.0);
                Tensor c2 = scalarLike(t, beta2).pow(t).negate().add(1.0);
                Map<String, Tensor> u = new LinkedHashMap<>(), next = new LinkedHashMap<>(state.tensors());
                grads.forEach((k, g) -> {
                    Tensor m = state.get("mu/" + k).multiply(beta1).add(g.multiply(1 - beta1));
                    Tensor v = state.get("nu/" + k).multiply(beta2).add(g.multiply(g).multiply(1 - beta2));
                    next.put("mu/" + k, m);
                    next.put("nu/" + k, v);
                    Tensor step = m.divide(c1).divide(v.divide(c2).sqrt().add(eps));
                    if (weightDecay > 0 && decayMask.test(k)) step = step.add(params.get(k).multiply(state.get("weight_decay")));
                    u.put(k, step.multiply(rate).negate());
                });
                next.put("count", t);
                return new Update(u, new OptimizerState(next));
            }

            @Override public String toString() { return (weightDecay > 0 ? "adamW" : "adam") + "(lr=" + lr + ")"; }
        };
    }

    /** RMSprop with α = 0.99, ε = 1e-8, no momentum, not centered; see {@link #rmsprop(double, double, double, double, boolean)}. */
    public static Optimizer rmsprop(double lr) { return rmsprop(lr, 0.99, 1e-8, 0, false); }

    /**
     * RMSprop as {@code torch.optim.RMSprop}: {@code v ← α·v + (1−α)·g²}; centered keeps
     * {@code ḡ ← α·ḡ + (1−α)·g} and uses {@code v − ḡ²}; {@code d = sqrt(·) + ε}; with momentum
     * {@code b ← μ·b + g/d}, {@code p ← p − lr·b}, else {@code p ← p − lr·g/d}.
     */
    public static Optimizer rmsprop(double lr, double alpha, double eps, double momentum, boolean centered) {
        checkLr("rmsprop", lr);
        if (!(alpha >= 0 && alpha < 1) || !(eps >= 0) || !(momentum >= 0 && momentum < 1)) {
            throw new JBurnException("rmsprop", "needs alpha and momentum in [0, 1) and eps >= 0, got " + alpha + ", " + momentum + ", " + eps);
        }
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> s = hyper(params, lr);
                params.forEach((k, p) -> s.put("square_avg/" + k, zerosLike(p)));
                if (centered) params.forEach((k, p) -> s.put("grad_avg/" + k, zerosLike(p)));
                if (momentum > 0) params.forEach((k, p) -> s.put("momentum/" + k, zerosLike(p)));
                return new OptimizerState(s);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor rate = state.get("learning_rate");
                Map<String, Tensor> u = new LinkedHashMap<>(), next = new LinkedHashMap<>(state.tensors());
                grads.forEach((k, g) -> {
                    Tensor v = state.get("square_avg/" + k).multiply(alpha).add(g.multiply(g).multiply(1 - alpha));
                    next.put("square_avg/" + k, v);
                    Tensor var = v;
                    if (centered) {
                        Tensor ga = state.get("grad_avg/" + k).multiply(alpha).add(g.multiply(1 - alpha));
                        next.put("grad_avg/" + k, ga);
                        var = v.subtract(ga.multiply(ga));
                    }
                    Tensor step = g.divide(var.sqrt().add(eps));
                    if (momentum > 0) {
                        step = state.get("momentum/" + k).multiply(momentum).add(step);
                        next.put("momentum/" + k, step);
                    }
                    u.put(k, step.multiply(rate).negate());
                });
                next.put("count", state.get("count").add(1));
                return new Update(u, new OptimizerState(next));
            }

            @Override public String toString() { return "rmsprop(lr=" + lr + ")"; }
        };
    }

    /** Adagrad as {@code torch.optim.Adagrad} (no lr decay, initial accumulator 0, ε = 1e-10): {@code s ← s + g²}, {@code p ← p − lr·g/(sqrt(s) + ε)}. */
    public static Optimizer adagrad(double lr) {
        checkLr("adagrad", lr);
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> s = hyper(params, lr);
                params.forEach((k, p) -> s.put("sum/" + k, zerosLike(p)));
                return new OptimizerState(s);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor rate = state.get("learning_rate");
                Map<String, Tensor> u = new LinkedHashMap<>(), next = new LinkedHashMap<>(state.tensors());
                grads.forEach((k, g) -> {
                    Tensor s = state.get("sum/" + k).add(g.multiply(g));
                    next.put("sum/" + k, s);
                    u.put(k, g.divide(s.sqrt().add(1e-10)).multiply(rate).negate());
                });
                next.put("count", state.get("count").add(1));
                return new Update(u, new OptimizerState(next));
            }

            @Override public String toString() { return "adagrad(lr=" + lr + ")"; }
        };
    }

    /** Gradients clipped element-wise to {@code [-limit, limit]} (Optax {@code clip}). */
    public static Optimizer clipByValue(double limit) {
        if (!(limit > 0)) throw new JBurnException("clipByValue", "the limit must be positive, got " + limit);
        return stateless("clipByValue", g -> g.clip(-limit, limit));
    }

    /** Each gradient tensor scaled down to an L2 norm of at most {@code maxNorm}. */
    public static Optimizer clipByNorm(double maxNorm) {
        if (!(maxNorm > 0)) throw new JBurnException("clipByNorm", "the norm must be positive, got " + maxNorm);
        return stateless("clipByNorm", g -> g.multiply(scaleFor(g.multiply(g).sum().sqrt(), maxNorm)));
    }

    /** All gradients scaled together so that their global L2 norm is at most {@code maxNorm} (Optax {@code clip_by_global_norm}). */
    public static Optimizer clipByGlobalNorm(double maxNorm) {
        if (!(maxNorm > 0)) throw new JBurnException("clipByGlobalNorm", "the norm must be positive, got " + maxNorm);
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) { return new OptimizerState(Map.of()); }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor sq = null;
                for (Tensor g : grads.values()) {
                    Tensor s = g.multiply(g).sum();
                    sq = sq == null ? s : sq.add(s);
                }
                Map<String, Tensor> u = new LinkedHashMap<>();
                if (sq == null) return new Update(u, state);
                Tensor scale = scaleFor(sq.sqrt(), maxNorm);
                grads.forEach((k, g) -> u.put(k, g.multiply(scale).asType(g.dtype())));
                return new Update(u, state);
            }
        };
    }

    /**
     * Gradient accumulation (Optax {@code MultiSteps}): gradients are summed over {@code n} steps and
     * {@code inner} runs on their mean every {@code n}-th step; the other steps' updates are zero and
     * leave {@code inner}'s state unchanged. Written with {@code select}, so it traces into one graph.
     */
    public static Optimizer accumulate(int n, Optimizer inner) {
        if (n < 1) throw new JBurnException("accumulate", "n must be >= 1, got " + n);
        if (inner == null) throw new JBurnException("accumulate", "the inner optimizer is required");
        if (n == 1) return inner;
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) {
                Map<String, Tensor> s = new LinkedHashMap<>();
                s.put("mini_step", scalar(params, 0));
                params.forEach((k, p) -> s.put("acc/" + k, zerosLike(p)));
                inner.init(params).tensors().forEach((k, v) -> s.put("inner/" + k, v));
                return new OptimizerState(s);
            }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Tensor mini = state.get("mini_step").add(1);
                Tensor apply = mini.greaterEqual((double) n);
                Map<String, Tensor> acc = new LinkedHashMap<>(), mean = new LinkedHashMap<>();
                grads.forEach((k, g) -> {
                    Tensor a = state.get("acc/" + k).add(g);
                    acc.put(k, a);
                    mean.put(k, a.divide((double) n));
                });
                Map<String, Tensor> innerState = new LinkedHashMap<>();
                state.tensors().forEach((k, v) -> { if (k.startsWith("inner/")) innerState.put(k.substring(6), v); });
                Update r = inner.update(mean, new OptimizerState(innerState), params);
                Map<String, Tensor> u = new LinkedHashMap<>(), next = new LinkedHashMap<>();
                next.put("mini_step", apply.select(mini.multiply(0.0), mini));
                acc.forEach((k, a) -> next.put("acc/" + k, apply.select(a.multiply(0.0), a)));
                r.state().tensors().forEach((k, v) -> next.put("inner/" + k, apply.select(v, innerState.get(k))));
                r.updates().forEach((k, v) -> u.put(k, apply.select(v, v.multiply(0.0))));
                return new Update(u, new OptimizerState(next));
            }

            @Override public Schedule schedule() { return inner.schedule(); }

            @Override public String toString() { return "accumulate(" + n + ", " + inner + ")"; }
        };
    }

    /** L2 weight decay on the gradients, {@code g + wd·p}, for the parameters {@code mask} accepts (chain it before the optimizer). */
    public static Optimizer l2(double weightDecay, Predicate<String> mask) {
        if (!(weightDecay >= 0)) throw new JBurnException("l2", "weight decay must be >= 0, got " + weightDecay);
        if (mask == null) throw new JBurnException("l2", "the mask must not be null (use name -> true for every parameter)");
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) { return new OptimizerState(Map.of()); }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Map<String, Tensor> u = new LinkedHashMap<>();
                grads.forEach((k, g) -> u.put(k, mask.test(k) ? g.add(params.get(k).multiply(weightDecay)) : g));
                return new Update(u, state);
            }
        };
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** {@code min(1, max / norm)}, as {@code max / max(norm, max)}: 1 for a zero norm. */
    private static Tensor scaleFor(Tensor norm, double max) { return scalarLike(norm, max).divide(norm.maximum(max)); }

    private static Optimizer stateless(String name, java.util.function.UnaryOperator<Tensor> f) {
        return new Optimizer() {
            @Override public OptimizerState init(Map<String, Tensor> params) { return new OptimizerState(Map.of()); }

            @Override public Update update(Map<String, Tensor> grads, OptimizerState state, Map<String, Tensor> params) {
                Map<String, Tensor> u = new LinkedHashMap<>();
                grads.forEach((k, g) -> u.put(k, f.apply(g)));
                return new Update(u, state);
            }

            @Override public String toString() { return name; }
        };
    }

    private static Map<String, Tensor> hyper(Map<String, Tensor> params, double lr) {
        Map<String, Tensor> s = new LinkedHashMap<>();
        s.put("count", scalar(params, 0));
        s.put("learning_rate", scalar(params, lr));
        return s;
    }

    private static Tensor scalar(Map<String, Tensor> params, double v) {
        DType t = DType.F32;
        dev.jburn.Engine e = null;
        for (Tensor p : params.values()) {
            if (p.dtype() == DType.F64) t = DType.F64;
            e = p.engine();
        }
        Tensor s = Tensor.scalar(v, t);
        return e == null ? s : s.to(e);
    }

    private static Tensor scalarLike(Tensor like, double v) { return like.multiply(0.0).add(v); }

    private static Tensor zerosLike(Tensor p) { return Tensor.zeros(p.shape(), p.dtype()).to(p.engine()); }

    private static void checkLr(String op, double lr) {
        if (!(lr >= 0) || Double.isInfinite(lr)) throw new JBurnException(op, "the learning rate must be finite and >= 0, got " + lr);
    }
}
