package dev.jburn.optim;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every optimizer against an update sequence computed by hand in doubles from PyTorch's documented
 * update rules (https://pytorch.org/docs/stable/generated/torch.optim.SGD.html, .Adam, .AdamW, .RMSprop,
 * .Adagrad: the algorithm boxes), on f64 parameters over three steps with changing gradients.
 */
class OptimizersTest {
    private static final double[] P0 = {0.5, -1.5, 2.0};
    private static final double[][] G = {{0.1, -0.2, 0.3}, {-0.4, 0.5, 0.05}, {0.2, 0.2, -0.6}};

    /** Runs {@code opt} for the three gradient steps; returns the parameters after each step. */
    private static List<double[]> run(Optimizer opt, boolean compiled) {
        Map<String, Tensor> p = Map.of("w", Tensor.of(P0.clone()));
        OptimizerState s = opt.init(p);
        List<double[]> out = new ArrayList<>();
        var step = Jit.compileList(xs -> {
            Map<String, Tensor> params = Map.of("w", xs.get(0)), grads = Map.of("w", xs.get(1));
            Map<String, Tensor> st = new LinkedHashMap<>();
            int i = 2;
            for (String k : opt.init(Map.of("w", Tensor.of(P0.clone()))).tensors().keySet()) st.put(k, xs.get(i++));
            Optimizer.Update u = opt.update(grads, new OptimizerState(st), params);
            List<Tensor> r = new ArrayList<>(List.of(u.applyTo(params).get("w")));
            r.addAll(u.state().tensors().values());
            return r;
        });
        for (double[] g : G) {
            if (compiled) {
                List<Tensor> args = new ArrayList<>(List.of(p.get("w"), Tensor.of(g)));
                args.addAll(s.tensors().values());
                List<Tensor> r = step.apply(args);
                p = Map.of("w", r.getFirst());
                Map<String, Tensor> st = new LinkedHashMap<>();
                int i = 1;
                for (String k : s.tensors().keySet()) st.put(k, r.get(i++));
                s = new OptimizerState(st);
            } else {
                Optimizer.Update u = opt.update(Map.of("w", Tensor.of(g)), s, p);
                p = u.applyTo(p);
                s = u.state();
            }
            out.add(p.get("w").toDoubleArray());
        }
        return out;
    }

    private static void check(Optimizer opt, List<double[]> expected) {
        for (boolean compiled : new boolean[] {false, true}) {
            List<double[]> got = run(opt, compiled);
            for (int t = 0; t < expected.size(); t++) {
                assertArrayEquals(expected.get(t), got.get(t), 1e-12, opt + (compiled ? " (Jit)" : "") + " step " + (t + 1));
            }
        }
    }

    @Test
    void sgdPlainMomentumAndNesterov() {
        for (double mu : new double[] {0, 0.9}) {
            for (boolean nesterov : mu == 0 ? new boolean[] {false} : new boolean[] {false, true}) {
                double lr = 0.1;
                double[] p = P0.clone(), b = new double[3];
                List<double[]> exp = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    for (int i = 0; i < 3; i++) {
                        double g = G[t][i];
                        b[i] = t == 0 ? g : mu * b[i] + g;          // torch: b_1 = g_1, then mu*b + (1 - dampening)*g
                        double d = mu == 0 ? g : nesterov ? g + mu * b[i] : b[i];
                        p[i] -= lr * d;
                    }
                    exp.add(p.clone());
                }
                check(Optimizers.sgd(lr, mu, nesterov), exp);
            }
        }
    }

    @Test
    void adamAndAdamW() {
        for (double wd : new double[] {0, 0.01}) {
            double lr = 1e-2, b1 = 0.9, b2 = 0.999, eps = 1e-8;
            double[] p = P0.clone(), m = new double[3], v = new double[3];
            List<double[]> exp = new ArrayList<>();
            for (int t = 1; t <= 3; t++) {
                for (int i = 0; i < 3; i++) {
                    double g = G[t - 1][i];
                    p[i] -= lr * wd * p[i];                          // AdamW: theta <- theta - gamma*lambda*theta
                    m[i] = b1 * m[i] + (1 - b1) * g;
                    v[i] = b2 * v[i] + (1 - b2) * g * g;
                    double mh = m[i] / (1 - Math.pow(b1, t)), vh = v[i] / (1 - Math.pow(b2, t));
                    p[i] -= lr * mh / (Math.sqrt(vh) + eps);
                }
                exp.add(p.clone());
            }
            check(wd == 0 ? Optimizers.adam(lr) : Optimizers.adamW(lr, wd), exp);
        }
    }

    @Test
    void decoupledDecayFollowsItsMask() {
        Map<String, Tensor> p = new LinkedHashMap<>();
        p.put("d.kernel", Tensor.of(1.0, 2.0));
        p.put("d.bias", Tensor.of(1.0, 2.0));
        Optimizer opt = Optimizers.adamW(0.1, 0.9, 0.999, 1e-8, 0.5, n -> n.endsWith(".kernel"));
        Map<String, Tensor> zero = Map.of("d.kernel", Tensor.of(0.0, 0.0), "d.bias", Tensor.of(0.0, 0.0));
        Map<String, Tensor> next = opt.update(zero, opt.init(p), p).applyTo(p);
        assertArrayEquals(new double[] {0.95, 1.9}, next.get("d.kernel").toDoubleArray(), 1e-12, "decayed: p - lr*wd*p");
        assertArrayEquals(new double[] {1.0, 2.0}, next.get("d.bias").toDoubleArray(), 1e-12, "masked out");
    }

    @Test
    void rmspropPlainCenteredMomentum() {
        for (boolean centered : new boolean[] {false, true}) {
            for (double mu : new double[] {0, 0.5}) {
                double lr = 0.01, alpha = 0.99, eps = 1e-8;
                double[] p = P0.clone(), v = new double[3], ga = new double[3], b = new double[3];
                List<double[]> exp = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    for (int i = 0; i < 3; i++) {
                        double g = G[t][i];
                        v[i] = alpha * v[i] + (1 - alpha) * g * g;
                        double vt = v[i];
                        if (centered) {
                            ga[i] = alpha * ga[i] + (1 - alpha) * g;
                            vt = v[i] - ga[i] * ga[i];
                        }
                        double d = g / (Math.sqrt(vt) + eps);
                        if (mu > 0) {
                            b[i] = mu * b[i] + d;
                            d = b[i];
                        }
                        p[i] -= lr * d;
                    }
                    exp.add(p.clone());
                }
                check(Optimizers.rmsprop(lr, alpha, eps, mu, centered), exp);
            }
        }
    }

    @Test
    void accumulationAppliesTheMeanGradientEveryNSteps() {
        double lr = 0.1;
        double[] p = P0.clone();
        List<double[]> exp = new ArrayList<>();
        exp.add(p.clone());                                  // step 1: accumulated, no update
        for (int i = 0; i < 3; i++) p[i] -= lr * (G[0][i] + G[1][i]) / 2;
        exp.add(p.clone());                                  // step 2: SGD on the mean of steps 1 and 2
        exp.add(p.clone());                                  // step 3: accumulated again
        check(Optimizers.accumulate(2, Optimizers.sgd(lr)), exp);
    }

    @Test
    void adagrad() {
        double lr = 0.1;
        double[] p = P0.clone(), s = new double[3];
        List<double[]> exp = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            for (int i = 0; i < 3; i++) {
                s[i] += G[t][i] * G[t][i];
                p[i] -= lr * G[t][i] / (Math.sqrt(s[i]) + 1e-10);
            }
            exp.add(p.clone());
        }
        check(Optimizers.adagrad(lr), exp);
    }

    @Test
    void clippingChainsAndTheLearningRateIsState() {
        double lr = 0.1;
        // global norm of G[0] is sqrt(0.14) = 0.374; clipped to 0.2, then SGD
        double norm = Math.sqrt(0.01 + 0.04 + 0.09);
        double[] p = P0.clone();
        for (int i = 0; i < 3; i++) p[i] -= lr * G[0][i] * 0.2 / norm;
        Optimizer opt = Optimizer.chain(Optimizers.clipByGlobalNorm(0.2), Optimizers.sgd(lr));
        assertArrayEquals(p, run(opt, false).getFirst(), 1e-12);
        assertArrayEquals(p, run(opt, true).getFirst(), 1e-12);
        double[] q = P0.clone();
        for (int i = 0; i < 3; i++) q[i] -= lr * Math.max(-0.15, Math.min(0.15, G[0][i]));
        assertArrayEquals(q, run(Optimizer.chain(Optimizers.clipByValue(0.15), Optimizers.sgd(lr)), false).getFirst(), 1e-12);

        Map<String, Tensor> params = Map.of("w", Tensor.of(P0.clone()));
        OptimizerState s = opt.init(params);
        assertEquals(0.1, s.learningRate(), 1e-12);
        assertEquals(0.05, s.withLearningRate(0.05).learningRate(), 1e-12);
        assertThrows(JBurnException.class, () -> Optimizers.adam(Double.NaN));
        assertThrows(JBurnException.class, () -> Optimizers.sgd(-1));
        assertThrows(JBurnException.class, () -> s.withLearningRate(-0.1));
    }
}
