package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Prng;
import dev.jburn.Tensor;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.ReduceOp;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.graph.JitOptions;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.OptimizerState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A data-parallel replica's training step: {@link TrainStep}'s one graph split in two around the all-reduce.
 * The gradient graph runs forward, loss and backward on this replica's shard and writes the gradients into flat
 * {@link GradientBuckets}; the communicator sums the buckets over the replicas; the apply graph splits them and
 * runs the optimizer, the same on every replica, with the parameters, optimizer state and buckets donated. Each
 * replica's loss is its share of the global batch's weighted mean ({@code Σ w·l / W}, W the global batch's
 * weight), so the summed gradients are the global batch's, whatever the shards weigh. Model state (batch-norm
 * statistics) is averaged over the replicas after each step. Each replica draws its own dropout masks (the key
 * folded with the rank when there are several).
 */
final class ReplicaStep {
    private final TrainStep step;
    private final Communicator comm;
    private final long bucketBytes;
    private TrainStep.Layout layout;
    private GradientBuckets buckets;
    private List<String> scaleNames;
    private CompiledFunction grads, apply;

    ReplicaStep(TrainStep step, Communicator comm, long bucketBytes) {
        this.step = step;
        this.comm = comm;
        this.bucketBytes = bucketBytes;
    }

    /** The buckets of the current layout (null before the first step). */
    GradientBuckets buckets() { return buckets; }

    /**
     * One step on this replica's shard ({@code weights} 0 for padding rows); {@code invGlobalWeight} is 1 / the
     * global batch's weight. The state is consumed as in {@link TrainStep#apply}. The result's loss is the
     * global batch's (the same on every replica); its metrics are this replica's (merge them at the end).
     */
    TrainStep.Result apply(TrainStep.State s, Tensor x, Tensor y, Tensor w, double invGlobalWeight, List<Map<String, Tensor>> ms) {
        TrainStep.Layout l = step.layoutOf(s, ms);
        if (!l.equals(layout)) compile(l, s);
        Tensor share = Tensor.scalar(invGlobalWeight, DType.F32).to(x.engine());
        Tensor key = comm.size() == 1 ? s.key() : Prng.foldIn(s.key(), comm.rank());
        List<Tensor> args = new ArrayList<>(List.of(x, y, w, share));
        for (String n : l.trainable()) args.add(s.model().params().get(n));
        for (String n : l.frozen()) args.add(s.model().params().get(n));
        for (String n : l.state()) args.add(s.model().state().get(n));
        for (String n : scaleNames) args.add(s.optimizer().get(n));
        for (int m = 0; m < ms.size(); m++) for (String n : l.metrics().get(m)) args.add(ms.get(m).get(n));
        args.add(key);
        List<Tensor> out = grads.apply(args);
        int nb = buckets.buckets().size(), i = 0;
        List<Tensor> toReduce = new ArrayList<>(out.subList(0, nb + 1)); // the buckets, then the loss share
        List<Tensor> reduced = comm.allReduce(toReduce, ReduceOp.SUM);
        toReduce.forEach(Tensor::close);
        i = nb + 1;
        Map<String, Tensor> st = new LinkedHashMap<>();
        List<Tensor> localState = out.subList(i, i + l.state().size());
        List<Tensor> meanState = meanState(localState);
        localState.forEach(Tensor::close);
        for (int k = 0; k < l.state().size(); k++) st.put(l.state().get(k), meanState.get(k));
        i += l.state().size();
        List<Map<String, Tensor>> nextMetrics = new ArrayList<>();
        for (List<String> names : l.metrics()) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (String n : names) m.put(n, out.get(i++));
            nextMetrics.add(m);
        }
        List<Tensor> applyArgs = new ArrayList<>(reduced.subList(0, nb));
        for (String n : l.trainable()) applyArgs.add(s.model().params().get(n));
        for (String n : l.opt()) applyArgs.add(s.optimizer().get(n));
        List<Tensor> next = apply.apply(applyArgs);
        Map<String, Tensor> p = new LinkedHashMap<>(), o = new LinkedHashMap<>();
        int j = 0;
        for (String n : l.trainable()) p.put(n, next.get(j++));
        for (String n : l.opt()) o.put(n, next.get(j++));
        if (key != s.key()) key.close();
        share.close();
        ModelState model = s.model().withParams(p).withState(st);
        return new TrainStep.Result(new TrainStep.State(model, new OptimizerState(o), Prng.foldIn(s.key(), 1)), reduced.get(nb), nextMetrics);
    }

    /** Floating-point state averaged over the replicas, other state (counters) rank 0's. */
    private List<Tensor> meanState(List<Tensor> local) {
        if (local.isEmpty()) return List.of();
        if (local.stream().allMatch(t -> t.dtype().isFloat())) return comm.allReduce(local, ReduceOp.AVERAGE);
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : local) out.add(t.dtype().isFloat() ? comm.allReduce(t, ReduceOp.AVERAGE) : comm.broadcast(List.of(t), 0).getFirst());
        return out;
    }

    /** The bucket plan and the two compiled functions (traced at their first call) for layout {@code l}. */
    private void compile(TrainStep.Layout l, TrainStep.State s) {
        layout = l;
        buckets = GradientBuckets.plan(l.trainable(), s.model().params(), bucketBytes);
        scaleNames = l.opt().stream().filter(LossScaling::isOwn).toList();
        grads = Jit.compileList(xs -> tracedGrads(l, xs));
        int nb = buckets.buckets().size(), nT = l.trainable().size(), nO = l.opt().size();
        int[] donated = new int[nb + nT + nO];
        for (int k = 0; k < donated.length; k++) donated[k] = k;
        apply = Jit.compileList(xs -> tracedApply(l, xs), JitOptions.defaults().withDonation(donated));
    }

    private List<Tensor> tracedGrads(TrainStep.Layout l, List<Tensor> xs) {
        Tensor x = xs.get(0), y = xs.get(1), w = xs.get(2), share = xs.get(3);
        int i = 4;
        Map<String, Tensor> trainable = new LinkedHashMap<>(), frozen = new LinkedHashMap<>(), state = new LinkedHashMap<>(), scale = new LinkedHashMap<>();
        for (String n : l.trainable()) trainable.put(n, xs.get(i++));
        for (String n : l.frozen()) frozen.put(n, xs.get(i++));
        for (String n : l.state()) state.put(n, xs.get(i++));
        for (String n : scaleNames) scale.put(n, xs.get(i++));
        List<Map<String, Tensor>> ms = new ArrayList<>();
        for (List<String> names : l.metrics()) {
            Map<String, Tensor> m = new LinkedHashMap<>();
            for (String n : names) m.put(n, xs.get(i++));
            ms.add(m);
        }
        Tensor key = xs.get(i);
        LossScaling scaling = LossScaling.of(step.precision().lossScale(), scale);
        TrainStep.Grads g = step.tracedGrads(l, x, y, w, share, trainable, frozen, state, ms, key, scaling);
        List<Tensor> out = new ArrayList<>(buckets.flatten(g.grads()));
        out.add(g.loss().reshape(1));
        for (int k = 0; k < l.state().size(); k++) out.add(scaling.ifFinite(g.state().get(k), state.get(l.state().get(k))));
        for (Map<String, Tensor> m : g.metrics()) out.addAll(m.values());
        return out;
    }

    private List<Tensor> tracedApply(TrainStep.Layout l, List<Tensor> xs) {
        int nb = buckets.buckets().size(), i = nb;
        Map<String, Tensor> trainable = new LinkedHashMap<>(), opt = new LinkedHashMap<>();
        for (String n : l.trainable()) trainable.put(n, xs.get(i++));
        for (String n : l.opt()) opt.put(n, xs.get(i++));
        Map<String, Tensor> g = buckets.split(xs.subList(0, nb), l.trainable());
        LossScaling scaling = LossScaling.of(step.precision().lossScale(), opt);
        scaling.observe(g); // the summed gradients: every replica takes the same overflow decision
        TrainStep.Applied a = step.tracedApply(l, trainable, opt, g, scaling);
        List<Tensor> out = new ArrayList<>(a.params());
        out.addAll(a.optimizer());
        return out;
    }
}
