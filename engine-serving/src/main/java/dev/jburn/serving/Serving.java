package dev.jburn.serving;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.TensorSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Batched inference in the manner of Nx.Serving: requests of any number of rows are queued, gathered into
 * batches of up to {@code batchSize} rows — a batch runs when it is full, or {@code batchTimeout} after its first
 * request was queued — padded to the smallest compiled bucket, run through the model's compiled predict, and split
 * back into one answer per request. An oversized request is split across batches and reassembled.
 *
 * <p>What production servers add: a bounded queue that refuses at once when full ({@link ServingException.Kind#REJECTED});
 * per-request deadlines (an expired request is answered with {@code TIMED_OUT} and never run); cancellation
 * ({@code future.cancel}); a request that fails fails alone (a failed batch is re-run request by request);
 * {@link #close()} stops accepting, answers everything accepted, and returns within the shutdown timeout.
 *
 * <pre>{@code
 * try (Serving s = Serving.of(model, state).batchSize(32).batchTimeout(Duration.ofMillis(5)).start()) {
 *     CompletableFuture<Tensor> f = s.submit(image, Duration.ofMillis(100));   // [1, 784] → [1, 10]
 *     Tensor logits = f.join();
 *     Tensor all = s.run(batch);                                               // synchronous, on this thread
 * }
 * }</pre>
 *
 * <p>Partitions: {@code partitions(k)} runs {@code k} workers on the state's engine; {@code engines(cpu, cuda)} (or
 * {@code engines("cpu,cuda")}) runs one worker per engine, each with the state copied to its engine and its own
 * compiled buckets, and a batch goes to whichever worker is free. Either way inputs are copied to the state's engine
 * at submit, and every answer is a tensor on the state's engine, whichever engine ran it.
 *
 * Models of one input and one output; the input's first axis is the batch axis.
 */
public final class Serving implements AutoCloseable {
    private final ServingBuilder config;
    private final String name;
    private final TensorSpec inputSpec;
    private final Engine engine;
    private final int[] buckets;
    /** One per distinct engine served on, in the order first listed. */
    private final List<Partition> partitions = new ArrayList<>();
    private final ArrayBlockingQueue<Piece> queue;
    private final ServingMetrics metrics;
    private final List<Thread> workers = new ArrayList<>();
    private final ScheduledExecutorService deadlines;
    private final AtomicInteger running = new AtomicInteger();
    private final Object submitLock = new Object();
    private volatile boolean accepting;
    private volatile boolean ready;
    private volatile boolean stopped;

    /** Settings for serving {@code model} with {@code state}, to change and then {@link ServingBuilder#start()}. */
    public static ServingBuilder of(Model model, ModelState state) {
        if (model == null || state == null) throw new JBurnException("serving", "the model and its state are required");
        if (model.inputNames().size() != 1 || model.outputNames().size() != 1) {
            throw new JBurnException("serving", "serves models of one input and one output; model '" + model.name() + "' has inputs "
                    + model.inputNames() + " and outputs " + model.outputNames());
        }
        if (model.inputSpecs().getFirst().shape().rank() == 0) throw new JBurnException("serving", "the model's input has no batch axis");
        return new ServingBuilder(model, state, null, 32, Duration.ofMillis(5), 1024, 1, null, null, Duration.ofSeconds(30), false);
    }

    /** For tests: serves {@code function} (a batch in, a batch out, on the worker's engine) as if it were the model's predict. */
    static ServingBuilder of(Model model, ModelState state, UnaryOperator<Tensor> function) {
        ServingBuilder b = of(model, state);
        return new ServingBuilder(model, state, function, b.batchSize, b.batchTimeout, b.queueCapacity, b.partitions, b.engines, b.buckets,
                b.shutdownTimeout, b.rejectNonFinite);
    }

    Serving(ServingBuilder config) {
        this.config = config;
        this.name = config.model.name();
        this.inputSpec = config.model.inputSpecs().getFirst();
        this.engine = config.state.params().isEmpty() ? Engine.defaultEngine() : config.state.params().values().iterator().next().engine();
        this.buckets = config.bucketSizes();
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity);
        List<Engine> workerEngines = config.workerEngines(engine);
        this.metrics = new ServingMetrics(name, queue::size, workerEngines.stream().map(Engine::name).toList());
        Map<Engine, Partition> byEngine = new LinkedHashMap<>();
        try {
            for (Engine e : workerEngines) {
                if (byEngine.containsKey(e)) continue;
                Partition p = Partition.on(e, engine, config.model, config.state, config.function);
                byEngine.put(e, p);
                partitions.add(p);
                p.warmUp(inputSpec, buckets, name);
            }
        } catch (RuntimeException e) {
            partitions.forEach(Partition::close);
            throw e;
        }
        this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "jburn-serving-deadlines-" + name));
        accepting = true;
        for (int i = 0; i < workerEngines.size(); i++) {
            Partition p = byEngine.get(workerEngines.get(i));
            Thread t = daemon(new BatchWorker(this, i, p), "jburn-serving-" + name + "-" + i + "-" + p.engine().name());
            workers.add(t);
            t.start();
        }
        ready = true;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The served model's name. */
    public String name() { return name; }

    /** The model's input spec (first axis: batch). */
    public TensorSpec inputSpec() { return inputSpec; }

    /** The model's input name. */
    public String inputName() { return config.model.inputNames().getFirst(); }

    /** The model's output name. */
    public String outputName() { return config.model.outputNames().getFirst(); }

    /**
     * Why a request of {@code shape} cannot run (naming the input and the expected shape), or null when it can:
     * checked before any tensor is made, so a hostile shape allocates nothing.
     */
    public String shapeError(long[] shape) {
        Shape want = inputSpec.shape();
        boolean ok = shape.length == want.rank() && shape.length > 0 && shape[0] >= 1;
        for (int i = 0; ok && i < shape.length; i++) ok = want.dim(i) < 0 ? shape[i] <= Integer.MAX_VALUE : shape[i] == want.dim(i);
        if (ok) return null;
        return "input '" + inputName() + "' of model '" + name + "' expects shape " + want + " (-1: any size, at least one row), got "
                + java.util.Arrays.toString(shape);
    }

    /** The model's output spec. */
    public TensorSpec outputSpec() { return config.model.outputSpecs().getFirst(); }

    /** The engine of each worker, in worker order: the state's engine {@code partitions} times, or the {@code engines} given. */
    public List<Engine> engines() { return config.workerEngines(engine); }

    /** The compiled batch sizes. */
    public int[] buckets() { return buckets.clone(); }

    /** Whether the buckets are compiled and the workers run (false again once {@link #drain}ing or closed). */
    public boolean isReady() { return ready && accepting; }

    /** The metrics. */
    public ServingMetrics metrics() { return metrics; }

    /** Requests (or pieces) waiting now. */
    public int queueDepth() { return queue.size(); }

    /** Queues {@code input} ({@code [rows, ...]}, rows >= 1) with no deadline. */
    public CompletableFuture<Tensor> submit(Tensor input) { return submit(input, null); }

    /**
     * Queues {@code input} ({@code [rows, ...]}); the future gives the output's rows for it, or fails with a
     * {@link ServingException}: at once when the input does not fit or the queue is full, with {@code TIMED_OUT}
     * when {@code deadline} (from now; null for none) passes before it ran. The input is copied: the caller keeps it.
     */
    public CompletableFuture<Tensor> submit(Tensor input, Duration deadline) {
        metrics.submitted();
        long now = System.nanoTime();
        Tensor x;
        try {
            if (!accepting) throw new ServingException(ServingException.Kind.UNAVAILABLE, "model '" + name + "' is not accepting requests (shutting down)");
            if (deadline != null && deadline.isNegative()) throw new ServingException(ServingException.Kind.BAD_INPUT, "the deadline must be >= 0, got " + deadline);
            x = prepared(input);
        } catch (ServingException e) {
            metrics.error(e.kind());
            return CompletableFuture.failedFuture(e);
        }
        int rows = (int) x.shape().dim(0), bs = config.batchSize;
        int n = (rows + bs - 1) / bs;
        long due = deadline == null ? Long.MAX_VALUE : now + Math.min(deadline.toNanos(), Long.MAX_VALUE / 4);
        PendingRequest r = new PendingRequest(n, now, due);
        List<Piece> pieces = new ArrayList<>(n);
        if (n == 1) {
            pieces.add(new Piece(r, 0, x, rows));
        } else {
            for (int i = 0; i < n; i++) {
                int start = i * bs, len = Math.min(bs, rows - start);
                pieces.add(new Piece(r, i, slice(x, start, len), len));
            }
            x.close();
        }
        synchronized (submitLock) {
            if (!accepting || queue.remainingCapacity() < n) {
                pieces.forEach(p -> p.input().close());
                ServingException e = accepting
                        ? new ServingException(ServingException.Kind.REJECTED, "the queue of model '" + name + "' is full (" + config.queueCapacity
                                + " waiting); retry later")
                        : new ServingException(ServingException.Kind.UNAVAILABLE, "model '" + name + "' is not accepting requests (shutting down)");
                metrics.error(e.kind());
                return CompletableFuture.failedFuture(e);
            }
            queue.addAll(pieces);
            metrics.accepted(queue.size());
        }
        if (deadline != null) {
            long wait = Math.max(0, due - System.nanoTime());
            deadlines.schedule(() -> expire(r), wait, TimeUnit.NANOSECONDS);
        }
        return r.future();
    }

    private void expire(PendingRequest r) {
        if (r.future().isDone()) return;
        ServingException e = new ServingException(ServingException.Kind.TIMED_OUT, "the request to model '" + name + "' passed its deadline before it ran");
        metrics.error(e.kind());   // counted first, so that a caller sees it once its future fails
        r.fail(e);
    }

    /**
     * Runs {@code batch} ({@code [rows, ...]}) now on this thread, padded to a bucket (split beyond the batch size),
     * outside the queue: Nx.Serving's {@code run}. It runs on the first engine served on; the answer is on the state's engine.
     */
    public Tensor run(Tensor batch) {
        if (stopped) throw new ServingException(ServingException.Kind.UNAVAILABLE, "model '" + name + "' is closed");
        Tensor x = prepared(batch);
        try {
            int rows = (int) x.shape().dim(0), bs = config.batchSize;
            Partition p = partitions.getFirst();
            if (rows <= bs) return runRows(p, x, rows);
            List<Tensor> parts = new ArrayList<>();
            try {
                for (int start = 0; start < rows; start += bs) {
                    try (Tensor part = slice(x, start, Math.min(bs, rows - start))) {
                        parts.add(runRows(p, part, (int) part.shape().dim(0)));
                    }
                }
                return Tensor.concatenate(parts, 0);
            } finally {
                parts.forEach(Tensor::close);
            }
        } finally {
            x.close();
        }
    }

    /** The input checked against the model's spec, as the spec's dtype on the serving engine (a copy the serving owns). */
    private Tensor prepared(Tensor input) {
        if (input == null) throw new ServingException(ServingException.Kind.BAD_INPUT, "the input must not be null");
        if (input.isClosed()) throw new ServingException(ServingException.Kind.BAD_INPUT, "the input was closed");
        Shape want = inputSpec.shape(), got = input.shape();
        if (got.rank() != want.rank() || !inputSpec.accepts(got) || got.dim(0) < 1) {
            throw new ServingException(ServingException.Kind.BAD_INPUT, "input '" + config.model.inputNames().getFirst() + "' of model '" + name
                    + "' expects shape " + want + " (-1: any size, at least one row), got " + input.dtype().shortName() + got);
        }
        DType t = inputSpec.dtype();
        if (input.dtype() == DType.PRED || (t.isFloat() != input.dtype().isFloat() && !t.isFloat())) {
            throw new ServingException(ServingException.Kind.BAD_INPUT, "input '" + config.model.inputNames().getFirst() + "' of model '" + name
                    + "' expects " + t.shortName() + " values, got " + input.dtype().shortName());
        }
        if (config.rejectNonFinite && input.dtype().isFloat()) {
            try (Tensor bad = input.isNan().logicalOr(input.isInfinity()).any()) {
                if (bad.toIntArray()[0] != 0) {
                    throw new ServingException(ServingException.Kind.BAD_INPUT, "the input to model '" + name + "' holds NaN or infinite values");
                }
            }
        }
        Tensor typed = input.dtype() == t ? input : input.asType(t);
        Tensor moved = typed.engine() == engine ? (typed == input ? typed.add(0) : typed) : typed.to(engine);
        if (typed != input && typed != moved) typed.close();
        return moved;
    }

    /** Rows {@code [start, start + len)} of {@code x}. */
    static Tensor slice(Tensor x, int start, int len) {
        int[] starts = new int[x.rank()], lengths = new int[x.rank()];
        for (int i = 0; i < lengths.length; i++) lengths[i] = (int) x.shape().dim(i);
        starts[0] = start;
        lengths[0] = len;
        return x.slice(starts, lengths);
    }

    /** The smallest bucket of at least {@code rows}. */
    int bucketFor(int rows) {
        for (int b : buckets) if (b >= rows) return b;
        return buckets[buckets.length - 1];
    }

    /** {@code x} ({@code rows <= batchSize}, on the home engine) padded to its bucket, run on {@code p}, cut back to {@code rows}, home again. */
    Tensor runRows(Partition p, Tensor x, int rows) { return p.runRows(x, rows, bucketFor(rows)); }

    // ---- what the workers see ----------------------------------------------------------------------------

    ArrayBlockingQueue<Piece> queue() { return queue; }

    int batchSize() { return config.batchSize; }

    long batchTimeoutNanos() { return config.batchTimeout.toNanos(); }

    boolean draining() { return !accepting; }

    boolean stopped() { return stopped; }

    AtomicInteger runningBatches() { return running; }

    /** Stops accepting and answers what is queued: readiness turns false at once. Returns when the queue is empty or at {@code timeout}. */
    public boolean drain(Duration timeout) {
        accepting = false;
        long until = System.nanoTime() + (timeout == null ? 0 : timeout.toNanos());
        while ((!queue.isEmpty() || running.get() > 0) && System.nanoTime() < until) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return queue.isEmpty() && running.get() == 0;
    }

    /**
     * Stops accepting, answers every accepted request (waiting at most the shutdown timeout), then stops the workers;
     * requests still queued after the timeout fail with {@code UNAVAILABLE}.
     */
    @Override
    public void close() {
        if (stopped) return;
        drain(config.shutdownTimeout);
        stopped = true;
        ready = false;
        for (Thread t : workers) t.interrupt();
        boolean joined = true;
        for (Thread t : workers) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            joined &= !t.isAlive();
        }
        if (joined) partitions.forEach(Partition::close); // a worker stuck in a batch still reads its state
        Piece p;
        while ((p = queue.poll()) != null) {
            p.request().fail(new ServingException(ServingException.Kind.UNAVAILABLE, "model '" + name + "' shut down before the request ran"));
            p.input().close();
        }
        deadlines.shutdownNow();
    }
}
