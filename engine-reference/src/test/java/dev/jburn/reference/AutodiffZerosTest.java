package dev.jburn.reference;

import dev.jburn.LinAlg;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static dev.jburn.reference.AutodiffTestSupport.assertGradMatchesFiniteDifferences;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Gradients at exact zeros, where a rule that divides by its input gives NaN: products, cumulative
 * products, powers with exponent 0 or base 0, cbrt, the norm of zeros, and their second order.
 */
class AutodiffZerosTest {
    private static double[] grad(Function<Tensor, Tensor> f, double... at) {
        double[] eager = Autodiff.grad(f).apply(Tensor.of(at)).toDoubleArray();
        assertArrayEquals(eager, Jit.compile(Autodiff.grad(f)).apply(Tensor.of(at)).toDoubleArray(), 1e-12, "eager vs jit");
        return eager;
    }

    @Test
    void productsOfZerosHaveTheProductOfTheOtherElements() {
        assertArrayEquals(new double[] {0, 6, 0}, grad(Tensor::product, 2, 0, 3), 1e-12);
        assertArrayEquals(new double[] {0, 0, 0}, grad(Tensor::product, 0, 5, 0), 1e-12);
        assertArrayEquals(new double[] {12, 0, 0, 0}, grad(t -> t.reshape(2, 2).product(new int[] {0, 1}), 0, 2, 3, 2), 1e-12);
        assertArrayEquals(new double[] {1, 8, 0}, grad(t -> t.cumulativeProduct(0).sum(), 2, 0, 3), 1e-12);
        // reverse: y = [0, 0, 3] (x0·x1·x2, x1·x2, x2): d/dx = [x1·x2, x0·x2 + x2, x0·x1 + x1 + 1]
        assertArrayEquals(new double[] {0, 9, 1}, grad(t -> t.cumulativeProduct(0, true).sum(), 2, 0, 3), 1e-12);
    }

    @Test
    void powersAtZeroFollowJax() {
        assertArrayEquals(new double[] {0, 0}, grad(t -> t.pow(0.0).sum(), 0, 3), 1e-12);
        assertArrayEquals(new double[] {0, 1, 0}, grad(t -> t.pow(Tensor.of(0.0, 1, 2)).sum(), 0, 0, 0), 1e-12);
        // d(0^b)/db = 0, also at b = 0 (log 0 would make it NaN)
        assertArrayEquals(new double[] {0, 0}, grad(b -> Tensor.of(0.0, 0.0).pow(b).sum(), 0, 2), 1e-12);
        // second order: d²(x²)/dx² = 2 at 0, and a^0 stays flat
        assertArrayEquals(new double[] {2}, grad(x -> Autodiff.grad(t -> t.pow(2.0).sum()).apply(x).sum(), 0), 1e-12);
        assertArrayEquals(new double[] {0}, grad(x -> Autodiff.grad(t -> t.pow(0.0).sum()).apply(x).sum(), 0), 1e-12);
        assertArrayEquals(new double[] {0}, grad(b -> Autodiff.grad(e -> Tensor.of(0.0).pow(e).sum()).apply(b).sum(), 1), 1e-12);
    }

    @Test
    void cbrtHasAnInfiniteSlopeAtZeroNotNaN() {
        assertEquals(Double.POSITIVE_INFINITY, grad(t -> t.cbrt().sum(), 0)[0]);
        assertEquals(1 / 12.0, grad(t -> t.cbrt().sum(), 8)[0], 1e-15);
    }

    @Test
    void theNormOfZerosHasGradientZero() {
        assertArrayEquals(new double[] {0, 0, 0}, grad(LinAlg::norm, 0, 0, 0), 0);
        assertArrayEquals(new double[] {0, 0.6, 0.8}, grad(LinAlg::norm, 0, 3, 4), 1e-15);
        assertArrayEquals(new double[] {0, 0}, grad(t -> LinAlg.norm(t, LinAlg.Ord.p(3)), 0, 0), 0);
        assertEquals(0.0, LinAlg.norm(Tensor.of(0.0, 0.0)).toDoubleArray()[0]);
        assertEquals(Double.NaN, LinAlg.norm(Tensor.of(0.0, Double.NaN)).toDoubleArray()[0]);
    }

    @Test
    void secondOrderThroughProductsAtZeros() {
        // the gradient of the gradient's sum: sum over i != j of the product of the others
        assertArrayEquals(new double[] {3, 5, 2}, grad(x -> Autodiff.grad(Tensor::product).apply(x).sum(), 2, 0, 3), 1e-12);
        Tensor at = Tensor.of(new double[][] {{2, 0, 3, 0.5}, {0, 1.5, 0, 2}});
        for (boolean reverse : new boolean[] {false, true}) {
            Function<List<Tensor>, Tensor> first = xs -> Autodiff.grad(t -> t.cumulativeProduct(1, reverse).multiply(at).sum())
                    .apply(xs.get(0)).multiply(at).sum();
            assertGradMatchesFiniteDifferences("second order of cumulativeProduct" + (reverse ? " reverse" : ""), first, at);
        }
    }

    @Test
    void padValuesGetTheSumOfWhereTheyLandedEvenNextToInfinities() {
        List<Tensor> g = Autodiff.gradList((List<Tensor> xs) -> xs.get(0).pad(xs.get(1), new int[][] {{1, 1, 1}})
                .multiply(Tensor.of(1.0, Double.POSITIVE_INFINITY, 2.0, 3.0, 4.0, 5.0, 6.0)).sum())
                .apply(List.of(Tensor.of(1.0, 2.0, 3.0), Tensor.scalar(0.0)));
        assertArrayEquals(new double[] {Double.POSITIVE_INFINITY, 3, 5}, g.get(0).toDoubleArray());
        assertEquals(1 + 2 + 4 + 6, g.get(1).toDoubleArray()[0], 0);
    }
}
