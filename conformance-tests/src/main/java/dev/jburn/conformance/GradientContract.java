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
 *
 * <p>The inputs include the points where rules break ({@link GradientCases#edges}): exact zeros,
 * ties, the bounds of {@code clip} and of comparisons. Where the forward and backward one-sided
 * differences of a coordinate disagree (a kink: a tie of max, a clip bound, abs at 0) the gradient
 * must be finite and lie between them (a subgradient; which one is the convention that
 * {@link #tieAndKinkConventionsAreTheDocumentedOnes} pins, see {@code dev.jburn.autodiff}); elsewhere it
 * must match the central difference. So a rule that divides by an input gives NaN at a zero and fails.
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
            for (GradientCases.GradientCase c : GradientCases.edges(op, engine())) {
                try {
                    checkCase(c, 7);
                } catch (RuntimeException | AssertionError ex) {
                    failures.add(op.opName() + " (" + c.name() + "): " + ex.getMessage());
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

    /**
     * Where the derivative is not defined, the value JBurn gives (the table in {@code dev.jburn.autodiff}'s
     * package documentation): ties of binary and reduced max/min split evenly, clip gives ½ at its bounds,
     * abs 0 at 0, a select follows the branch its predicate picked (so {@code x <= 0 ? 0 : x}, a relu,
     * gives 0 at 0), running max/min give a tie to the latest record, window max/min to the last tied
     * element in window order, a stable sort keeps tied elements in input order; and as JAX for powers:
     * {@code d(a^0)/da = 0} and {@code d(0^b)/db = 0}. The norm of zeros has gradient 0.
     */
    @Test
    default void tieAndKinkConventionsAreTheDocumentedOnes() {
        Tensor kinks = Tensor.of(0.0, 1.0, -1.0).to(engine());
        assertGrad(new double[] {0.5, 1, 0}, t -> t.maximum(0.0).sum(), kinks, "max(x, 0) at 0 (a relu written by hand)");
        assertGrad(new double[] {0.5, 0, 1}, t -> t.minimum(0.0).sum(), kinks, "min(x, 0) at 0");
        assertGrad(new double[] {0, 1, 0}, t -> t.lessEqual(0.0).select(0.0, t).sum(), kinks, "x <= 0 ? 0 : x at 0 (a relu by select)");
        assertGrad(new double[] {0, 1, 0}, t -> t.greater(0.0).select(t, 0.0).sum(), kinks, "x > 0 ? x : 0 at 0");
        assertGrad(new double[] {0, 1, -1}, t -> t.abs().sum(), kinks, "abs at 0");
        assertGrad(new double[] {0.5, 0.5, 1, 0}, t -> t.clip(-1, 1).sum(), Tensor.of(-1.0, 1.0, 0.0, 2.0).to(engine()), "clip at its bounds");
        assertGrad(new double[] {0, 0.5, 0.5}, t -> t.max(), Tensor.of(1.0, 3.0, 3.0).to(engine()), "a reduced max's tie");
        assertGrad(new double[] {1 / 3.0, 1 / 3.0, 1 / 3.0}, t -> t.min(), Tensor.of(2.0, 2.0, 2.0).to(engine()), "a reduced min's three-way tie");
        assertGrad(new double[] {1, 2, 0}, t -> t.cumulativeMax(0).sum(), Tensor.of(1.0, 1.0, 0.0).to(engine()), "a running max's tie");
        assertGrad(new double[] {0, 1, 0, 1}, t -> t.windowMax(new int[] {2}, dev.jburn.WindowOptions.defaults().withStrides(2)).sum(),
                Tensor.of(1.0, 1.0, 0.0, 0.0).to(engine()), "a max-pool window's tie");
        Tensor slots = Tensor.of(1.0, 2.0).to(engine());
        assertGrad(new double[] {1, 2}, t -> t.sort().multiply(slots).sum(), Tensor.of(1.0, 1.0).to(engine()), "a sort's tie");
        assertGrad(new double[] {0, 0}, t -> t.pow(0.0).sum(), Tensor.of(0.0, 2.0).to(engine()), "d(a^0)/da");
        assertGrad(new double[] {0, 0}, t -> Tensor.of(0.0, 0.0).to(engine()).pow(t).sum(), Tensor.of(0.0, 2.0).to(engine()), "d(0^b)/db");
        assertGrad(new double[] {0, 0}, dev.jburn.LinAlg::norm, Tensor.of(0.0, 0.0).to(engine()), "the norm of zeros");
    }

    private static void assertGrad(double[] expected, java.util.function.Function<Tensor, Tensor> f, Tensor at, String what) {
        double[] eager = Autodiff.grad(f).apply(at).toDoubleArray();
        double[] jit = Jit.compile(Autodiff.grad(f)).apply(at).toDoubleArray();
        for (int i = 0; i < expected.length; i++) {
            if (!(Math.abs(eager[i] - expected[i]) <= 1e-12 && Math.abs(jit[i] - expected[i]) <= 1e-12)) {
                fail(what + ": expected " + java.util.Arrays.toString(expected) + ", got " + java.util.Arrays.toString(eager)
                        + " (eager) and " + java.util.Arrays.toString(jit) + " (jit)");
            }
        }
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
        double f0 = loss.apply(in).toDoubleArray()[0];
        for (int i = 0; i < in.size(); i++) {
            double[] base = in.get(i).toDoubleArray();
            double[] ga = grads.get(i).toDoubleArray();
            double[] gj = jitGrads.get(i).toDoubleArray();
            for (int j = 0; j < base.length; j++) {
                double h = 1e-6 * Math.max(1.0, Math.abs(base[j]));
                double up = eval(loss, in, i, base, j, base[j] + h), down = eval(loss, in, i, base, j, base[j] - h);
                double fd = (up - down) / (2 * h);
                double forward = (up - f0) / h, backward = (f0 - down) / h;
                String where = c.name() + ": d/dx" + i + "[" + j + "] at " + base[j];
                if (!Double.isFinite(ga[j])) {
                    throw new AssertionError(where + ": reverse " + ga[j] + " where the one-sided differences are " + backward + " and " + forward);
                }
                boolean kink = Math.abs(forward - backward) > 1e-4 * (1 + Math.abs(fd));
                if (kink) {
                    double lo = Math.min(forward, backward), hi = Math.max(forward, backward);
                    double tol = 1e-6 * (1 + Math.max(Math.abs(lo), Math.abs(hi)));
                    if (!(ga[j] >= lo - tol && ga[j] <= hi + tol)) {
                        throw new AssertionError(where + " (a kink): reverse " + ga[j] + " is not between the one-sided differences "
                                + backward + " and " + forward);
                    }
                } else if (!(Math.abs(ga[j] - fd) <= 1e-6 * (1 + Math.abs(fd)))) {
                    throw new AssertionError(where + ": reverse " + ga[j] + " vs finite difference " + fd);
                }
                if (!(Math.abs(ga[j] - gj[j]) <= 1e-12 * (1 + Math.abs(ga[j])))) {
                    throw new AssertionError(where + ": eager " + ga[j] + " vs jit " + gj[j]);
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
