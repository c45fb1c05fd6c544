package dev.jburn.train;

import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compiled evaluation step: inference-mode forward, the weighted sum of per-sample losses and the metric
 * updates in one {@code Jit} graph, compiled once per batch shape and cached.
 */
final class EvalStep {
    private final Model model;
    private final Loss loss;
    private final List<Metric> metrics;
    private final dev.jburn.DType compute;
    private CompiledFunction compiled;
    private List<String> paramNames, stateNames;
    private List<List<String>> metricNames;

    /** {@code compute}: the mixed-precision compute type, or null for the declared types. */
    EvalStep(Model model, Loss loss, List<Metric> metrics, dev.jburn.DType compute) {
        this.model = model;
        this.loss = loss;
        this.metrics = metrics;
        this.compute = compute;
    }

    /** The batch's weighted loss sum and the metric states after it. */
    record Out(Tensor lossSum, List<Map<String, Tensor>> metrics) {}

    synchronized Out apply(ModelState s, Tensor x, Tensor y, Tensor w, List<Map<String, Tensor>> ms) {
        if (compiled == null) {
            paramNames = List.copyOf(s.params().keySet());
            stateNames = List.copyOf(s.state().keySet());
            metricNames = ms.stream().map(m -> (List<String>) List.copyOf(m.keySet())).toList();
            compiled = Jit.compileList(this::traced);
        }
        List<Tensor> args = new ArrayList<>(List.of(x, y, w));
        for (String n : paramNames) args.add(s.params().get(n));
        for (String n : stateNames) args.add(s.state().get(n));
        for (int m = 0; m < ms.size(); m++) for (String n : metricNames.get(m)) args.add(ms.get(m).get(n));
        List<Tensor> out = compiled.apply(args);
        int i = 1;
        List<Map<String, Tensor>> next = new ArrayList<>();
        for (List<String> names : metricNames) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (String n : names) m.put(n, out.get(i++));
            next.add(m);
        }
        return new Out(out.getFirst(), next);
    }

    private List<Tensor> traced(List<Tensor> xs) {
        Tensor x = xs.get(0), y = xs.get(1), w = xs.get(2);
        int i = 3;
        Map<String, Tensor> p = new LinkedHashMap<>(), st = new LinkedHashMap<>();
        for (String n : paramNames) p.put(n, xs.get(i++));
        for (String n : stateNames) st.put(n, xs.get(i++));
        Tensor out = model.call(p, st, List.of(x), false, null, compute).output();
        List<Tensor> r = new ArrayList<>();
        Tensor l = loss.perSample(out, y);
        r.add(l.multiply(w.asType(l.dtype()).reshape(l.shape())).sum());
        for (int m = 0; m < metrics.size(); m++) {
            Map<String, Tensor> ms = new LinkedHashMap<>();
            for (String n : metricNames.get(m)) ms.put(n, xs.get(i++));
            r.addAll(metrics.get(m).update(ms, out, y, w).values());
        }
        return r;
    }
}
