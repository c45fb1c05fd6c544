package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Trains a model: batches, the compiled {@link TrainStep} (forward, loss, gradients, optimizer, metrics in one
 * graph), validation with a compiled eval step, callbacks, a progress bar and a {@link History}.
 *
 * <pre>{@code
 * Trainer trainer = Trainer.of(model, Losses.softmaxCrossEntropy(), Optimizers.adam(1e-3))
 *         .metrics(Metrics.accuracy())
 *         .callbacks(Callbacks.earlyStopping("val_loss", 3).restoreBest());
 * FitResult fit = trainer.fit(model.init(Prng.key(0)), train, Fit.epochs(5).batchSize(128).validation(test));
 * fit.history().writePng(Path.of("curves.png"));
 * Map<String, Double> test = trainer.evaluate(fit.state().model(), test, 256);
 * }</pre>
 *
 * The last short batch of an epoch is padded with rows from the start of the data whose weight is 0, so every
 * example counts once, the loss and metrics are exact, and the step compiles once ({@link Fit#dropLast} drops
 * it instead). The engine is the one the data and parameters are on.
 */
public final class Trainer {
    private final Model model;
    private final Loss loss;
    private final Optimizer optimizer;
    private final List<Metric> metrics;
    private final List<Callback> callbacks;
    /** Compiled steps by precision policy: one per policy a fit has used. */
    private final Map<Precision, TrainStep> steps = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Precision, EvalStep> evals = new java.util.concurrent.ConcurrentHashMap<>();

    private Trainer(Model model, Loss loss, Optimizer optimizer, List<Metric> metrics, List<Callback> callbacks) {
        this.model = model;
        this.loss = loss;
        this.optimizer = optimizer;
        this.metrics = List.copyOf(metrics);
        this.callbacks = List.copyOf(callbacks);
    }

    /** A trainer of {@code model} minimizing {@code loss} with {@code optimizer}. */
    public static Trainer of(Model model, Loss loss, Optimizer optimizer) {
        if (model == null || loss == null || optimizer == null) throw new JBurnException("trainer", "model, loss and optimizer are required");
        return new Trainer(model, loss, optimizer, List.of(), List.of());
    }

    /** This trainer also tracking {@code ms} (names must differ). */
    public Trainer metrics(Metric... ms) {
        List<Metric> all = new ArrayList<>(metrics);
        for (Metric m : ms) {
            if (m == null) throw new JBurnException("trainer", "metrics must not be null");
            if (m.name().equals("loss") || all.stream().anyMatch(x -> x.name().equals(m.name()))) {
                throw new JBurnException("trainer", "two metrics named '" + m.name() + "'");
            }
            all.add(m);
        }
        return new Trainer(model, loss, optimizer, all, callbacks);
    }

    /** This trainer also running {@code cs}, in order. */
    public Trainer callbacks(Callback... cs) {
        List<Callback> all = new ArrayList<>(callbacks);
        for (Callback c : cs) {
            if (c == null) throw new JBurnException("trainer", "callbacks must not be null");
            all.add(c);
        }
        return new Trainer(model, loss, optimizer, metrics, all);
    }

    /** The compiled step this trainer uses (its trace count shows that it compiled once). */
    public TrainStep step() { return step(Precision.full()); }

    /** The compiled step this trainer uses under precision policy {@code p}. */
    public TrainStep step(Precision p) {
        if (p == null) throw new JBurnException("fit", "the precision must not be null");
        return steps.computeIfAbsent(p, q -> TrainStep.of(model, loss, optimizer, metrics, q));
    }

    /**
     * Trains from fresh optimizer state; the dropout key comes from the shuffle seed. {@code state} is consumed:
     * its parameters are donated to the compiled step, so use the returned state.
     */
    public FitResult fit(ModelState state, TensorDataset train, Fit options) {
        if (state == null || options == null) throw new JBurnException("fit", "the state and the options are required");
        Tensor key = Prng.foldIn(Prng.key(options.shuffleSeed()), 0x5eedL).to(firstEngine(state));
        return fit(step(options.precision()).init(state, key), train, options);
    }

    /**
     * Resumes from a checkpoint: runs epochs {@code checkpoint.epoch() + 1 .. options.epochs() - 1} (unless
     * {@code options} names another initial epoch) and continues its history. With the same data and options
     * the parameters equal an uninterrupted run's bit for bit.
     */
    public FitResult resume(dev.jburn.io.Checkpoint.Loaded checkpoint, TensorDataset train, Fit options) {
        if (checkpoint == null || options == null) throw new JBurnException("resume", "the checkpoint and the options are required");
        int next = checkpoint.epoch() + 1;
        if (next >= options.epochs()) throw new JBurnException("resume", "the checkpoint is of epoch " + next + " already; ask for more than " + next + " epochs");
        Fit o = options.initialEpoch() == 0 ? options.initialEpoch(next) : options;
        TrainStep.State s = checkpoint.state();
        dev.jburn.Engine e = train == null ? null : train.x().engine();
        if (e != null && s.key().engine() != e) s = new TrainStep.State(s.model().to(e), toEngine(s.optimizer(), e), s.key().to(e));
        return run(s, train, o, checkpoint.history());
    }

    private static dev.jburn.optim.OptimizerState toEngine(dev.jburn.optim.OptimizerState o, dev.jburn.Engine e) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        o.tensors().forEach((k, v) -> m.put(k, v.to(e)));
        return new dev.jburn.optim.OptimizerState(m);
    }

    /** Trains on from {@code state} (a previous fit's). */
    public FitResult fit(TrainStep.State state, TensorDataset train, Fit options) { return run(state, train, options, new History()); }

    private FitResult run(TrainStep.State state, TensorDataset train, Fit options, History history) {
        if (state == null || train == null || options == null) throw new JBurnException("fit", "the state, the data and the options are required");
        if (train.size() == 0) throw new JBurnException("fit", "the training data is empty");
        checkShapes("fit", state.model(), train);
        TensorDataset data = train, validation = options.validation();
        if (options.validationSplit() > 0) {
            TensorDataset[] parts = train.split(1 - options.validationSplit());
            data = parts[0];
            validation = parts[1];
        }
        if (validation != null) checkShapes("fit", state.model(), validation);
        if (options.dropLast() && data.size() < options.batchSize()) {
            throw new JBurnException("fit", "dropLast with " + data.size() + " examples and batch size " + options.batchSize() + " leaves no batch");
        }
        DataParallel dp = options.dataParallel();
        if (dp == null) return loop(state, data, validation, options, history, null);
        if (!dp.threaded()) {
            Replica rep = new Replica(dp.communicator(), step(options.precision()), firstEngine(state.model()), dp.bucketBytes());
            return loop(state, data, validation, rep.rank() == 0 ? options : options.quiet(), history, rep);
        }
        return threaded(state, data, validation, options, history, dp);
    }

    /**
     * A data-parallel fit whose replicas are threads of this JVM: each joins the group on its own thread, runs the
     * loop on its engine (rank 0 on the state's tensors, the others on copies that rank 0's broadcast overwrites),
     * and rank 0's result is returned. When a replica fails it aborts the group, so the others fail rather than
     * wait; the first failure is rethrown.
     */
    private FitResult threaded(TrainStep.State state, TensorDataset data, TensorDataset validation, Fit options, History history, DataParallel dp) {
        int n = dp.replicas();
        DataParallel.Group group = dp.group();
        FitResult[] results = new FitResult[n];
        java.util.concurrent.atomic.AtomicReference<Throwable> first = new java.util.concurrent.atomic.AtomicReference<>();
        dev.jburn.dist.Communicator[] comms = new dev.jburn.dist.Communicator[n];
        List<Thread> threads = new ArrayList<>();
        dev.jburn.Engine home = firstEngine(state.model());
        for (int r = 0; r < n; r++) {
            final int rank = r;
            threads.add(Thread.ofPlatform().name("jburn-replica-" + r).start(() -> {
                try {
                    comms[rank] = group.join(rank);
                    dev.jburn.Engine e = dp.engine(rank, home);
                    TrainStep.State s = rank == 0 && e == home ? state : copy(state, e);
                    Replica rep = new Replica(comms[rank], step(options.precision()), e, dp.bucketBytes());
                    results[rank] = loop(s, data, validation, rank == 0 ? options : options.quiet(), rank == 0 ? history : new History(), rep);
                } catch (Throwable t) {
                    first.compareAndSet(null, t);
                    if (comms[rank] != null) comms[rank].abort();
                } finally {
                    if (comms[rank] != null) comms[rank].close();
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                for (dev.jburn.dist.Communicator c : comms) if (c != null) c.abort();
                throw new JBurnException("fit", "interrupted while the replicas trained");
            }
        }
        for (int r = 1; r < n; r++) if (results[r] != null) close(results[r].state()); // copies of rank 0's state
        Throwable t = first.get();
        if (t instanceof RuntimeException re) throw re;
        if (t instanceof Error err) throw err;
        if (t != null) throw new JBurnException("fit", "a replica failed: " + t);
        return results[0];
    }

    private static void close(TrainStep.State s) {
        s.model().params().values().forEach(Tensor::close);
        s.model().state().values().forEach(Tensor::close);
        s.optimizer().tensors().values().forEach(Tensor::close);
        s.key().close();
    }

    /** {@code s} as new tensors on {@code e} (a replica's own memory, never shared: steps update it in place). */
    private static TrainStep.State copy(TrainStep.State s, dev.jburn.Engine e) {
        Map<String, Tensor> p = new LinkedHashMap<>(), st = new LinkedHashMap<>(), o = new LinkedHashMap<>();
        s.model().params().forEach((k, v) -> p.put(k, dev.jburn.spi.TensorBuffers.copy(v, e)));
        s.model().state().forEach((k, v) -> st.put(k, dev.jburn.spi.TensorBuffers.copy(v, e)));
        s.optimizer().tensors().forEach((k, v) -> o.put(k, dev.jburn.spi.TensorBuffers.copy(v, e)));
        return new TrainStep.State(s.model().withParams(p).withState(st), new dev.jburn.optim.OptimizerState(o), dev.jburn.spi.TensorBuffers.copy(s.key(), e));
    }

    /** The epoch loop; {@code rep} is this thread's replica in a data-parallel fit, null otherwise. */
    private FitResult loop(TrainStep.State state, TensorDataset data, TensorDataset validation, Fit options, History history, Replica rep) {
        // Callbacks run on rank 0 only (one checkpoint writer, one logger); the others follow its decisions.
        List<Callback> callbacks = rep == null || rep.rank() == 0 ? this.callbacks : List.of();
        boolean agree = rep != null && !this.callbacks.isEmpty();
        if (rep != null) state = rep.start(state);
        TrainStep ts = step(options.precision());
        TrainingContext ctx = new TrainingContext(state, history, optimizer.schedule(), options.epochs());
        boolean batchLoss = this.callbacks.stream().anyMatch(Callback::needsBatchLoss);
        int n = data.size(), bs = options.batchSize();
        int stepsAll = options.dropLast() ? n / bs : (n + bs - 1) / bs;
        int steps = options.stepsPerEpoch() > 0 ? Math.min(stepsAll, options.stepsPerEpoch()) : stepsAll;
        long globalStep = Math.round(state.optimizer().tensors().entrySet().stream()
                .filter(e -> e.getKey().equals("count") || e.getKey().endsWith("/count")).findFirst()
                .map(e -> e.getValue().toDoubleArray()[0]).orElse(0.0));
        ctx.advance(globalStep);
        callbacks.forEach(c -> c.onTrainBegin(ctx));
        boolean stop = false;
        // Every full batch's row weights (all ones), made once: a host array uploaded every step cost a transfer a step.
        try (Progress progress = new Progress(options.progress(), options.out());
             Tensor ones = rep == null && n >= bs ? Tensor.full(Shape.of(bs), DType.F32, 1, data.x().engine()) : null) {
            for (int epoch = options.initialEpoch(); epoch < options.epochs() && !stop; epoch++) {
                ctx.epoch(epoch);
                final int e = epoch;
                callbacks.forEach(c -> c.onEpochBegin(ctx, e));
                TensorDataset ordered = options.shuffleSeed() < 0 ? data : data.shuffled(Prng.foldIn(Prng.key(options.shuffleSeed()), epoch));
                List<Map<String, Tensor>> ms = rep == null ? ts.freshMetrics(data.x()) : rep.freshMetrics(ts);
                double lossSum = 0;
                long seen = 0;
                List<PendingLoss> pending = new ArrayList<>();
                progress.startEpoch(epoch, options.epochs(), steps);
                long epochStart = System.nanoTime();
                for (int b = 0; b < steps; b++) {
                    int start = b * bs, real = Math.min(bs, n - start);
                    TrainStep.Result r;
                    TrainStep.State used;
                    try (var scope = Tensor.scope()) {
                        TrainStep.State cur = ctx.state();
                        double lr = ctx.learningRate();
                        if (Math.abs(lr - cur.optimizer().learningRate()) > 1e-15 * Math.max(1, lr)) {
                            cur = new TrainStep.State(cur.model(), cur.optimizer().withLearningRate(lr), cur.key());
                        }
                        used = cur;
                        if (rep == null) {
                            Batch batch = batch(ordered, start, real, bs, ones);
                            r = ts.apply(cur, batch.x, batch.y, batch.w, ms);
                        } else {
                            r = rep.step(cur, ordered, start, real, bs, ms);
                        }
                        keep(scope, r);
                    }
                    if (used != ctx.state()) r.release(ctx.state(), List.of());
                    r.release(used, ms);
                    ctx.setState(r.state());
                    ms = r.metrics();
                    ctx.advance(++globalStep);
                    pending.add(new PendingLoss(globalStep, b + 1, real, r.loss()));
                    if (!batchLoss && pending.size() < LOSS_READ_GROUP && b < steps - 1) continue;
                    // Reading a loss waits for the device to finish the step: read them in groups, so that the host
                    // queues the next steps while the device runs (a read every step left the GPU idle half the time).
                    Callback.Action a = Callback.Action.CONTINUE;
                    TrainStep.State before = ctx.state();
                    double[] losses = read(pending);
                    for (int q = 0; q < pending.size(); q++) {
                        PendingLoss p = pending.get(q);
                        double l = losses[q];
                        p.loss().close();
                        lossSum += l * p.real();
                        seen += p.real();
                        progress.step(p.done(), p.real(), l, "");
                        for (Callback c : callbacks) a = worst(a, c.onBatchEnd(ctx, p.step(), l));
                    }
                    // Every replica reads its losses at the same steps, so rank 0's decisions reach the others here.
                    if (agree) a = rep.agree(a, ctx, before);
                    pending.clear();
                    if (a == Callback.Action.STOP_TRAINING) stop = true;
                    if (a != Callback.Action.CONTINUE) break;
                }
                progress.endEpoch();
                double epochSeconds = (System.nanoTime() - epochStart) / 1e9;
                if (ordered != data) {
                    ordered.x().close();
                    ordered.y().close();
                }
                if (rep != null) ms = rep.merged(ms);
                Map<String, Double> logs = new LinkedHashMap<>();
                logs.put("loss", seen == 0 ? Double.NaN : lossSum / seen);
                for (int m = 0; m < metrics.size(); m++) logs.put(metrics.get(m).name(), metrics.get(m).result(ms.get(m)));
                // Every replica holds the same parameters: rank 0, which runs the callbacks, validates for all.
                if (validation != null && (rep == null || rep.rank() == 0)) {
                    evaluate(ctx.state().model(), validation, bs, options.precision()).forEach((k, v) -> logs.put("val_" + k, v));
                }
                logs.put("lr", ctx.learningRate());
                logs.put("samples_per_s", seen / Math.max(epochSeconds, 1e-9));
                history.add(epoch, logs);
                if (options.progress() != Fit.ProgressMode.NONE) options.out().println(Callbacks.epochLine(epoch, options.epochs(), logs));
                TrainStep.State before = ctx.state();
                for (Callback c : callbacks) {
                    if (c.onEpochEnd(ctx, epoch, logs) == Callback.Action.STOP_TRAINING) stop = true;
                }
                if (agree) stop = rep.agree(stop ? Callback.Action.STOP_TRAINING : Callback.Action.CONTINUE, ctx, before) == Callback.Action.STOP_TRAINING;
            }
        }
        callbacks.forEach(c -> c.onTrainEnd(ctx));
        return new FitResult(ctx.state(), history);
    }

    /** The loss and every metric over {@code data} in inference mode, in batches of {@code batchSize}. */
    public Map<String, Double> evaluate(ModelState state, TensorDataset data, int batchSize) {
        return evaluate(state, data, batchSize, Precision.full());
    }

    /** {@link #evaluate(ModelState, TensorDataset, int)} with the model computing under precision policy {@code p}. */
    public Map<String, Double> evaluate(ModelState state, TensorDataset data, int batchSize, Precision p) {
        if (p == null) throw new JBurnException("evaluate", "the precision must not be null");
        if (state == null || data == null) throw new JBurnException("evaluate", "the state and the data are required");
        if (batchSize < 1) throw new JBurnException("evaluate", "the batch size must be >= 1, got " + batchSize);
        if (data.size() == 0) throw new JBurnException("evaluate", "the data is empty");
        checkShapes("evaluate", state, data);
        EvalStep es = evals.computeIfAbsent(p, q -> new EvalStep(model, loss, metrics, q.compute()));
        List<Map<String, Tensor>> ms = new ArrayList<>();
        for (Metric m : metrics) ms.add(m.init(data.x().engine()));
        double lossSum = 0;
        int n = data.size(), bs = Math.min(batchSize, n);
        // The batches' loss sums are read once at the end: a read per batch would wait for the device each time.
        List<Tensor> lossSums = new ArrayList<>();
        for (int start = 0; start < n; start += bs) {
            int real = Math.min(bs, n - start);
            try (var scope = Tensor.scope()) {
                Batch b = batch(data, start, real, bs);
                EvalStep.Out o = es.apply(state, b.x, b.y, b.w, ms);
                lossSums.add(scope.keep(o.lossSum()));
                ms = o.metrics();
                for (Map<String, Tensor> m : ms) m.values().forEach(scope::keep);
            }
        }
        for (Tensor t : lossSums) {
            lossSum += t.toDoubleArray()[0];
            t.close();
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("loss", lossSum / n);
        for (int m = 0; m < metrics.size(); m++) out.put(metrics.get(m).name(), metrics.get(m).result(ms.get(m)));
        return out;
    }

    /**
     * The pending steps' losses, read with one transfer: stacked on their engine first, so a GPU engine copies and
     * waits once per group instead of once per step (the Vulkan engine on an H100 waited 32 times per group, a
     * submission and a fence each).
     */
    private static double[] read(List<PendingLoss> pending) {
        List<Tensor> losses = new ArrayList<>(pending.size());
        for (PendingLoss p : pending) losses.add(p.loss());
        boolean oneEngine = losses.stream().allMatch(t -> t.engine() == losses.getFirst().engine() && t.size() == 1);
        if (losses.size() > 1 && oneEngine) {
            try (Tensor all = Tensor.stack(losses, 0)) {
                return all.toDoubleArray();
            }
        }
        double[] v = new double[losses.size()];
        for (int i = 0; i < v.length; i++) v[i] = losses.get(i).toDoubleArray()[0];
        return v;
    }

    /**
     * Steps whose losses are read together ({@link Callback#needsBatchLoss} makes it every step): {@link Callback#onBatchEnd}
     * and the progress bar then see each step's loss up to this many steps late, in order.
     */
    static final int LOSS_READ_GROUP = 32;

    /** A step's loss, still on the device: global step, step within the epoch (1-based), real rows. */
    private record PendingLoss(long step, int done, int real, Tensor loss) {}

    /** A batch of {@code real} rows from {@code start}, padded to {@code size} with weight-0 rows from the start. */
    record Batch(Tensor x, Tensor y, Tensor w) {}

    static Batch batch(TensorDataset d, int start, int real, int size) {
        return batch(d, start, real, size, null);
    }

    /** {@link #batch(TensorDataset, int, int, int)} whose weights are {@code ones} (of {@code size} ones, or null) when the batch is full. */
    static Batch batch(TensorDataset d, int start, int real, int size, Tensor ones) {
        TensorDataset b = d.batch(start, real);
        if (real == size && ones != null) return new Batch(b.x(), b.y(), ones);
        Tensor x = b.x(), y = b.y();
        if (real < size) {
            List<Tensor> xs = new ArrayList<>(List.of(x)), ys = new ArrayList<>(List.of(y));
            int left = size - real;
            while (left > 0) {
                int take = Math.min(left, d.size());
                TensorDataset pad = d.batch(0, take);
                xs.add(pad.x());
                ys.add(pad.y());
                left -= take;
            }
            x = Tensor.concatenate(xs, 0);
            y = Tensor.concatenate(ys, 0);
        }
        float[] w = new float[size];
        java.util.Arrays.fill(w, 0, real, 1f);
        return new Batch(x, y, Tensor.of(w).to(x.engine()));
    }

    private static void keep(dev.jburn.TensorScope scope, TrainStep.Result r) {
        scope.keep(r.loss());
        scope.keep(r.state().key());
        r.state().model().params().values().forEach(scope::keep);
        r.state().model().state().values().forEach(scope::keep);
        r.state().optimizer().tensors().values().forEach(scope::keep);
        r.metrics().forEach(m -> m.values().forEach(scope::keep));
    }

    private void checkShapes(String op, ModelState state, TensorDataset d) {
        var spec = model.inputSpecs().getFirst();
        Shape one = d.x().shape();
        int[] dims = one.dims();
        if (!spec.accepts(one) && !(spec.rank() == dims.length && acceptsBatchless(spec, one))) {
            throw new JBurnException(op, "the model's input '" + model.inputNames().getFirst() + "' expects " + spec.shape()
                    + ", the data's examples are " + d.x().dtype().shortName() + one);
        }
        var out = model.outputSpecs().getFirst();
        if (d.y().dtype().isInteger() && d.y().rank() == 1 && out.rank() == 2 && out.dim(1) > 0) {
            if (d.size() > 0) {
                long lo = d.y().min().asType(DType.S64).toLongArray()[0], hi = d.y().max().asType(DType.S64).toLongArray()[0];
                if (lo < 0 || hi >= out.dim(1)) {
                    throw new JBurnException(op, String.format(Locale.ROOT, "labels must be in [0, %d) for the model's output %s, got %d",
                            out.dim(1), out.shape(), lo < 0 ? lo : hi));
                }
            }
        } else if (!d.y().dtype().isInteger() && d.y().rank() == out.rank()) {
            for (int i = 1; i < out.rank(); i++) {
                if (out.dim(i) != -1 && out.dim(i) != d.y().shape().dim(i)) {
                    throw new JBurnException(op, "targets " + d.y().shape() + " do not match the model's output " + out.shape());
                }
            }
        } else if (!(d.y().dtype().isInteger() && d.y().rank() == 1)) {
            throw new JBurnException(op, "targets " + d.y().dtype().shortName() + d.y().shape() + " do not match the model's output " + out.shape());
        }
    }

    private static boolean acceptsBatchless(dev.jburn.nn.TensorSpec spec, Shape s) {
        for (int i = 1; i < spec.rank(); i++) if (spec.dim(i) != -1 && spec.dim(i) != s.dim(i)) return false;
        return true;
    }

    private static dev.jburn.Engine firstEngine(ModelState s) {
        for (Tensor t : s.params().values()) return t.engine();
        return dev.jburn.Engine.defaultEngine();
    }

    private static Callback.Action worst(Callback.Action a, Callback.Action b) { return a.ordinal() >= b.ordinal() ? a : b; }
}
