package dev.jburn.train;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Losses against direct formulas in doubles, and their gradients against central differences. */
class LossesTest {
    private static final double[][] Z = {{2.0, -1.0, 0.5}, {-0.3, 0.8, 1.7}};

    @Test
    void softmaxCrossEntropyMatchesTheFormulaWithIntegerAndOneHotLabelsAndSmoothing() {
        int[] labels = {0, 2};
        for (double eps : new double[] {0, 0.1}) {
            double want = 0;
            for (int i = 0; i < 2; i++) {
                double m = Math.max(Z[i][0], Math.max(Z[i][1], Z[i][2])), s = 0;
                for (double z : Z[i]) s += Math.exp(z - m);
                double lse = m + Math.log(s);
                for (int c = 0; c < 3; c++) want += ((c == labels[i] ? 1 - eps : 0) + eps / 3) * (lse - Z[i][c]);
            }
            want /= 2;
            Loss l = Losses.softmaxCrossEntropy(eps);
            assertEquals(want, l.apply(Tensor.of(Z), Tensor.of(labels)).toDoubleArray()[0], 1e-12);
            assertEquals(want, l.apply(Tensor.of(Z), Tensor.of(new double[][] {{1, 0, 0}, {0, 0, 1}})).toDoubleArray()[0], 1e-12);
        }
        JBurnException e = assertThrows(JBurnException.class, () -> Losses.softmaxCrossEntropy().apply(Tensor.of(Z), Tensor.of(0, 3)));
        assertTrue(e.getMessage().contains("labels must be in [0, 3)"), e.getMessage());
        assertThrows(JBurnException.class, () -> Losses.softmaxCrossEntropy().apply(Tensor.of(Z), Tensor.of(0, 1, 2)));
        // stable for huge logits
        assertEquals(0.0, Losses.softmaxCrossEntropy().apply(Tensor.of(new double[][] {{1000, 0}}), Tensor.of(0)).toDoubleArray()[0], 1e-12);
    }

    @Test
    void elementwiseLossesMatchTheirFormulas() {
        double[][] p = {{0.2, -1.0}, {1.5, 0.4}}, y = {{0.0, 1.0}, {1.0, 0.0}};
        Tensor tp = Tensor.of(p), ty = Tensor.of(y);
        double mse = 0, mae = 0, hub = 0, bce = 0, hinge = 0;
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                double d = p[i][j] - y[i][j], a = Math.abs(d);
                mse += d * d / 4;
                mae += a / 4;
                hub += (a <= 1 ? 0.5 * d * d : a - 0.5) / 4;
                bce += (Math.log1p(Math.exp(p[i][j])) - y[i][j] * p[i][j]) / 4;
                double s = y[i][j] == 0 ? -1 : 1;
                hinge += Math.max(0, 1 - s * p[i][j]) / 4;
            }
        }
        assertEquals(mse, Losses.mse().apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertEquals(mae, Losses.mae().apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertEquals(hub, Losses.huber(1).apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertEquals(bce, Losses.binaryCrossEntropyFromLogits().apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertEquals(hinge, Losses.hinge().apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertEquals(2 * mse, Losses.sum(Losses.mse()).apply(tp, ty).toDoubleArray()[0], 1e-12);
        assertThrows(JBurnException.class, () -> Losses.mse().apply(tp, Tensor.of(1.0, 2.0)));
        // weighted: sample 0 only
        double m0 = (0.2 * 0.2 + 4) / 2;
        assertEquals(m0, Losses.mse().apply(tp, ty, Tensor.of(1.0, 0.0)).toDoubleArray()[0], 1e-12);
    }

    @Test
    void gradientsMatchCentralDifferences() {
        Tensor labels = Tensor.of(1, 0);
        Tensor g = Autodiff.grad(z -> Losses.softmaxCrossEntropy(0.1).apply(z, labels)).apply(Tensor.of(Z));
        double[] z = Tensor.of(Z).toDoubleArray(), ga = g.toDoubleArray();
        for (int j = 0; j < z.length; j++) {
            double h = 1e-6;
            double[] a = z.clone(), b = z.clone();
            a[j] += h;
            b[j] -= h;
            double fd = (Losses.softmaxCrossEntropy(0.1).apply(Tensor.of(a).reshape(2, 3), labels).toDoubleArray()[0]
                    - Losses.softmaxCrossEntropy(0.1).apply(Tensor.of(b).reshape(2, 3), labels).toDoubleArray()[0]) / (2 * h);
            assertEquals(fd, ga[j], 1e-7);
        }
    }
}
