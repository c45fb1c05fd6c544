package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.autodiff.Differentiability;
import dev.jburn.graph.Jit;
import dev.jburn.op.Op;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reverse-mode gradients: for every differentiable catalog op ({@link Autodiff#differentiability}),
 * the gradient of a randomly weighted sum of its output equals central finite differences in
 * F64 (step {@code 1e-6·max(1,|x|)}, tolerance {@code 1e-6·(1+|fd|)}) on generated inputs from
 * {@link GradientCases}, and the same gradient compiled with {@link Jit} agrees with it.
 */
public interface GradientContract extends EngineContract {
    /** Seeds of generated inputs per op. */
    int SEEDS = 3;

    @Test
    default void everyDifferentiableOpMatchesFiniteDifferences() {
        List<String> failures = new ArrayList<>();
        for (Op op : Op.catalog()) {
            if (Autodiff.differentiability(op) != Differentiability.DIFFERENTIABLE) continue;
            for (long seed = 0; seed < SEEDS; seed++) {
                GradientCases.GradientCase c = GradientCases.of(op, seed, engine());
                if (c == null) continue;
                try {
                    checkCase(c, seed);
                } catch (RuntimeException | AssertionError ex) {
                    failures.add(op.opName() + " (seed " + seed + "): " + ex.getMessage());
                }
            }
        }
        if (!failures.isEmpty()) fail(failures.size() + " gradient checks failed:\n  " + String.join("\n  ", failures));
    }

    @Test
    default void floatCastsPassTheGradientThroughAndIntegerCastsBlockIt() {
        Tensor x = Tensor.of(1.5f, -2f, 3f).to(engine());
        Tensor g = Autodiff.grad(t -> t.asType(DType.F64).multiply(2.0).sum()).apply(x);
        assertEquals(DType.F32, g.dtype());
        assertArrayEquals(new double[] {2, 2, 2}, g.toDoubleArray());
        Tensor z = Autodiff.grad(t -> t.asType(DType.S32).asType(DType.F64).sum()).apply(Tensor.of(1.5, 2.5).to(engine()));
        assertArrayEquals(new double[] {0, 0}, z.toDoubleArray());
        assertEquals(Shape.of(2), z.shape());
    }

    private void checkCase(GradientCases.GradientCase c, long seed) {
        java.util.Random r = new java.util.Random(1000 + seed);
        List<Tensor> in = c.inputs();
        Tensor probe = c.f().apply(in);
        double[] wv = new double[Math.toIntExact(probe.size())];
        for (int i = 0; i < wv.length; i++) wv[i] = 0.5 + r.nextDouble();
        Tensor w = Tensor.of(wv).reshape(probe.shape()).to(engine());
        java.util.function.Function<List<Tensor>, Tensor> loss = xs -> c.f().apply(xs).multiply(w).sum();
        List<Tensor> grads = Autodiff.gradList(loss).apply(in);
        List<Tensor> jitGrads = Jit.compileList(Autodiff.gradList(loss)).apply(in);
        for (int i = 0; i < in.size(); i++) {
            double[] base = in.get(i).toDoubleArray();
            double[] ga = grads.get(i).toDoubleArray();
            double[] gj = jitGrads.get(i).toDoubleArray();
            for (int j = 0; j < base.length; j++) {
                double h = 1e-6 * Math.max(1.0, Math.abs(base[j]));
                double fd = (eval(loss, in, i, base, j, base[j] + h) - eval(loss, in, i, base, j, base[j] - h)) / (2 * h);
                if (!(Math.abs(ga[j] - fd) <= 1e-6 * (1 + Math.abs(fd)))) {
                    throw new AssertionError(c.name() + ": d/dx" + i + "[" + j + "] reverse " + ga[j] + " vs finite difference " + fd);
                }
                if (!(Math.abs(ga[j] - gj[j]) <= 1e-12 * (1 + Math.abs(ga[j])))) {
                    throw new AssertionError(c.name() + ": d/dx" + i + "[" + j + "] eager " + ga[j] + " vs jit " + gj[j]);
                }
            }
        }
    }

    private static double eval(java.util.function.Function<List<Tensor>, Tensor> f, List<Tensor> in, int i, double[] base, int j, double v) {
        double[] p = base.clone();
        p[j] = v;
        List<Tensor> args = new ArrayList<>(in);
        args.set(i, Tensor.of(p).reshape(in.get(i).shape()).to(in.get(i).engine()));
        return f.apply(args).toDoubleArray()[0];
    }
}
