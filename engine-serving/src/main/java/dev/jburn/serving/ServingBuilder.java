package dev.jburn.serving;

import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The settings of a {@link Serving}, immutable; {@link #start()} copies the state to each engine served on,
 * compiles the padding buckets there and starts the workers. Start from {@link Serving#of(Model, ModelState)}:
 *
 * <pre>{@code
 * Serving s = Serving.of(model, state).batchSize(32).batchTimeout(Duration.ofMillis(5)).queueCapacity(1000)
 *         .buckets(1, 8, 32).start();
 * }</pre>
 */
public final class ServingBuilder {
    final Model model;
    final ModelState state;
    final UnaryOperator<Tensor> function;
    final int batchSize;
    final Duration batchTimeout;
    final int queueCapacity;
    final int partitions;
    /** The engine of each worker, or null for {@code partitions} workers on the state's engine. */
    final List<Engine> engines;
    final int[] buckets;
    final Duration shutdownTimeout;
    final boolean rejectNonFinite;

    ServingBuilder(Model model, ModelState state, UnaryOperator<Tensor> function, int batchSize, Duration batchTimeout, int queueCapacity,
                   int partitions, List<Engine> engines, int[] buckets, Duration shutdownTimeout, boolean rejectNonFinite) {
        this.model = model;
        this.state = state;
        this.function = function;
        this.batchSize = batchSize;
        this.batchTimeout = batchTimeout;
        this.queueCapacity = queueCapacity;
        this.partitions = partitions;
        this.engines = engines;
        this.buckets = buckets;
        this.shutdownTimeout = shutdownTimeout;
        this.rejectNonFinite = rejectNonFinite;
    }

    private ServingBuilder with(int batchSize, Duration batchTimeout, int queueCapacity, int partitions, int[] buckets, Duration shutdownTimeout,
                                boolean rejectNonFinite) {
        return new ServingBuilder(model, state, function, batchSize, batchTimeout, queueCapacity, partitions, engines, buckets, shutdownTimeout,
                rejectNonFinite);
    }

    /** Rows per batch at most (default 32); a request of more rows is split across batches and reassembled. */
    public ServingBuilder batchSize(int n) {
        if (n < 1) throw new JBurnException("serving", "the batch size must be >= 1, got " + n);
        return with(n, batchTimeout, queueCapacity, partitions, buckets, shutdownTimeout, rejectNonFinite);
    }

    /** How long a batch waits for more requests after its first was queued (default 5 ms; zero: run what is there). */
    public ServingBuilder batchTimeout(Duration d) {
        if (d == null || d.isNegative()) throw new JBurnException("serving", "the batch timeout must be >= 0, got " + d);
        return with(batchSize, d, queueCapacity, partitions, buckets, shutdownTimeout, rejectNonFinite);
    }

    /** Requests (or pieces of split requests) that may wait at most (default 1024); past it {@code submit} fails at once. */
    public ServingBuilder queueCapacity(int n) {
        if (n < 1) throw new JBurnException("serving", "the queue capacity must be >= 1, got " + n);
        return with(batchSize, batchTimeout, n, partitions, buckets, shutdownTimeout, rejectNonFinite);
    }

    /**
     * {@code k} workers running batches at the same time on the state's engine (default 1), sharing its state and
     * compiled buckets; replaces an {@link #engines} list given before.
     */
    public ServingBuilder partitions(int k) {
        if (k < 1 || k > 256) throw new JBurnException("serving", "partitions must be in [1, 256], got " + k);
        return new ServingBuilder(model, state, function, batchSize, batchTimeout, queueCapacity, k, null, buckets, shutdownTimeout, rejectNonFinite);
    }

    /**
     * One worker per engine listed, Nx.Serving's partitions across devices: each engine gets its own copy of the
     * state and its own compiled predict, its buckets compiled at {@link #start()}, and a batch goes to whichever
     * worker is free. The inputs and the answers stay on the state's engine (the answer is copied back from the
     * engine that ran it). An engine listed twice gets two workers sharing its copy. Replaces {@link #partitions(int)}.
     *
     * <pre>{@code
     * Serving s = Serving.of(model, state).engines(Engine.select("cpu"), Engine.select("cuda")).start();
     * }</pre>
     */
    public ServingBuilder engines(Engine... list) {
        if (list == null || list.length == 0) throw new JBurnException("serving", "engines: give at least one engine");
        if (list.length > 256) throw new JBurnException("serving", "engines: at most 256 workers, got " + list.length);
        for (int i = 0; i < list.length; i++) {
            if (list[i] == null) throw new JBurnException("serving", "engines: engine " + i + " of " + list.length + " is null");
        }
        return new ServingBuilder(model, state, function, batchSize, batchTimeout, queueCapacity, list.length, List.of(list), buckets,
                shutdownTimeout, rejectNonFinite);
    }

    /**
     * {@link #engines(Engine...)} by name, a comma list as {@code jburn serve --engine cpu,vulkan} takes it; an
     * unknown or unavailable name fails here, saying why and which engines are available.
     *
     * <pre>{@code
     * Serving s = Serving.of(model, state).engines("cpu,vulkan").start();
     * }</pre>
     */
    public ServingBuilder engines(String names) {
        if (names == null || names.isBlank()) throw new JBurnException("serving", "engines: give a comma list of engine names, e.g. cpu,vulkan");
        String[] parts = names.split(",", -1);
        Engine[] list = new Engine[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String n = parts[i].trim();
            if (n.isEmpty()) throw new JBurnException("serving", "engines: empty name at position " + i + " of '" + names + "'");
            try {
                list[i] = Engine.select(n);
            } catch (JBurnException e) {
                throw new JBurnException("serving", "cannot serve on engine '" + n + "': " + e.reason(), e);
            }
        }
        return engines(list);
    }

    /**
     * The batch sizes compiled at start (default 1, 8 and the batch size): a batch of {@code r} rows is padded to the
     * smallest bucket of at least {@code r} rows, so no request waits for a compile. The batch size is always one.
     */
    public ServingBuilder buckets(int... sizes) {
        if (sizes == null || sizes.length == 0) throw new JBurnException("serving", "give at least one bucket size");
        for (int b : sizes) if (b < 1) throw new JBurnException("serving", "bucket sizes must be >= 1, got " + Arrays.toString(sizes));
        return with(batchSize, batchTimeout, queueCapacity, partitions, sizes.clone(), shutdownTimeout, rejectNonFinite);
    }

    /** How long {@link Serving#close()} waits for accepted requests to be answered (default 30 s). */
    public ServingBuilder shutdownTimeout(Duration d) {
        if (d == null || d.isNegative()) throw new JBurnException("serving", "the shutdown timeout must be >= 0, got " + d);
        return with(batchSize, batchTimeout, queueCapacity, partitions, buckets, d, rejectNonFinite);
    }

    /** Whether an input holding NaN or ±Inf fails at once (a {@code BAD_INPUT}) instead of running (default false). */
    public ServingBuilder rejectNonFinite(boolean reject) {
        return with(batchSize, batchTimeout, queueCapacity, partitions, buckets, shutdownTimeout, reject);
    }

    /** The bucket sizes in use: the given ones up to the batch size, and the batch size, ascending. */
    int[] bucketSizes() {
        int[] b = (buckets == null ? new int[] {1, 8, batchSize} : buckets).clone();
        b = Arrays.stream(b).map(x -> Math.min(x, batchSize)).distinct().sorted().toArray();
        if (b[b.length - 1] != batchSize) {
            b = Arrays.copyOf(b, b.length + 1);
            b[b.length - 1] = batchSize;
        }
        return b;
    }

    /** The engine of each worker, the state's engine {@code partitions} times unless {@link #engines} named them. */
    List<Engine> workerEngines(Engine home) { return engines != null ? engines : java.util.Collections.nCopies(partitions, home); }

    /** Compiles every bucket (a warm-up batch of zeros each) and starts the workers. */
    public Serving start() { return new Serving(this); }
}
