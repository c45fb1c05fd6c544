package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.ReduceOp;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.OptimizerState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replica of a data-parallel {@link Trainer#fit}: which rows of each global batch are its own, the step that
 * all-reduces its gradients ({@link ReplicaStep}), and the agreements a fit needs beyond the gradients: the
 * starting state broadcast from rank 0, the merged metrics, and rank 0's callback decisions.
 */
final class Replica {
    private final Communicator comm;
    private final ReplicaStep step;
    private final Engine engine;

    Replica(Communicator comm, TrainStep step, Engine engine, long bucketBytes) {
        this.comm = comm;
        this.step = new ReplicaStep(step, comm, bucketBytes);
        this.engine = engine;
    }

    int rank() { return comm.rank(); }

    /**
     * Rank 0's parameters, model state, optimizer state and key, as new tensors on this replica's engine. {@code s}
     * is consumed (closed, frozen parameters excepted), as a single-device fit consumes its state.
     */
    TrainStep.State start(TrainStep.State s) {
        List<Tensor> all = new ArrayList<>(s.model().params().values());
        all.addAll(s.model().state().values());
        all.addAll(s.optimizer().tensors().values());
        all.add(s.key());
        List<Tensor> got = comm.broadcast(all, 0);
        // Every replica has read rank 0's tensors once the broadcast returns. Frozen parameters are left open, as a
        // single-device fit leaves them (they may be shared with another model).
        java.util.Set<Tensor> frozen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        s.model().frozen().forEach(n -> frozen.add(s.model().params().get(n)));
        for (Tensor t : all) if (!frozen.contains(t)) t.close();
        int i = 0;
        Map<String, Tensor> p = new LinkedHashMap<>(), st = new LinkedHashMap<>(), o = new LinkedHashMap<>();
        for (String n : s.model().params().keySet()) p.put(n, got.get(i++));
        for (String n : s.model().state().keySet()) st.put(n, got.get(i++));
        for (String n : s.optimizer().tensors().keySet()) o.put(n, got.get(i++));
        ModelState m = s.model().withParams(p).withState(st);
        return new TrainStep.State(m, new OptimizerState(o), got.get(i));
    }

    /** Zero metric states on this replica's engine. */
    List<Map<String, Tensor>> freshMetrics(TrainStep ts) {
        List<Map<String, Tensor>> m = new ArrayList<>();
        for (Metric x : ts.metrics()) m.add(x.init(engine));
        return m;
    }

    /**
     * The step on this replica's slice of the global batch of {@code real} rows from {@code start} (padded to
     * {@code batchSize}): replica r takes rows {@code [r·b, (r+1)·b)} of it, {@code b = ceil(batchSize / size)};
     * rows past the real ones weigh 0 (a replica may get only padding).
     */
    TrainStep.Result step(TrainStep.State s, TensorDataset ordered, int start, int real, int batchSize, List<Map<String, Tensor>> ms) {
        int size = comm.size(), b = (batchSize + size - 1) / size, mine = Math.max(0, Math.min(b, real - comm.rank() * b));
        Trainer.Batch batch;
        if (mine > 0) {
            batch = Trainer.batch(ordered, start + comm.rank() * b, mine, b);
        } else {
            Trainer.Batch any = Trainer.batch(ordered, 0, Math.min(b, ordered.size()), b);
            batch = new Trainer.Batch(any.x(), any.y(), Tensor.zeros(Shape.of(b), DType.F32).to(any.x().engine()));
        }
        return step.apply(s, batch.x().to(engine), batch.y().to(engine), batch.w().to(engine), 1.0 / real, ms);
    }

    /** Every replica's metric sums added together (the same on every replica). */
    List<Map<String, Tensor>> merged(List<Map<String, Tensor>> ms) {
        List<Tensor> flat = new ArrayList<>();
        ms.forEach(m -> flat.addAll(m.values()));
        if (flat.isEmpty()) return ms;
        List<Tensor> sums = comm.allReduce(flat, ReduceOp.SUM);
        flat.forEach(Tensor::close);
        List<Map<String, Tensor>> out = new ArrayList<>();
        int i = 0;
        for (Map<String, Tensor> m : ms) {
            Map<String, Tensor> x = new LinkedHashMap<>();
            for (String k : m.keySet()) x.put(k, sums.get(i++));
            out.add(x);
        }
        return out;
    }

    /**
     * Rank 0's callback outcome on every replica: its action, its learning rate and, when its callbacks replaced
     * the state ({@code ctx.state() != before}), its state.
     */
    Callback.Action agree(Callback.Action action, TrainingContext ctx, TrainStep.State before) {
        double[] mine = comm.rank() == 0 ? new double[] {action.ordinal(), ctx.learningRate(), ctx.state() != before ? 1 : 0} : new double[3];
        double[] root;
        try (Tensor t = Tensor.of(mine).to(engine)) {
            Tensor got = comm.broadcast(List.of(t), 0).getFirst();
            root = got.toDoubleArray();
            got.close();
        }
        if (comm.rank() != 0 && root[1] != ctx.learningRate()) ctx.setLearningRate(root[1]);
        if (root[2] != 0) ctx.setState(start(ctx.state()));
        return Callback.Action.values()[(int) root[0]];
    }
}
