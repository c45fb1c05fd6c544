package dev.jburn.train;

import dev.jburn.Engine;
import dev.jburn.Tensor;
import dev.jburn.graph.Jit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Metrics against direct counts, merged, and inside a compiled function. */
class MetricsTest {
    // predictions (argmax): 0, 2, 1, 1, 2 ; labels: 0, 1, 1, 2, 2
    private static final float[][] P = {{3, 1, 0}, {0, 1, 2}, {0, 5, 1}, {1, 4, 3}, {0, 0, 9}};
    private static final int[] Y = {0, 1, 1, 2, 2};

    private static double run(Metric m, boolean compiled) {
        Map<String, Tensor> s = m.init(Engine.defaultEngine());
        if (!compiled) return m.result(m.update(s, Tensor.of(P), Tensor.of(Y), null));
        List<String> names = new ArrayList<>(s.keySet());
        var f = Jit.compileList(xs -> {
            Map<String, Tensor> st = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) st.put(names.get(i), xs.get(2 + i));
            return new ArrayList<>(m.update(st, xs.get(0), xs.get(1), null).values());
        });
        List<Tensor> args = new ArrayList<>(List.of(Tensor.of(P), Tensor.of(Y)));
        args.addAll(s.values());
        List<Tensor> out = f.apply(args);
        Map<String, Tensor> next = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) next.put(names.get(i), out.get(i));
        return m.result(next);
    }

    @Test
    void valuesMatchDirectCounts() {
        for (boolean compiled : new boolean[] {false, true}) {
            assertEquals(3 / 5.0, run(Metrics.accuracy(), compiled), 1e-7);
            // top-2: sample 1 (label 1, scores 0,1,2: one greater) hit; sample 3 (label 2: 3 < 4, one greater) hit
            assertEquals(5 / 5.0, run(Metrics.topKAccuracy(2), compiled), 1e-7);
            // per class: precision 1, 1/2, 1/2; recall 1, 1/2, 1/2
            assertEquals((1 + 0.5 + 0.5) / 3, run(Metrics.precision(3), compiled), 1e-7);
            assertEquals((1 + 0.5 + 0.5) / 3, run(Metrics.recall(3), compiled), 1e-7);
            assertEquals((1 + 0.5 + 0.5) / 3, run(Metrics.f1(3), compiled), 1e-7);
        }
        double ce = 0;
        for (int i = 0; i < 5; i++) {
            double m = Math.max(P[i][0], Math.max(P[i][1], P[i][2])), z = 0;
            for (float v : P[i]) z += Math.exp(v - m);
            ce += m + Math.log(z) - P[i][Y[i]];
        }
        assertEquals(ce / 5, run(Metrics.meanLoss("ce", Losses.softmaxCrossEntropy()), true), 1e-5);
        Metrics.ConfusionMatrix cm = Metrics.confusionMatrix(3);
        var s = cm.update(cm.init(Engine.defaultEngine()), Tensor.of(P), Tensor.of(Y), null);
        assertArrayEquals(new double[] {0, 1, 1}, cm.matrix(s)[1]);
        assertEquals(0.6, cm.result(s), 1e-7);
    }

    @Test
    void statesMergeAndWeightsMaskPadding() {
        Metric acc = Metrics.accuracy();
        var e = Engine.defaultEngine();
        var a = acc.update(acc.init(e), Tensor.of(P).slice(new int[] {0, 0}, new int[] {2, 3}), Tensor.of(0, 1), null);
        var b = acc.update(acc.init(e), Tensor.of(P).slice(new int[] {2, 0}, new int[] {3, 3}), Tensor.of(1, 2, 2), null);
        assertEquals(0.6, acc.result(acc.merge(a, b)), 1e-7);
        var w = acc.update(acc.init(e), Tensor.of(P), Tensor.of(Y), Tensor.of(1f, 1f, 1f, 0f, 0f));
        assertEquals(2 / 3.0, acc.result(w), 1e-7);
    }
}
